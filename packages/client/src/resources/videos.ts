import { findCreated, newestPages } from '@videogen/openapi/rules';
import type { Schemas } from '@videogen/openapi/types';
import { APIPromise } from '../api-promise.js';
import type { Core } from '../core.js';
import { ValidationError, type VideoApiError } from '../errors.js';
import { Paginated, type ListOptions } from '../pagination.js';
import type { Found, RequestOptions } from '../transport.js';
import { checkForm, multipart, prepare, type GenerateInput, type Plan, type UploadProgress } from '../uploads.js';
import { uploadRedirect } from '../runtime.js';
import type { Announce } from '../relay-announce.js';
import { inFlowSpan } from '../tracing.js';
import type { Settings } from './settings.js';

type Video = Schemas['Video'];
type VideoListItem = Schemas['VideoListItem'];
type Created = Schemas['VideoCreated'];

export interface GenerateOptions extends RequestOptions {
  onUploadProgress?: (p: UploadProgress) => void;
  /** The setting's request_fields are checked before sending; without it the setting is looked up. */
  setting?: Pick<Schemas['VideoSetting'], 'request_fields'>;
  /** Same as `timeoutMs` for the upload (kept for earlier callers); an upload has no timeout unless given. */
  uploadTimeoutMs?: number;
}

/** GET /videos/, GET /videos/{video_id}/, POST /videos/generate/ (4.1–4.3). */
export class Videos {
  constructor(
    private readonly core: Core,
    private readonly settings: Settings,
    private readonly plan: Plan,
    /** Tells a relay about each video created (the client's `relayUrl`), if any. */
    private readonly announce?: Announce,
  ) {}

  /** The caller's videos, page by page; await it for one page. */
  list({ page, ...o }: ListOptions = {}): Paginated<VideoListItem> {
    return new Paginated<VideoListItem>((n) => this.core.get('/videos/', { query: { page: n } }, o), { page });
  }

  /** A video's status view (status, download_url). */
  get(videoId: string, o?: RequestOptions): APIPromise<Video> {
    return this.core.get('/videos/{video_id}/', { path: { video_id: videoId } }, o);
  }

  /**
   * Checks the form (combination, the setting's fields, extensions and sizes for the plan), then
   * streams it. A retry re-reads every file from its source; a stream input is sent once.
   */
  generate(input: GenerateInput, o: GenerateOptions = {}): APIPromise<Created> {
    // One span per generate (when tracing): the root of the video's trace, which a relay's webhook continues.
    return APIPromise.from(
      inFlowSpan('videos.generate', o.traceContext, async (traceContext, span) => {
        const done = await this.#generate(input, { ...o, traceContext });
        const { video_id } = done.data;
        span?.setAttribute('videogen.video_id', video_id);
        await this.announce?.({ video_id }, { traceContext, signal: o.signal });
        return done;
      }),
    );
  }

  async #generate(input: GenerateInput, { onUploadProgress, setting, uploadTimeoutMs, ...o }: GenerateOptions) {
    // The checks that need no request first; then the setting's fields, once the setting is known.
    const parts = await prepare(input, this.plan, setting);
    if (!setting) checkForm(input, await this.#setting(input.video_setting_id, o));
    const form = multipart(parts, onUploadProgress);
    try {
      return await this.core
        .post(
          '/videos/generate/',
          { form: { type: form.type, upload: form, redirect: uploadRedirect() } },
          {
            ...o,
            // An upload has no timeout unless one is given: 180 MB take a while on a slow line.
            timeoutMs: o.timeoutMs ?? uploadTimeoutMs ?? 0,
            lookup: (sentAt) => this.#findCreated(input.text, sentAt, o.signal),
          },
        )
        .withResponse();
    } catch (e) {
      noteNotResent(e);
      if (form.once && (e as VideoApiError).retryable)
        (e as Error).message +=
          ' (not retried: a stream input is sent once; pass a path, Blob or Buffer to allow retries)';
      throw e;
    }
  }

  async #setting(id: string, o: RequestOptions) {
    const s = await this.settings.find(id, o);
    if (!s)
      throw new ValidationError(`Unknown video setting ${id}`, {
        field: 'video_setting_id',
        error_code: 'INVALID_VIDEO_SETTING',
      });
    return s;
  }

  /**
   * The video a generate attempt may have created (the rules' findCreated: the same prompt, created since
   * the first attempt less the clock skew), on the pages that hold the newest videos. Without a text it
   * cannot tell.
   */
  async #findCreated(text: unknown, sentAt: number, signal?: AbortSignal): Promise<Found | 'absent' | 'unknown'> {
    if (typeof text !== 'string') return 'unknown';
    try {
      const first = await this.list({ page: 1, signal }).withResponse();
      const pages = [first];
      for (const n of newestPages(first.data).slice(1)) pages.push(await this.list({ page: n, signal }).withResponse());
      const hit = findCreated(
        pages.flatMap((p) => p.data.results),
        { prompt: text, sentAt },
      );
      // The answer that showed it: the page it was listed on.
      const shown = hit && pages.find((p) => p.data.results.some((v) => v.video_id === hit.video_id));
      if (!hit || !shown) return 'absent';
      return { created: { video_id: hit.video_id }, response: shown.response };
    } catch {
      return 'unknown';
    }
  }
}

/** A create that was not re-sent says why in its message. */
export const noteNotResent = (e: unknown) => {
  if ((e as VideoApiError)?.notResent)
    (e as Error).message +=
      ' (not re-sent: the first attempt may have created the video; look at videos.list() before trying again)';
};
