// Creating videos (generation and conversion share the credit and concurrency rules) and viewing them.
import { randomUUID } from 'node:crypto';
import type { SuccessBody } from '@videogen/openapi/types';
import type { Account } from './accounts.js';
import type { Context } from './context.js';
import { ApiError, refusal } from './errors.js';
import { Json } from './json-body.js';
import { COPYRIGHT, statusAt, type VideoRecord } from './lifecycle.js';

/** The status view of 2.1, as GET /videos/{video_id}/ answers it. */
export type StatusView = SuccessBody<'getVideo'>;

export function statusView(ctx: Context, v: Readonly<VideoRecord>): StatusView {
  const now = ctx.clock.now(v.account);
  const status = statusAt(v, now);
  const completed = status === 'completed';
  return {
    video_id: v.video_id,
    status,
    download_url: completed
      ? ctx.signer.issue(ctx.downloadOrigin, v.video_id, now, ctx.clock.ms(ctx.twin.download.ttlSeconds))
      : '',
    copyright: completed ? v.copyright : [],
  };
}

/**
 * The status view as answered: the same Json (serialized once) while the video's status and
 * download_url stay the same (a poll loop; the URL itself is reissued once per sixtieth of its
 * lifetime), a new one as soon as either changes.
 */
export function statusJson(ctx: Context, v: Readonly<VideoRecord>): Json<StatusView> {
  const view = statusView(ctx, v);
  const last = ctx.views.get(v.video_id);
  if (last && last.value.status === view.status && last.value.download_url === view.download_url) return last;
  const json = new Json(view);
  ctx.views.set(v.video_id, json);
  return json;
}

/**
 * The last checks before work starts (credit 429, then concurrency 503), in the order of the brief: a
 * conversion's answers are 7.2's; a generation's are open refusals (the twin's words).
 */
export function checkCapacity(ctx: Context, account: Account, what: 'generation' | 'conversion') {
  if (ctx.store.creditsOf(account.name) < 1) {
    const message = `The credit balance is insufficient for this ${what}.`;
    throw what === 'generation'
      ? refusal('generation_no_credit', message)
      : new ApiError(429, 'INSUFFICIENT_CREDIT', message);
  }
  const now = ctx.clock.now(account.name);
  const running = ctx.store.runningAt(account.name, now);
  const max = ctx.twin.concurrencyLimit;
  if (running.length >= max) {
    const next = Math.min(...running.map((v) => v.finishes_at));
    const message = `At most ${max} videos can be generated or converted at the same time per account.`;
    const headers = { 'Retry-After': ctx.clock.headerSeconds(next - now) };
    throw what === 'generation'
      ? refusal('generation_concurrency', message, headers)
      : new ApiError(503, 'SIMULTANEOUS_GENERATE_LIMIT', message, headers);
  }
}

export interface NewVideo {
  /** How long it runs, service seconds (the twin's duration for its mode). */
  seconds: number;
  prompt: string;
  language: string;
  aspect_ratio: string;
  voices: string[] | 'all';
  outcome: 'completed' | 'failed';
  has_video_data: boolean;
  real_avatar: boolean;
  /** `[sandbox:expire]`: expires one generation time after completing. */
  expire_soon: boolean;
  source_video_id?: string;
}

/** Resolves once the video is stored (durably, with a data dir): only then may it be acknowledged. */
export async function startVideo(ctx: Context, account: Account, spec: NewVideo): Promise<VideoRecord> {
  const now = ctx.clock.now(account.name);
  const generation = ctx.clock.ms(spec.seconds);
  const finishes_at = now + generation;
  const v: VideoRecord = {
    video_id: randomUUID(),
    account: account.name,
    created_at: now,
    prompt: spec.prompt,
    finishes_at,
    outcome: spec.outcome,
    expires_at: finishes_at + (spec.expire_soon ? generation : ctx.clock.ms(ctx.twin.expireAfterSeconds)),
    language: spec.language,
    aspect_ratio: spec.aspect_ratio,
    voices: spec.voices,
    has_video_data: spec.has_video_data,
    real_avatar: spec.real_avatar,
    copyright: spec.outcome === 'completed' ? [...COPYRIGHT] : [],
    ...(spec.source_video_id ? { source_video_id: spec.source_video_id } : {}),
  };
  await ctx.store.create(v);
  return v;
}
