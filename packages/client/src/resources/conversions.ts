import { conversionProblem } from '@videogen/openapi/rules';
import type { Schemas } from '@videogen/openapi/types';
import { APIPromise, type WithResponse } from '../api-promise.js';
import type { Core } from '../core.js';
import { ValidationError } from '../errors.js';
import { checkPathParameter } from '../path-parameters.js';
import type { Announce } from '../relay-announce.js';
import type { RequestOptions } from '../transport.js';
import { inFlowSpan } from '../tracing.js';
import { noteNotResent } from './videos.js';

export type ConversionTarget = Schemas['ConversionRequest'];
export interface ConvertOptions extends RequestOptions {
  /** The source's conversion options when already read (GET .../conversions/): saves a second read. */
  conversionOptions?: Schemas['ConversionOptions'];
}

/** GET and POST /videos/{video_id}/conversions/ (4.4, 4.5). */
export class Conversions {
  constructor(
    private readonly core: Core,
    /** Tells a relay about each video created (the client's `relayUrl`), if any. */
    private readonly announce?: Announce,
  ) {}

  /** Whether the video can be converted, and to what. */
  get(videoId: string, o?: RequestOptions): APIPromise<Schemas['ConversionOptions']> {
    return this.core.get('/videos/{video_id}/conversions/', { path: { video_id: videoId } }, o);
  }

  /**
   * Converts a video after checking the target against its conversion options: a target that cannot
   * succeed throws the ValidationError the service would answer, and nothing is sent.
   */
  create(
    videoId: string,
    target: ConversionTarget,
    { conversionOptions, ...o }: ConvertOptions = {},
  ): APIPromise<Schemas['VideoCreated']> {
    // One span per conversion (when tracing): the root of the new video's trace.
    return APIPromise.from(
      inFlowSpan('conversions.create', o.traceContext, async (traceContext, span) => {
        span?.setAttribute('videogen.source_video_id', videoId);
        const done = await this.#create(videoId, target, conversionOptions, { ...o, traceContext });
        const { video_id } = done.data;
        span?.setAttribute('videogen.video_id', video_id);
        await this.announce?.({ video_id, source_video_id: videoId }, { traceContext, signal: o.signal });
        return done;
      }),
    );
  }

  #create(
    videoId: string,
    target: ConversionTarget,
    conversionOptions: Schemas['ConversionOptions'] | undefined,
    o: RequestOptions,
  ): Promise<WithResponse<Schemas['VideoCreated']>> {
    const options = Promise.resolve().then(() => {
      // The id first, as every call on a video checks it; then the target, before anything is sent.
      checkPathParameter('video_id', videoId);
      checkConversion(target);
      return conversionOptions ?? this.get(videoId, o);
    });
    // A conversion's new video cannot be recognised in the list (the interface does not say what its
    // prompt is): with no lookup, after an ambiguous answer it is not re-sent (at most once), and the error says so.
    const sent = options.then((options) => {
      checkConversion(target, options);
      return this.core
        .post('/videos/{video_id}/conversions/', { path: { video_id: videoId }, json: target }, o)
        .withResponse();
    });
    return sent.catch((e) => {
      noteNotResent(e);
      throw e;
    });
  }
}

/**
 * Fails fast, with the error_code the service would answer (interface 7.2, the shared rule
 * conversionProblem), when the target or the conversion options show that the conversion cannot
 * succeed. A video whose options say only `is_convertible: false` is sent anyway: the client cannot
 * know why (no video data, or a real avatar), so the service's answer gives the code.
 */
export function checkConversion(t: ConversionTarget, o?: Schemas['ConversionOptions']) {
  const p = conversionProblem(t, o);
  if (!p?.error_code) return;
  const allowed = p.allowed ? ` Allowed: ${p.allowed.join(',')}.` : '';
  throw new ValidationError(`${p.error_code}: ${p.message}${allowed}`, {
    status: p.status,
    error_code: p.error_code,
    error: p.message,
    field: p.field,
    limit: p.allowed,
  });
}
