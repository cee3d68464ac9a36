// What the client makes sure of in each operation's success before handing it on, one entry per
// operation of the document (a new operation does not compile until it has one). The rest of an answer
// is taken as the document types it, as openapi-fetch takes it: the client reads only what is checked here.
import type { OperationId, Schemas, SuccessBody } from '@videogen/openapi/types';
import type { Params } from './core.js';
import { UnexpectedResponseError } from './errors.js';

/** The data a call of the operation resolves with. */
export type Answer<Id extends OperationId> = SuccessBody<Id>;

type Video = Schemas['Video'];
type Created = Schemas['VideoCreated'];

/** An answer the client only passes on (a page, the conversion options): the document's type, read as it came. */
const asDocumented = <T>(body: object): T => body as T;

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

/** A create answer must name the new video (4.1, 4.5): without its id the caller could never find it. */
export const created = (body: unknown): Created => {
  const id = (body as Partial<Created>)?.video_id;
  if (typeof id !== 'string' || !id)
    throw new UnexpectedResponseError(`The create answer has no video_id: ${JSON.stringify(body).slice(0, 200)}`);
  return body as Created;
};

/** Each operation's check, given the JSON object of a success and the call's parameters. */
export const ANSWERS: {
  [Id in OperationId]: (body: object, params: Params<Id>) => Answer<Id>;
} = {
  generateVideo: created,
  listVideos: asDocumented,
  getVideo: (body, { path }) => statusView(path.video_id)(body),
  getConversionOptions: asDocumented,
  createConversion: created,
  listVideoSettings: asDocumented,
};
