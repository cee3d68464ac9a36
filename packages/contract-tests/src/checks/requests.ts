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
export function sampleRequest(run: Run, operationId: string): SampleRequest {
  const f = run.target.fixtures;
  const videoId = f.completedVideoId ?? randomUUID();
  switch (operationId) {
    case 'generateVideo':
      // A fresh FormData per call: a body can be sent once.
      return { method: 'POST', path: '/videos/generate/', opts: { form: textForm(f.videoSettingId ?? randomUUID(), 'Contract suite: authentication probe') } };
    case 'listVideos':
      return { method: 'GET', path: '/videos/', opts: {} };
    case 'getVideo':
      return { method: 'GET', path: `/videos/${videoId}/`, opts: {} };
    case 'getConversionOptions':
      return { method: 'GET', path: `/videos/${videoId}/conversions/`, opts: {} };
    case 'createConversion':
      return { method: 'POST', path: `/videos/${videoId}/conversions/`, opts: { json: { aspect_ratio: '1:1' } } };
    case 'listVideoSettings':
      return { method: 'GET', path: '/video-settings/', opts: {} };
    default:
      throw new Error(`no sample request for ${operationId}`);
  }
}
