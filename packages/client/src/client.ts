import createFetchClient, { defaultPathSerializer } from 'openapi-fetch';
import type { components, paths } from './generated/openapi.js';
import { PAGE_SIZE, PRODUCTION_BASE_URL } from '@videogen/openapi/rules';
import { type Clock, realClock } from './clock.js';
import { AuthenticationError, fromResponse, UnexpectedResponseError, ValidationError, type VideoApiError } from './errors.js';
import { logExchange, type TrafficLogger } from './traffic-log.js';
import { createSender, retryOptions, type RetryOptions } from './retry.js';
import { pacerFor } from './pacer.js';
import { paginate, type ListOptions, type Page, type Paginated } from './pagination.js';
import { waitForVideo, type WaitOptions } from './polling.js';
import { multipart, prepare, type GenerateInput, type Plan, type UploadProgress } from './uploads.js';
import { download, type DownloadOptions } from './download.js';
import { checkConversion, type ConversionTarget } from './conversions.js';
import { builtin, env as processEnv, uploadRedirect } from './runtime.js';

type Schemas = components['schemas'];
export type Video = Schemas['Video'];
export type VideoSetting = Schemas['VideoSetting'];
type VideoListItem = Schemas['VideoListItem'];
type Created = Schemas['VideoCreated'];

export interface ClientOptions {
  /** Default: process.env.VIDEO_API_KEY. Never logged, never part of an error or of inspect output. */
  apiKey?: string;
  /** Default: process.env.VIDEO_API_BASE_URL, else the spec's production server. HTTPS, or HTTP on loopback. */
  baseUrl?: string;
  /** Upload limits to check against (default 'personal', the smaller ones). */
  plan?: Plan;
  /** Called as fetch(request, init?): pass init on (it carries the timeout's signal). */
  fetch?: (req: Request, init?: RequestInit) => Promise<Response>;
  /** Shorthand for retry.maxRetries (default 3). */
  maxRetries?: number;
  /** Per attempt, until the response headers arrive (default 60 s; uploads: none unless given per call). */
  timeoutMs?: number;
  retry?: Partial<RetryOptions>;
  /** One scheduler per account for the rate limits and the concurrency limit (default true). */
  pacing?: boolean;
  /** Clients with the same account share a scheduler (default: the same API key). */
  account?: string;
  /** Time source of every wait; inject one in tests. */
  clock?: Clock;
  /**
   * Traffic log: called with one JSON line per exchange, key redacted (default: to stderr when
   * VIDEO_API_LOG=debug, else none). `npm run contract -- --har FILE` checks such a log offline.
   */
  logger?: TrafficLogger;
}
export interface RequestOptions {
  signal?: AbortSignal;
}
export interface ConvertOptions extends RequestOptions {
  /** The source's conversion options when already read (GET .../conversions/): saves a second read. */
  conversionOptions?: components['schemas']['ConversionOptions'];
}
export interface GenerateOptions extends RequestOptions {
  onUploadProgress?: (p: UploadProgress) => void;
  /** The setting's request_fields are checked before sending; without it the setting is looked up. */
  setting?: Pick<VideoSetting, 'request_fields'>;
  /** Timeout of the upload request, until the response headers arrive (default none). */
  uploadTimeoutMs?: number;
}

/** The scheduler's name for a key, never the key itself: SHA-256 where node:crypto exists, else a 53-bit hash. */
function fingerprint(key: string) {
  const crypto = builtin<typeof import('node:crypto')>('node:crypto');
  if (crypto?.createHash) return crypto.createHash('sha256').update(key).digest('hex');
  let h1 = 0xdeadbeef, h2 = 0x41c6ce57; // cyrb53
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16);
}

/**
 * A parsed body with every occurrence of the key replaced, in every string (keys and values). It works
 * on the parsed values, not on JSON text, where a key holding `"` or `\` appears escaped.
 */
function scrub(value: unknown, key: string): unknown {
  if (typeof value == 'string') return value.split(key).join('***');
  if (Array.isArray(value)) return value.map((v) => scrub(v, key));
  if (value && typeof value == 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [scrub(k, key) as string, scrub(v, key)]));
  return value;
}

const LOOPBACK = /^(localhost|127(\.\d+){3}|\[::1\])$/;

export function createClient(options: ClientOptions = {}) {
  const env = processEnv();
  const key = options.apiKey ?? env.VIDEO_API_KEY;
  if (!key) throw new AuthenticationError('No API key: pass apiKey or set VIDEO_API_KEY');
  const baseUrl = (options.baseUrl ?? env.VIDEO_API_BASE_URL ?? PRODUCTION_BASE_URL).replace(/\/+$/, '');
  const { protocol, hostname } = new URL(baseUrl);
  if (protocol != 'https:' && !(protocol == 'http:' && LOOPBACK.test(hostname)))
    throw new TypeError(`Refusing base URL ${protocol}//${hostname}: use https (http only on loopback)`);
  const clock = options.clock ?? realClock;
  const plan = options.plan ?? 'personal';
  const logger = options.logger ?? (env.VIDEO_API_LOG == 'debug' ? (line: string) => console.error(line) : undefined);
  const retry = retryOptions({ ...(options.maxRetries != null && { maxRetries: options.maxRetries }), ...options.retry });
  const send = createSender({
    fetch: options.fetch,
    clock,
    retry,
    timeoutMs: options.timeoutMs ?? 60_000,
    pacer: options.pacing === false ? undefined
      : pacerFor(`${baseUrl} ${options.account ?? fingerprint(key)}`, clock, { maxWaitMs: retry.maxWaitMs }),
    check: (id) => videos.get(id),
    ...(logger && { log: (req: Request, body: string | undefined, res: Response | undefined, error?: unknown) => logExchange(logger, key, req, body, res, error) }),
  });
  const api = createFetchClient<paths>({
    baseUrl,
    // The spec's path parameters are plain strings ({video_id}): one replace per call instead of
    // the general serializer (styles, explode), which is kept for any other value.
    pathSerializer: (p, params) =>
      p.replace(/\{(\w+)\}/g, (m, k) => (typeof params[k] == 'string' ? encodeURIComponent(params[k]) : defaultPathSerializer(m, params))),
    fetch: (r) => send(r),
    headers: { Authorization: `Bearer ${key}` },
  });

  /** The data of a response, or its error thrown as a VideoApiError (with the key redacted). */
  const unwrap = <T>({ data, error, response }: { data?: T; error?: unknown; response: Response }): T => {
    if (response.ok && (data === undefined || data === null || typeof data != 'object'))
      throw new UnexpectedResponseError(`${response.status} from ${new URL(response.url || baseUrl).pathname}: the body is not a JSON object`, { status: response.status, headers: response.headers });
    if (response.ok) return data as T;
    // Redacted before the error exists, so that neither its message nor its stack holds the key.
    throw fromResponse(response.status, scrub(error ?? null, key), response.headers, clock.now());
  };
  /** openapi-fetch could not parse a 2xx body as JSON (an HTML page from a proxy, say). */
  const notJson = (e: unknown): never => {
    if (e instanceof SyntaxError) throw new UnexpectedResponseError(`The answer is not JSON: ${e.message.split(key).join('***')}`);
    throw e;
  };
  /** A create answer must name the new video (4.1, 4.5): without its id the caller could never find it. */
  const created = (body: unknown): Created => {
    const id = (body as Partial<Created>)?.video_id;
    if (typeof id != 'string' || !id) throw new UnexpectedResponseError(`The create answer has no video_id: ${JSON.stringify(body).slice(0, 200)}`);
    return body as Created;
  };
  /**
   * The video a generate attempt may have created: one of the caller's videos with the same prompt,
   * created since the first attempt (less a minute of clock skew). Without a text it cannot tell.
   */
  const findCreated = async (text: unknown, since: number, signal?: AbortSignal): Promise<Response | 'absent' | 'unknown'> => {
    if (typeof text != 'string') return 'unknown';
    try {
      // The interface does not state the list's order: the first and the last page hold the newest.
      const first = (await api.GET('/videos/', { params: { query: { page: 1 } }, signal }).then(unwrap, notJson)) as Page<VideoListItem>;
      const pages = [first];
      const last = Math.ceil(first.total_count / (first.items_per_page || PAGE_SIZE));
      if (last > 1) pages.push((await api.GET('/videos/', { params: { query: { page: last } }, signal }).then(unwrap, notJson)) as Page<VideoListItem>);
      const hit = pages.flatMap((p) => p.results).find((v) => v.prompt === text && Date.parse(v.created_at) >= since - 60_000);
      if (!hit) return 'absent';
      return new Response(JSON.stringify({ video_id: hit.video_id }), { status: 200, headers: { 'content-type': 'application/json', 'x-videogen-recovered': 'true' } });
    } catch {
      return 'unknown';
    }
  };
  const noteNotResent = (e: unknown) => {
    if ((e as VideoApiError)?.headers?.get('x-videogen-not-resent')) (e as Error).message += ' (not re-sent: the first attempt may have created the video; look at videos.list() before trying again)';
  };
  const path = (video_id: string) => ({ params: { path: { video_id } } });
  const settings = new Map<string, VideoSetting>();

  const videos = {
    list: (o?: ListOptions): Paginated<VideoListItem> =>
      paginate((page, signal) => api.GET('/videos/', { params: { query: { page } }, signal }).then(unwrap, notJson) as Promise<Page<VideoListItem>>, o),
    get: (id: string, o: RequestOptions = {}): Promise<Video> => api.GET('/videos/{video_id}/', { ...path(id), ...o }).then(unwrap, notJson),
    async generate(input: GenerateInput, o: GenerateOptions = {}): Promise<Created> {
      const parts = await prepare(input, plan, o.setting);
      if (!o.setting) await prepare(input, plan, await findSetting(input.video_setting_id, o.signal));
      const form = multipart(parts, o.onUploadProgress);
      // The upload's body is a stream: each retry builds a new one from the sources (never a clone).
      const init = { method: 'POST', headers: { 'Content-Type': form.type }, duplex: 'half', redirect: uploadRedirect(), signal: o.signal } as RequestInit;
      try {
        return created(
          await api.POST('/videos/generate/', {
            ...init,
            body: input as never,
            bodySerializer: form.body,
            fetch: (req: Request) => send(req, {
              beforeResend: (since) => findCreated(input.text, since, o.signal),
              timeoutMs: o.uploadTimeoutMs ?? 0,
              rebuild: form.oneShot ? undefined : () => new Request(req.url, { ...init, headers: req.headers, body: form.body(), signal: req.signal }),
            }),
          } as never).then(unwrap, notJson),
        );
      } catch (e) {
        noteNotResent(e);
        if (form.oneShot && (e as VideoApiError).retryable) (e as Error).message += ' (not retried: a stream input is sent once; pass a path, Blob or Buffer to allow retries)';
        throw e;
      }
    },
  };

  const findSetting = async (id: string, signal?: AbortSignal) => {
    if (!settings.has(id)) for await (const s of client.settings.list({ signal })) if (s.video_setting_id == id) break;
    const s = settings.get(id);
    if (!s) throw new ValidationError(`Unknown video setting ${id}`, { field: 'video_setting_id', error_code: 'INVALID_VIDEO_SETTING' });
    return s;
  };

  const client = {
    /** The typed openapi-fetch client: paced and retried like the helpers, errors returned, not thrown. */
    api,
    baseUrl,
    plan,
    videos,
    settings: {
      list: (o?: ListOptions): Paginated<VideoSetting> =>
        paginate(async (page, signal) => {
          const p = (await api.GET('/video-settings/', { params: { query: { page } }, signal }).then(unwrap, notJson)) as Page<VideoSetting>;
          for (const s of p.results) settings.set(s.video_setting_id, s);
          return p;
        }, o),
    },
    conversions: {
      get: (id: string, o: RequestOptions = {}): Promise<Schemas['ConversionOptions']> =>
        api.GET('/videos/{video_id}/conversions/', { ...path(id), ...o }).then(unwrap, notJson),
    },
    /** Converts a video after checking the target against its conversion options. */
    async convert(id: string, target: ConversionTarget, { conversionOptions, ...o }: ConvertOptions = {}): Promise<Created> {
      checkConversion(target);
      checkConversion(target, conversionOptions ?? (await client.conversions.get(id, o)));
      // A conversion's new video cannot be recognised in the list (the interface does not say what its
      // prompt is): after an ambiguous answer it is not re-sent (at most once), the error says so.
      const fetch = (req: Request) => send(req, { beforeResend: async () => 'unknown' as const });
      return created(await api.POST('/videos/{video_id}/conversions/', { ...path(id), body: target, ...o, fetch } as never).then(unwrap, notJson).catch((e) => { noteNotResent(e); throw e; }));
    },
    waitForVideo: (id: string, o?: WaitOptions): Promise<Video> => waitForVideo(videos.get, clock, id, o),
    async generateAndWait(input: GenerateInput, o: WaitOptions & GenerateOptions = {}): Promise<Video> {
      return client.waitForVideo((await videos.generate(input, o)).video_id, o);
    },
    async convertAndWait(id: string, target: ConversionTarget, o: WaitOptions = {}): Promise<Video> {
      return client.waitForVideo((await client.convert(id, target, o)).video_id, o);
    },
    download: (id: string, path: string, o?: DownloadOptions): Promise<{ path: string; bytes: number }> => download(videos.get, send, id, path, o),
  };
  return client;
}
export type VideoClient = ReturnType<typeof createClient>;
