// The deliberate contract breaks of the self-test, each with the check that must catch it.
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { gzipBomb as buildGzipBomb } from '../../../scripts/hostile/gzip-bomb.mjs';
import {
  DROP,
  editJson,
  pathOf,
  queryOf,
  type Break,
  type ProxiedRequest,
  type ProxiedResponse,
} from './breaking-proxy.ts';
import type { AttemptLimits, TargetConfig } from '../src/shapes.ts';

export interface BreakCase {
  name: string;
  /** Check ids (`operation › check`) that must fail. */
  expect: string[];
  /**
   * The break differs only from this decision of ours (DECISIONS.md), not from the interface: the
   * expected checks must report a mismatch with it, and no check may fail.
   */
  decision?: number;
  /** No check other than `expect` may fail: the break must not cascade into checks that share its requests. */
  only?: boolean;
  /** The break waits for the sandbox's time to pass during the burst: it is not held (TargetConfig.holdTime). */
  burstInRealTime?: boolean;
  /** Operations whose checks run against this break (a subset keeps 20 runs fast). */
  operations: string[];
  /** What the failing checks' messages must say (every `expect` check's). */
  message?: RegExp;
  /** The suite's limits for this run (short deadlines, so that a hostile transport ends in seconds). */
  limits?: AttemptLimits;
  make(target: TargetConfig): Break;
}

const isJson = (res: ProxiedResponse) => /json/.test(res.headers['content-type'] ?? '');
const VIDEO = /^\/v1\/videos\/([^/]+)\/$/;
const OPTIONS = /^\/v1\/videos\/([^/]+)\/conversions\/$/;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/**
 * How long a break that holds a request (a queue, a hidden 429) keeps asking upstream: a deadline, not a
 * count of tries, since a loaded machine makes each try slower; inside the suite's own 60 s limit on one
 * request (engine/http.ts) and the test's timeout.
 */
const HOLD_DEADLINE_MS = 40_000;
const GENERATE = '/v1/videos/generate/';
const isGenerate = (req: { method: string; url: string }) =>
  req.method === 'POST' && req.url.split('?')[0] === GENERATE;
const json = (status: number, body: unknown): ProxiedResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  text: JSON.stringify(body),
});

/** Headers, then one byte of JSON whitespace a second for as long as the caller listens: a body that never ends. */
const drip = (res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"video_id": ');
  const timer = setInterval(() => res.write(' '), 1000);
  res.on('close', () => clearInterval(timer));
};

/** 1 GiB of JSON whitespace, gzipped (about 1 MB): made once, when a break first needs it. */
let bomb: Promise<Buffer> | undefined;
export function gzipBomb(): Promise<Buffer> {
  bomb ??= buildGzipBomb();
  return bomb;
}

export const BREAKS: BreakCase[] = [
  // What the interface leaves open answered the way a production backend (Django REST Framework)
  // does. Each differs from our decision only: drift under it, never an interface failure.
  {
    name: 'a page past the end answered 404 NOT_FOUND "Invalid page." (DRF): decision #30',
    expect: ['listVideos › paging_past_the_end', 'listVideoSettings › paging_past_the_end'],
    decision: 30,
    operations: ['listVideos', 'listVideoSettings'],
    make: () => ({
      response: (res, req) => {
        if (req.method !== 'GET' || !/^\/v1\/(videos|video-settings)\/$/.test(pathOf(req)) || res.status !== 200)
          return undefined;
        const b = JSON.parse(res.text);
        return b.page > 1 && b.results.length === 0
          ? json(404, { error_code: 'NOT_FOUND', error: 'Invalid page.' })
          : undefined;
      },
    }),
  },
  {
    name: 'page=0 and page=abc answered 404 NOT_FOUND (DRF): decision #5',
    expect: ['listVideos › negative_data_rejection_page', 'listVideoSettings › negative_data_rejection_page'],
    decision: 5,
    operations: ['listVideos', 'listVideoSettings'],
    make: () => ({
      request: (req) =>
        req.method === 'GET' && ['0', 'abc'].includes(queryOf(req).get('page') ?? '')
          ? json(404, { error_code: 'NOT_FOUND', error: 'Invalid page.' })
          : undefined,
    }),
  },
  {
    name: '202 Accepted on creation (generation and conversion): decision #2',
    expect: ['generateVideo › generate_returns_video_id', 'createConversion › convert_returns_new_id'],
    decision: 2,
    operations: ['generateVideo', 'createConversion', 'getVideo'],
    make: () => ({
      response: (res, req) => (req.method === 'POST' && res.status === 200 ? { ...res, status: 202 } : undefined),
    }),
  },
  {
    name: 'an authentication error code never seen before (401 AUTHENTICATION_FAILED): decision #7',
    expect: [
      'listVideos › ignored_auth_missing',
      'getVideo › ignored_auth_unknown_key',
      'generateVideo › ignored_auth_malformed',
    ],
    decision: 7,
    operations: ['listVideos', 'getVideo', 'generateVideo'],
    make: () => ({
      response: (res) =>
        res.status === 401 ? editJson(res, (b) => void (b.error_code = 'AUTHENTICATION_FAILED')) : undefined,
    }),
  },
  {
    name: 'a missing key answered 403 instead of 401: decision #29',
    expect: ['listVideoSettings › ignored_auth_missing'],
    decision: 29,
    operations: ['listVideoSettings'],
    make: () => ({
      response: (res) =>
        res.status === 401 ? { ...editJson(res, (b) => void (b.error_code = 'FORBIDDEN')), status: 403 } : undefined,
    }),
  },
  {
    name: 'a setting used with fields it does not list accepted (lenient request_fields): decision #26',
    expect: ['generateVideo › negative_data_rejection_setting_fields_mismatch'],
    decision: 26,
    operations: ['generateVideo'],
    make: (t) => ({
      request: (req) =>
        isGenerate(req) && req.body.includes(t.fixtures.videoSettingId!) && req.body.includes('name="pdf_file"')
          ? json(200, { video_id: randomUUID() })
          : undefined,
    }),
  },
  {
    // A 5xx that persists past the retries of 7.1 is a server error, whatever the check.
    name: 'a 502 that persists past the retries (every GET of the settings)',
    expect: ['listVideoSettings › not_a_server_error', 'listVideoSettings › paging_first_page'],
    operations: ['listVideoSettings'],
    make: () => ({
      request: (req) =>
        req.method === 'GET' && pathOf(req) === '/v1/video-settings/'
          ? json(502, { error_code: 'BAD_GATEWAY', error: 'upstream unavailable' })
          : undefined,
    }),
  },

  {
    // The success status is our choice (#2), the video_id in the body is the interface's (4.1).
    name: 'interface break inside a decided element (201 on generate, and no video_id)',
    expect: ['generateVideo › generate_returns_video_id', 'generateVideo › response_schema_conformance'],
    operations: ['generateVideo'],
    make: () => ({
      response: (res, req) =>
        isGenerate(req) && res.status === 200
          ? { ...editJson(res, (b) => void delete b.video_id), status: 201 }
          : undefined,
    }),
  },
  {
    // 422 for a bad form is a decision mismatch (#5); a body that is not the envelope breaks 7.1.
    name: 'interface break inside a decided element (422 for a bad form, without the envelope)',
    expect: ['generateVideo › negative_data_rejection_schema', 'generateVideo › error_envelope'],
    operations: ['generateVideo'],
    make: () => ({
      response: (res, req) =>
        isGenerate(req) && res.status === 400
          ? {
              status: 422,
              headers: { 'content-type': 'application/json' },
              text: JSON.stringify({ message: 'bad form' }),
            }
          : undefined,
    }),
  },
  {
    name: 'another success status (201 for a status read): decision #2, not an interface failure',
    expect: ['getVideo › status_code_conformance'],
    decision: 2,
    operations: ['getVideo'],
    make: () => ({
      response: (res, req) =>
        req.method === 'GET' && VIDEO.test(pathOf(req)) && res.status === 200 ? { ...res, status: 201 } : undefined,
    }),
  },
  {
    name: 'malformed rate-limit header (RateLimit-Remaining: "lots"): the headers are our choice (#12)',
    expect: ['getVideo › response_headers_conformance'],
    decision: 12,
    operations: ['getVideo'],
    make: () => ({
      response: (res, req) =>
        VIDEO.test(pathOf(req)) && res.status === 200
          ? { ...res, headers: { ...res.headers, 'ratelimit-remaining': 'lots' } }
          : undefined,
    }),
  },
  {
    name: 'missing required field (copyright dropped)',
    expect: ['getVideo › response_schema_conformance'],
    operations: ['getVideo'],
    make: () => ({
      response: (res, req) =>
        VIDEO.test(pathOf(req)) && res.status === 200 ? editJson(res, (b) => void delete b.copyright) : undefined,
    }),
  },
  {
    name: 'wrong type (total_count as a string)',
    expect: ['listVideos › response_schema_conformance', 'listVideos › paging_first_page'],
    operations: ['listVideos'],
    make: () => ({
      response: (res, req) =>
        pathOf(req) === '/v1/videos/' && res.status === 200
          ? editJson(res, (b) => void (b.total_count = String(b.total_count)))
          : undefined,
    }),
  },
  {
    name: 'value outside an enum (status "done")',
    expect: ['getVideo › response_schema_conformance'],
    operations: ['getVideo'],
    make: () => ({
      response: (res, req) =>
        VIDEO.test(pathOf(req)) && res.status === 200
          ? editJson(res, (b) => void (b.status === 'completed' && (b.status = 'done')))
          : undefined,
    }),
  },
  {
    name: 'broken error envelope on 404 ({message})',
    expect: ['getVideo › error_envelope', 'getVideo › not_found_unknown_id'],
    operations: ['getVideo'],
    make: () => ({
      response: (res) => (res.status === 404 ? { ...res, text: JSON.stringify({ message: 'not found' }) } : undefined),
    }),
  },
  {
    name: 'ignored auth (any request gets a valid key)',
    expect: [
      'listVideoSettings › ignored_auth_missing',
      'listVideoSettings › ignored_auth_malformed',
      'listVideoSettings › ignored_auth_unknown_key',
    ],
    operations: ['listVideoSettings'],
    make: (t) => ({
      request: (req) => {
        const valid = [t.apiKey, t.otherAccountKey, t.freePlanKey, t.noCreditKey].map((k) => `Bearer ${k}`);
        if (!valid.includes(req.headers.authorization ?? '')) req.headers.authorization = `Bearer ${t.apiKey}`;
      },
    }),
  },
  {
    name: "cross-account leak (another account's video served)",
    expect: ['getVideo › not_found_other_account'],
    operations: ['getVideo'],
    make: (t) => ({
      request: (req) => {
        const m = VIDEO.exec(pathOf(req));
        if (m && m[1] === t.fixtures.otherAccountVideoId) req.headers.authorization = `Bearer ${t.otherAccountKey}`;
      },
    }),
  },
  {
    name: 'has_next wrong (always true)',
    expect: ['listVideoSettings › paging_first_page'],
    operations: ['listVideoSettings'],
    make: () => ({
      response: (res, req) =>
        pathOf(req) === '/v1/video-settings/' && res.status === 200
          ? editJson(res, (b) => void (b.has_next = true))
          : undefined,
    }),
  },
  {
    name: 'items_per_page 20',
    expect: ['listVideos › paging_first_page', 'listVideos › response_schema_conformance'],
    operations: ['listVideos'],
    make: () => ({
      response: (res, req) =>
        pathOf(req) === '/v1/videos/' && res.status === 200
          ? editJson(res, (b) => void (b.items_per_page = 20))
          : undefined,
    }),
  },
  {
    name: 'page past the end not empty (page 1 served for any page): decision #30',
    expect: ['listVideoSettings › paging_past_the_end'],
    decision: 30,
    operations: ['listVideoSettings'],
    make: () => ({
      request: (req) => {
        if (
          pathOf(req) === '/v1/video-settings/' &&
          /^\d+$/.test(queryOf(req).get('page') ?? '') &&
          Number(queryOf(req).get('page')) > 1
        )
          req.url = '/v1/video-settings/?page=1';
      },
    }),
  },
  {
    name: 'wrong content type (text/plain on a list)',
    expect: ['listVideoSettings › content_type_conformance'],
    operations: ['listVideoSettings'],
    make: () => ({
      response: (res, req) =>
        pathOf(req) === '/v1/video-settings/' && res.status === 200
          ? { ...res, headers: { ...res.headers, 'content-type': 'text/plain' } }
          : undefined,
    }),
  },
  {
    name: 'reused id (the first generation replayed)',
    expect: ['generateVideo › generate_new_id_each_time'],
    operations: ['generateVideo'],
    make: () => {
      let first: ProxiedResponse | undefined;
      return {
        request: (req) =>
          req.method === 'POST' && pathOf(req) === '/v1/videos/generate/' && first ? first : undefined,
        response: (res, req) => {
          if (req.method === 'POST' && pathOf(req) === '/v1/videos/generate/' && res.status === 200 && !first)
            first = res;
        },
      };
    },
  },
  {
    name: '500 on bad input (page=abc)',
    expect: ['listVideos › negative_data_rejection_page', 'listVideos › not_a_server_error'],
    operations: ['listVideos'],
    make: () => ({
      request: (req) => {
        const page = queryOf(req).get('page');
        if (pathOf(req) === '/v1/videos/' && page !== null && !/^[1-9]\d*$/.test(page)) {
          return {
            status: 500,
            headers: { 'content-type': 'application/json' },
            text: JSON.stringify({ error_code: 'UNKNOWN_ERROR', error: 'boom' }),
          };
        }
      },
    }),
  },
  {
    name: 'download_url non-empty while running',
    expect: ['getVideo › status_view_running'],
    operations: ['getVideo'],
    make: () => ({
      response: (res, req) =>
        VIDEO.test(pathOf(req)) && res.status === 200
          ? editJson(res, (b) => void (b.status === 'running' && (b.download_url = 'https://cdn.example/early.mp4')))
          : undefined,
    }),
  },
  {
    name: 'conversion changes the source (its language)',
    expect: ['createConversion › source_unchanged'],
    operations: ['createConversion'],
    make: () => {
      const changed = new Map<string, string>();
      return {
        response: (res, req) => {
          const m = OPTIONS.exec(pathOf(req));
          if (!m) return;
          if (req.method === 'POST' && res.status === 200) {
            const lang = JSON.parse(req.body.toString() || '{}').language;
            if (lang) changed.set(m[1], lang);
          }
          if (req.method === 'GET' && res.status === 200 && changed.has(m[1]))
            return editJson(res, (b) => void (b.current_language = changed.get(m[1])));
        },
      };
    },
  },
  {
    name: 'non-convertible video converted anyway',
    expect: ['createConversion › source_not_convertible'],
    operations: ['createConversion'],
    make: (t) => ({
      request: (req) => {
        const m = OPTIONS.exec(pathOf(req));
        if (req.method === 'POST' && m && m[1] === t.fixtures.notConvertibleVideoId) {
          return {
            status: 200,
            headers: { 'content-type': 'application/json' },
            text: JSON.stringify({ video_id: randomUUID() }),
          };
        }
      },
    }),
  },
  {
    name: 'undocumented error_code (INVALID_LANGUAGE renamed)',
    // Conversion 400 codes are open since spec 1.1.0 (known codes + any string): the renamed code breaks 7.2's
    // condition -> code rule, which invalid_language checks; the schema (documented_error_code) allows it.
    expect: ['createConversion › invalid_language'],
    operations: ['createConversion'],
    make: () => ({
      response: (res) =>
        res.status === 400 && isJson(res)
          ? editJson(res, (b) => void (b.error_code === 'INVALID_LANGUAGE' && (b.error_code = 'BAD_LANGUAGE')))
          : undefined,
    }),
  },
  {
    // The pdf_file generation is also the run's shared second generation (shared-generations.ts): its
    // refusal must fail its own check only, not the new-id and concurrency checks that share it.
    name: 'pdf_file generations refused (400), no cascade into the checks sharing it',
    expect: ['generateVideo › generate_mode_pdf_file'],
    only: true,
    operations: ['generateVideo', 'getVideo', 'createConversion'],
    make: () => ({
      request: (req) =>
        isGenerate(req) &&
        /name="pdf_file"/.test(req.body?.toString('latin1') ?? '') &&
        !/name="text"/.test(req.body?.toString('latin1') ?? '')
          ? json(400, { error_code: 'FILE_UPLOAD_ERROR', error: 'scripted: pdf_file refused' })
          : undefined,
    }),
  },
  {
    name: 'no concurrency limit (503 turned into a new video)',
    expect: ['generateVideo › concurrency_limit', 'createConversion › concurrency_limit_shared'],
    operations: ['generateVideo', 'createConversion'],
    make: () => ({
      response: (res, req) =>
        req.method === 'POST' && res.status === 503
          ? {
              status: 200,
              headers: { 'content-type': 'application/json' },
              text: JSON.stringify({ video_id: randomUUID() }),
            }
          : undefined,
    }),
  },
  {
    // A queue instead of the 503 of 8.2: the third generation is held until a slot frees, then 200.
    name: 'a queue instead of the concurrency limit (503 held until a slot frees, then 200)',
    expect: ['generateVideo › concurrency_limit'],
    operations: ['generateVideo'],
    make: () => ({
      response: async (res, req, upstream) => {
        if (!isGenerate(req) || res.status !== 503) return undefined;
        // Asked again until a slot frees, however slowly a loaded machine runs; the deadline only ends a hang.
        const deadline = Date.now() + HOLD_DEADLINE_MS;
        let r = res;
        while (r.status === 503 && Date.now() < deadline) {
          await sleep(50);
          r = await upstream(req);
        }
        return r;
      },
    }),
  },
  {
    name: 'no rate limit (429 hidden by waiting upstream)',
    expect: ['listVideoSettings › rate_limit_burst'],
    burstInRealTime: true,
    operations: ['listVideoSettings'],
    make: () => ({
      response: async (res, req, upstream) => {
        // Waited out until the limiter lets it through, however many rounds the burst's requests take.
        const deadline = Date.now() + HOLD_DEADLINE_MS;
        let r = res;
        while (r.status === 429 && Date.now() < deadline) {
          await sleep(Number(r.headers['retry-after'] ?? 0.05) * 1000 + 5);
          r = await upstream(req);
        }
        return r;
      },
    }),
  },
  {
    name: 'download_url that does not download',
    expect: ['getVideo › download_url_downloads'],
    operations: ['getVideo'],
    make: () => ({
      response: (res, req) =>
        VIDEO.test(pathOf(req)) && res.status === 200
          ? editJson(res, (b) => void (b.status === 'completed' && (b.download_url = 'http://127.0.0.1:9/missing.mp4')))
          : undefined,
    }),
  },
  {
    name: 'more than 50 results on a page',
    expect: ['listVideoSettings › response_schema_conformance', 'listVideoSettings › paging_first_page'],
    operations: ['listVideoSettings'],
    make: () => ({
      response: (res, req) =>
        pathOf(req) === '/v1/video-settings/' && res.status === 200
          ? editJson(
              res,
              (b) =>
                void (
                  b.results.length &&
                  (b.results = Array.from({ length: 60 }, (_, i) => b.results[i % b.results.length]))
                ),
            )
          : undefined,
    }),
  },
  {
    name: 'wrong file extension accepted (notes.txt as pdf_file → 200)',
    expect: ['generateVideo › negative_data_rejection_file_extension'],
    operations: ['generateVideo'],
    make: () => ({
      request: (req) =>
        isGenerate(req) && req.body.includes('filename="notes.txt"')
          ? json(200, { video_id: randomUUID() })
          : undefined,
    }),
  },
  {
    name: 'failed video reported completed (with a download_url)',
    expect: ['getVideo › status_view_failed'],
    operations: ['getVideo'],
    make: (t) => ({
      response: (res, req) => {
        const m = VIDEO.exec(pathOf(req));
        if (!m || m[1] !== t.fixtures.failedVideoId || res.status !== 200) return;
        // Schema-valid: only the state is wrong, so only the status-view check can see it.
        return editJson(
          res,
          (b) => void Object.assign(b, { status: 'completed', download_url: `https://cdn.example/${m[1]}.mp4` }),
        );
      },
    }),
  },
  {
    name: 'expired video reported running',
    expect: ['getVideo › status_view_expired'],
    operations: ['getVideo'],
    make: (t) => ({
      response: (res, req) => {
        const m = VIDEO.exec(pathOf(req));
        return m && m[1] === t.fixtures.expiredVideoId && res.status === 200
          ? editJson(res, (b) => void Object.assign(b, { status: 'running', download_url: '', copyright: [] }))
          : undefined;
      },
    }),
  },
  {
    name: 'one input mode refused (pptx_file → 400 FILE_UPLOAD_ERROR)',
    expect: ['generateVideo › generate_mode_pptx_file'],
    operations: ['generateVideo'],
    make: () => ({
      request: (req) =>
        isGenerate(req) && req.body.includes('name="pptx_file"')
          ? json(400, { error_code: 'FILE_UPLOAD_ERROR', error: 'The file could not be uploaded.' })
          : undefined,
    }),
  },
  {
    name: 'file upload errors answered with another code (FILE_UPLOAD_ERROR → INVALID_REQUEST): decision #8',
    expect: [
      'generateVideo › negative_data_rejection_file_extension',
      'generateVideo › negative_data_rejection_too_many_images',
      'generateVideo › negative_data_rejection_file_over_plan_limit',
    ],
    decision: 8,
    operations: ['generateVideo'],
    make: () => ({
      response: (res, req) =>
        isGenerate(req) && res.status === 400
          ? editJson(res, (b) => void (b.error_code === 'FILE_UPLOAD_ERROR' && (b.error_code = 'INVALID_REQUEST')))
          : undefined,
    }),
  },
  // Hostile transports. Before, one attempt had 60 s for headers and body
  // together, a drip held each request 4 minutes (its retries included), and a bomb was inflated whole.
  {
    name: "an expired video's status view drips: headers, then a byte a second (a body that never ends)",
    expect: ['getVideo › status_view_expired'],
    only: true,
    operations: ['getVideo'],
    message: /stalled: less than 1024 bytes in 1 s/,
    limits: { bodyTimeoutMs: 1000 },
    make: (t) => ({
      response: (res, req) => (pathOf(req) === `/v1/videos/${t.fixtures.expiredVideoId}/` ? drip : undefined),
    }),
  },
  {
    name: "an unknown video's 404 is a gzip bomb (1 MB that inflates to 1 GiB)",
    expect: ['getVideo › not_found_unknown_id'],
    only: true,
    operations: ['getVideo'],
    message: /exceeds the limit of 16777216 bytes/,
    make: (t) => ({
      response: async (res, req) => {
        const id = VIDEO.exec(pathOf(req))?.[1];
        if (res.status !== 404 || !id || id === t.fixtures.otherAccountVideoId) return undefined;
        const body = await gzipBomb();
        return (out: ServerResponse) =>
          out
            .writeHead(404, {
              'content-type': 'application/json',
              'content-encoding': 'gzip',
              'content-length': String(body.length),
            })
            .end(body);
      },
    }),
  },
  {
    name: 'a file past the plan limit accepted (51 MB audio on the Personal plan → 200)',
    expect: ['generateVideo › negative_data_rejection_file_over_plan_limit'],
    operations: ['generateVideo'],
    make: () => ({
      request: (req) =>
        isGenerate(req) && req.body.length > 50_000_000 ? json(200, { video_id: randomUUID() }) : undefined,
    }),
  },
];

/** A create as the target received it: its path and its body, the multipart boundary left out (it differs per send). */
export function createSignature(req: ProxiedRequest): string {
  const boundary = /boundary=("?)([^";]+)\1/.exec(req.headers['content-type'] ?? '')?.[2];
  const body = req.body.toString('latin1');
  return `${req.method} ${pathOf(req)} ${boundary ? body.split(boundary).join('') : body}`;
}

const BAD_GATEWAY = json(502, { error_code: 'BAD_GATEWAY', error: 'The upstream did not answer in time.' });

/**
 * A server in front of the sandbox that spoils the answer to the first generation, and counts every create
 * it received (`sent`) and the sandbox accepted (`accepted`) by signature: one sent again shows twice.
 * `drop-after-work`: the sandbox accepts it (the video exists), the caller's connection is closed without
 * an answer. `502-after-work`: the same, answered 502 by the "gateway". `502-before-work`: answered 502
 * without reaching the sandbox (nothing was made: sending it again is right).
 */
export function spoilFirstGenerate(how: 'drop-after-work' | '502-after-work' | '502-before-work') {
  const sent = new Map<string, number>();
  const accepted = new Map<string, number>();
  const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  let spoiled: { signature: string; video_id?: string } | undefined;
  const brk: Break = {
    request: (req) => {
      if (req.method !== 'POST') return undefined;
      count(sent, createSignature(req));
      if (how !== '502-before-work' || spoiled || !isGenerate(req)) return undefined;
      spoiled = { signature: createSignature(req) };
      return BAD_GATEWAY;
    },
    response: (res, req) => {
      if (req.method !== 'POST' || res.status !== 200) return undefined;
      const signature = createSignature(req);
      count(accepted, signature);
      if (how === '502-before-work' || spoiled || !isGenerate(req)) return undefined;
      spoiled = { signature, video_id: JSON.parse(res.text).video_id };
      return how === 'drop-after-work' ? DROP : BAD_GATEWAY;
    },
  };
  return { brk, sent, accepted, spoiled: () => spoiled };
}
