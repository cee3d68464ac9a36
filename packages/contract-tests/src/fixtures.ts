import { randomUUID } from 'node:crypto';
// Ids the checks need: from the configuration (environment, or the sandbox's documented FIXTURES),
// else discovered from the target with as few requests as possible.
import type { FixtureIds } from './target.ts';
import type { Run } from './run.ts';

export type Fixtures = FixtureIds & { notes: Partial<Record<keyof FixtureIds, string>> };

const FILE_FIELDS = ['pdf_file', 'pptx_file', 'audio_file', 'video_file'];

export async function resolveFixtures(run: Run): Promise<Fixtures> {
  const f: Fixtures = { ...run.target.fixtures, notes: {} };
  if (!run.main.hasKey) return f;
  if (!f.videoSettingId) {
    const ex = await run.main.get('/video-settings/');
    const results = ex.status === 200 ? ((ex.body as any)?.results ?? []) : [];
    // A text-only setting: the cheapest generation, no file upload.
    const s = results.find((r: any) => Array.isArray(r?.request_fields) && r.request_fields.includes('text') && !r.request_fields.some((x: string) => FILE_FIELDS.includes(x)));
    if (s) f.videoSettingId = s.video_setting_id;
    // A stateless mock accepts any well-formed id (and may list no setting at all).
    else if (!run.target.stateful) f.videoSettingId = randomUUID();
    else f.notes.videoSettingId = 'no video setting with request_fields [text] on page 1 of GET /video-settings/';
  }
  // Video fixtures cannot be discovered on a stateless mock: its examples are not real videos.
  if (run.target.stateful && !f.completedVideoId) {
    const ex = await run.main.get('/videos/');
    const results: any[] = ex.status === 200 ? ((ex.body as any)?.results ?? []) : [];
    for (const item of results.slice(0, 5)) {
      const v = await run.main.get(`/videos/${encodeURIComponent(item.video_id)}/`);
      if (v.status === 200 && (v.body as any)?.status === 'completed') {
        f.completedVideoId = item.video_id;
        break;
      }
    }
    if (!f.completedVideoId) f.notes.completedVideoId = 'no completed video among the first 5 of GET /videos/';
  }
  if (run.target.stateful && !f.convertibleVideoId && f.completedVideoId) {
    const ex = await run.main.get(`/videos/${f.completedVideoId}/conversions/`);
    if (ex.status === 200 && (ex.body as any)?.is_convertible === true) f.convertibleVideoId = f.completedVideoId;
    else f.notes.convertibleVideoId = 'the discovered completed video is not convertible';
  }
  if (run.target.stateful && !f.otherAccountVideoId && run.other) {
    const ex = await run.other.get('/videos/');
    const first = ex.status === 200 ? (ex.body as any)?.results?.[0] : undefined;
    if (first?.video_id) f.otherAccountVideoId = first.video_id;
    else f.notes.otherAccountVideoId = 'the other account lists no video';
  }
  return f;
}
