// A well-formed request for each operation, for checks that vary one thing (the key, say).
import { randomUUID } from 'node:crypto';
import { loadContract } from '../engine/contract.ts';
import type { FixtureIds, RequestOptions } from '../shapes.ts';

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
export function sampleRequest(f: FixtureIds, operationId: string): SampleRequest {
  const videoId = f.completedVideoId ?? randomUUID();
  switch (operationId) {
    case 'generateVideo':
      // A fresh FormData per call: a body can be sent once.
      return {
        method: 'POST',
        path: '/videos/generate/',
        opts: { form: textForm(f.videoSettingId ?? randomUUID(), 'Contract suite: authentication probe') },
      };
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
      return genericRequest(operationId, videoId);
  }
}

/**
 * A request for an operation this file does not know yet, built from the document: path parameters
 * filled, a JSON body from its first example. An operation that cannot be built stops the suite at
 * start, naming it, rather than going without its generic checks.
 */
function genericRequest(operationId: string, videoId: string): SampleRequest {
  const op = loadContract().operation(operationId);
  if (!op) throw new Error(`no operation ${operationId} in the document`);
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name) => (name === 'video_id' ? videoId : randomUUID()));
  const content = op.operation.requestBody?.content;
  if (!content) return { method: op.method, path, opts: {} };
  const json = content['application/json'];
  if (json) {
    const example =
      json.example ?? (Object.values(json.examples ?? {})[0] as { value?: unknown } | undefined)?.value ?? {};
    return { method: op.method, path, opts: { json: example } };
  }
  throw new Error(
    `the contract suite cannot build a request for ${operationId} (${Object.keys(content).join(', ')}): add it to scenarios/requests.ts`,
  );
}

/** Every operation of the document, so that a new one gets every generic check (or the suite names it). */
export function operationIds(): string[] {
  return loadContract().operations.map((o) => o.operationId);
}
