// A well-formed request of each operation, for the checks that vary one thing (the key, say): one
// entry per operation of the document, so that an operation added to it does not compile until the
// suite knows how to send it (and every generic check then covers it: authentication, conformance,
// generated requests).
import { randomUUID } from 'node:crypto';
import { OPERATIONS } from '@videogen/openapi/rules';
import type { OperationId } from '@videogen/openapi/types';
import type { Call } from '../engine/http.ts';
import type { FixtureIds } from '../shapes.ts';

export function textForm(videoSettingId: string, text: string): FormData {
  const form = new FormData();
  form.append('video_setting_id', videoSettingId);
  form.append('text', text);
  return form;
}

/** An id of a video of the account: a configured one when there is one (no discovery requests), else a random one. */
const videoOf = (f: FixtureIds) => f.completedVideoId ?? randomUUID();

/** Each operation's sample request; each call builds a fresh one (a body, a FormData, can be sent once). */
export const SAMPLE_REQUESTS: { [Id in OperationId]: (f: FixtureIds) => Call<Id> } = {
  generateVideo: (f) => ({
    form: textForm(f.videoSettingId ?? randomUUID(), 'Contract suite: authentication probe'),
  }),
  listVideos: () => ({}),
  getVideo: (f) => ({ path: { video_id: videoOf(f) } }),
  getConversionOptions: (f) => ({ path: { video_id: videoOf(f) } }),
  createConversion: (f) => ({ path: { video_id: videoOf(f) }, json: { aspect_ratio: '1:1' } }),
  listVideoSettings: () => ({}),
};

export function sampleRequest<Id extends OperationId>(f: FixtureIds, operationId: Id): Call<Id> {
  return SAMPLE_REQUESTS[operationId](f);
}

/** Every operation of the document (its generated table), so that a new one gets every generic check. */
export function operationIds(): OperationId[] {
  return OPERATIONS.map((o) => o.operationId);
}
