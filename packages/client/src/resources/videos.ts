import { findCreated, newestPages } from '@videogen/openapi/rules';
import { APIPromise } from '../api-promise.js';
import type { Core } from '../core.js';
import { UnexpectedResponseError, ValidationError, type VideoApiError } from '../errors.js';
import type { components } from '../generated/openapi.js';
import { Paginated, type ListOptions, type Page } from '../pagination.js';
import type { Found, RequestOptions } from '../transport.js';
import { checkForm, multipart, prepare, type GenerateInput, type Plan, type UploadProgress } from '../uploads.js';
import { checkPathParameter } from '../path-parameters.js';
import { uploadRedirect } from '../runtime.js';
import type { Settings } from './settings.js';

type Schemas = components['schemas'];
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

/** The path of a video: the id checked as the document types it (a UUID), then encoded as a path segment. */
export function videoPath(id: unknown): string {
  checkPathParameter('video_id', id);
  return `/videos/${encodeURIComponent(id as string)}/`;
}

/** A call on one video's path, or a rejected APIPromise (nothing sent) when the id is not a video id. */
export function onVideo<T>(id: unknown, call: (path: string) => APIPromise<T>): APIPromise<T> {
  let path: string;
  try {
    path = videoPath(id);
  } catch (e) {
    return APIPromise.from<T>(Promise.reject(e));
  }
  return call(path);
}

/**
 * A status answer must be the status view (2.1) of the video asked for: the client reads its status and
 * download_url, and a download or a wait would act on anything else (another video, a list) as if it were.
 */
export const statusView =
  (id: string) =>
  (body: unknown): Video => {
    const v = body as Partial<Record<keyof Video, unknown>>;
    const problems: string[] = [];
    if (typeof v.video_id !== 'string' || v.video_id.toLowerCase() !== id.toLowerCase())
      problems.push(`its video_id is ${JSON.stringify(v.video_id)}`);
    if (typeof v.status !== 'string') problems.push('it has no status');
    if (typeof v.download_url !== 'string') problems.push('it has no download_url');
    if (v.copyright !== undefined && !Array.isArray(v.copyright)) problems.push('its copyright is not an array');
    if (problems.length)
      throw new UnexpectedResponseError(
        `The answer for video ${id} is not its status view (${problems.join(', ')}): ${JSON.stringify(body).slice(0, 200)}`,
      );
    return body as Video;
  };

/** GET /videos/, GET /videos/{video_id}/, POST /videos/generate/ (4.1–4.3). */
export class Videos {
  constructor(
    private readonly core: Core,
    private readonly settings: Settings,
    private readonly plan: Plan,
  ) {}

  /** The caller's videos, page by page; await it for one page. */
  list({ page, ...o }: ListOptions = {}): Paginated<VideoListItem> {
    return new Paginated((n) => this.core.get<Page<VideoListItem>>(`/videos/?page=${n}`, o), { page });
  }

  /** A video's status view (status, download_url). */
  get(videoId: string, o?: RequestOptions): APIPromise<Video> {
    return onVideo(videoId, (path) => this.core.get(path, o, statusView(videoId)));
  }

  /**
   * Checks the form (combination, the setting's fields, extensions and sizes for the plan), then
   * streams it. A retry re-reads every file from its source; a stream input is sent once.
   */
  generate(input: GenerateInput, o: GenerateOptions = {}): APIPromise<Created> {
    return APIPromise.from(this.#generate(input, o));
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
          { type: form.type, upload: form, redirect: uploadRedirect() },
          {
            ...o,
            // An upload has no timeout unless one is given: 180 MB take a while on a slow line.
            timeoutMs: o.timeoutMs ?? uploadTimeoutMs ?? 0,
            lookup: (sentAt) => this.#findCreated(input.text, sentAt, o.signal),
          },
          created,
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
      if (!hit) return 'absent';
      // The answer that showed it: the page it was listed on.
      const shown = pages.find((p) => p.data.results.some((v) => v.video_id === hit.video_id))!;
      return { created: { video_id: hit.video_id }, response: shown.response };
    } catch {
      return 'unknown';
    }
  }
}

/** A create answer must name the new video (4.1, 4.5): without its id the caller could never find it. */
export const created = (body: unknown): Created => {
  const id = (body as Partial<Created>)?.video_id;
  if (typeof id !== 'string' || !id)
    throw new UnexpectedResponseError(`The create answer has no video_id: ${JSON.stringify(body).slice(0, 200)}`);
  return body as Created;
};

/** A create that was not re-sent says why in its message. */
export const noteNotResent = (e: unknown) => {
  if ((e as VideoApiError)?.notResent)
    (e as Error).message +=
      ' (not re-sent: the first attempt may have created the video; look at videos.list() before trying again)';
};
