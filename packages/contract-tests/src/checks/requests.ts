// A well-formed request for each operation, for checks that vary one thing (the key, say).
import { randomUUID } from 'node:crypto';
import type { Run } from '../run.ts';
import type { RequestOptions } from '../http.ts';

export interface SampleRequest {
  method: string;
  path: string;
  opts: RequestOptions;
}

export function textForm(videoSettingId: string, text: string): FormData {
  const form = new FormData();
  form.append('video_setting_id', videoSettingId);
  form.append('text', text);
  return form;
}

/** Uses configured ids when there are some (no discovery requests), else random ones. */
/** One valid-looking request per operation of the spec (checks/operations.ts refuses to start without one). */
const SAMPLES: Record<string, (f: Run['target']['fixtures'], videoId: string) => SampleRequest> = {
  // A fresh FormData per call: a body can be sent once.
  generateVideo: (f) => ({ method: 'POST', path: '/videos/generate/', opts: { form: textForm(f.videoSettingId ?? randomUUID(), 'Contract suite: authentication probe') } }),
  listVideos: () => ({ method: 'GET', path: '/videos/', opts: {} }),
  getVideo: (_f, videoId) => ({ method: 'GET', path: `/videos/${videoId}/`, opts: {} }),
  getConversionOptions: (_f, videoId) => ({ method: 'GET', path: `/videos/${videoId}/conversions/`, opts: {} }),
  createConversion: (_f, videoId) => ({ method: 'POST', path: `/videos/${videoId}/conversions/`, opts: { json: { aspect_ratio: '1:1' } } }),
  listVideoSettings: () => ({ method: 'GET', path: '/video-settings/', opts: {} }),
};

export const SAMPLED_OPERATIONS: ReadonlySet<string> = new Set(Object.keys(SAMPLES));

export function sampleRequest(run: Run, operationId: string): SampleRequest {
  const f = run.target.fixtures;
  const make = SAMPLES[operationId];
  if (!make) throw new Error(`no sample request for ${operationId}`);
  return make(f, f.completedVideoId ?? randomUUID());
}
