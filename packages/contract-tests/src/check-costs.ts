// What each check costs on the target, declared so that a run can be planned without sending
// (contract --plan) and kept inside a credit budget. Derived where the catalogue says it: a check
// not listed sends one request of its operation's rate class (x-rate-limit) and spends nothing; the
// conformance checks send nothing. The rest is declared here and held to a real full run against the
// sandbox by test/plan.test.ts (per check: class-A and class-B requests and credits exactly).
//
// A credit (DECISION of this suite, the interface shows no price): one generation or conversion
// accepted by the target (a 2xx answer to POST /videos/generate/ or POST /videos/{id}/conversions/).
import { MAX_RUNNING, RATE_LIMITS } from '@videogen/openapi/rules';
import { INPUT_MODES } from './fixtures.ts';
import { NEWEST_READ, SHARED, SHARED_MODE } from './checks/shared-generations.ts';

/** Text generations the probe adds when the limit is above the shared generations (none today). */
const EXTRA = Math.max(0, MAX_RUNNING - SHARED);

export type Needs = 'other' | 'freePlan' | 'noCredit' | 'notConvertibleVideoId' | 'realAvatarVideoId' | 'unknownErrorVideoId' | 'limitedVoicesVideoId';

export interface CheckCost {
  /** Class-A requests (POST generate / convert). */
  A: number;
  /** Class-B requests, not counting the status reads of videos the run created. */
  B: number;
  /** Least status reads of created videos (one per video waited for; more while it runs). */
  reads: number;
  credits: number;
  /** The count depends on what the target states: B is the most it sends. */
  upTo?: boolean;
  /** Checks sharing one `run.once` result: the group's cost is declared on its first check. */
  group?: string;
  /** Account or fixture without which the check skips. */
  needs?: Needs[];
  /** Sends class-A requests or bursts: only in the full profile. */
  full?: boolean;
  /** Of these, requests sent by another account or without a key (paced apart from the main account). */
  apart?: { A?: number; B?: number };
}

type Decl = Partial<CheckCost>;

const NEG_POST: Decl = { A: 1, B: 0 };
const CONVERSION_ROW: Decl = { A: 1, B: 1 };

/** Declarations that differ from "one request of the operation's class". Keyed by `operation › name`. */
export const DECLARED: Record<string, Decl> = {
  'listVideoSettings › negative_data_rejection_page': { B: 4 },
  'listVideos › negative_data_rejection_page': { B: 4 },
  'listVideoSettings › paging_first_page': { B: 2 },
  'listVideoSettings › paging_past_the_end': { B: 2 },
  'listVideos › paging_first_page': { B: 2 },
  'listVideos › paging_past_the_end': { B: 2 },
  'getVideo › negative_data_rejection_malformed_id': { B: 2 },
  'getConversionOptions › negative_data_rejection_malformed_id': { B: 2 },
  'getVideo › not_found_other_account': { B: 2, needs: ['other'], apart: { B: 1 } },
  'getConversionOptions › not_found_other_account': { B: 2, needs: ['other'], apart: { B: 1 } },
  // The run's shared generations (shared-generations.ts), one budget group: a text generation, a status
  // read of it, the pdf_file mode's generation. They serve the generation checks, the pdf_file mode and
  // both concurrency checks.
  'generateVideo › generate_returns_video_id': { A: SHARED, B: 0, reads: 1, credits: SHARED, group: 'generation' },
  'generateVideo › generate_new_id_each_time': { A: 0, B: 0, group: 'generation' },
  'getVideo › status_view_running': { A: 0, B: 0, group: 'generation' },
  'getVideo › status_view_generated_completes': { A: 0, B: 0, reads: 1, group: 'generation' },
  'listVideos › lists_generated_video': { B: 1, group: 'generation', full: true },
  [`generateVideo › generate_mode_${SHARED_MODE.name}`]: { A: 0, B: 0, group: 'generation' },
  // The concurrency probe, sent while the shared generations run, on these checks' behalf (Run.onBehalfOf):
  // on a stateful target first the account's list and the status of its newest videos (waited until none
  // runs), then more text generations were the limit above the shared ones, the status of all (running),
  // a third generation refused; a conversion refused, the status of all again.
  'generateVideo › concurrency_limit': { A: EXTRA + 1, B: 1 + NEWEST_READ, reads: MAX_RUNNING, credits: EXTRA, group: 'generation' },
  'createConversion › concurrency_limit_shared': { A: 1, B: 0, reads: MAX_RUNNING, group: 'generation' },
  'generateVideo › negative_data_rejection_schema': { A: 2, B: 0 },
  'generateVideo › negative_data_rejection_semantics': NEG_POST,
  // One conversion of the convertible fixture, shared by the conversion checks (conversions.ts).
  'createConversion › convert_returns_new_id': { A: 1, B: 2, credits: 1, group: 'conversion' },
  'createConversion › source_unchanged': { A: 0, B: 2, group: 'conversion' },
  'createConversion › converted_video_completes': { A: 0, B: 1, reads: 1, group: 'conversion' },
  'createConversion › negative_data_rejection_schema': { A: 3, B: 0 },
  'createConversion › convert_target_required': CONVERSION_ROW,
  'createConversion › invalid_language': CONVERSION_ROW,
  'createConversion › invalid_aspect_ratio': CONVERSION_ROW,
  'createConversion › convert_no_change_language': CONVERSION_ROW,
  'createConversion › convert_no_change_aspect_ratio': CONVERSION_ROW,
  'createConversion › language_not_supported_by_voices': { ...CONVERSION_ROW, needs: ['limitedVoicesVideoId'] },
  'createConversion › source_not_convertible': { ...CONVERSION_ROW, needs: ['notConvertibleVideoId'] },
  'createConversion › unsupported_heavy_avatar': { ...CONVERSION_ROW, needs: ['realAvatarVideoId'] },
  'createConversion › not_found_unknown_id': NEG_POST,
  'createConversion › not_found_other_account': { A: 1, B: 1, needs: ['other'], apart: { B: 1 } },
  'createConversion › negative_data_rejection_malformed_id': NEG_POST,
  'createConversion › insufficient_credit_free_plan': { ...NEG_POST, needs: ['freePlan'], apart: { A: 1 } },
  'createConversion › insufficient_credit_balance': { ...NEG_POST, needs: ['noCredit'], apart: { A: 1 } },
  'createConversion › unknown_error': { ...NEG_POST, needs: ['unknownErrorVideoId'] },
  // Every other input mode: one generation each, after waiting for a free place (generation-modes.ts).
  ...Object.fromEntries(
    INPUT_MODES.filter((m) => m !== SHARED_MODE).map((m) => [`generateVideo › generate_mode_${m.name}`, { A: 1, B: 0, reads: 1, credits: 1 }]),
  ),
  'generateVideo › negative_data_rejection_file_over_plan_limit': { A: 1, B: 1, needs: ['other'], apart: { A: 1, B: 1 } },
  // One more than the window allows, unpaced: the limit the target states (RateLimit-Policy) else the spec's.
  'listVideoSettings › rate_limit_burst': { B: RATE_LIMITS.B.requests + 1, upTo: true, full: true },
};
