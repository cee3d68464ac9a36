import { randomUUID } from 'node:crypto';
// Ids the checks need: from the configuration (environment, or the sandbox's documented FIXTURES),
// else discovered from the target with as few requests as possible.
import { UPLOAD_LIMITS, VALID_COMBINATIONS } from '@videogen/openapi/rules';
import type { FixtureIds } from './target.ts';
import type { Run } from './run.ts';

export type Fixtures = FixtureIds & { notes: Partial<Record<keyof FixtureIds, string>> };

/** The upload fields that make a mode of their own (x-upload-limits, less those a combination only allows). */
const OPTIONAL: readonly string[] = VALID_COMBINATIONS.flatMap(([, may]) => may);
const FILE_FIELDS: readonly string[] = Object.keys(UPLOAD_LIMITS).filter((f) => !OPTIONAL.includes(f));

/**
 * The input modes of x-valid-combinations that need a file (text alone is `videoSettingId`), each
 * with the setting fixture whose request_fields are exactly these fields (DECISIONS #26).
 */
export const INPUT_MODES = [
  { name: 'pdf_file', fixture: 'pdfSettingId', fields: ['pdf_file'] },
  { name: 'pptx_file', fixture: 'pptxSettingId', fields: ['pptx_file'] },
  { name: 'text_pdf_file', fixture: 'textPdfSettingId', fields: ['text', 'pdf_file'] },
  { name: 'audio_file', fixture: 'audioSettingId', fields: ['audio_file'] },
  { name: 'video_file', fixture: 'videoFileSettingId', fields: ['video_file'] },
  { name: 'text_image_files', fixture: 'textImagesSettingId', fields: ['text', 'image_files'] },
] as const satisfies ReadonlyArray<{ name: string; fixture: keyof FixtureIds; fields: readonly string[] }>;

export type InputMode = (typeof INPUT_MODES)[number];

const sameFields = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));

/** Video states whose fixtures can be found among the first listed videos. */
const STATE_FIXTURES = { completed: 'completedVideoId', failed: 'failedVideoId', expired: 'expiredVideoId' } as const;

export async function resolveFixtures(run: Run): Promise<Fixtures> {
  const f: Fixtures = { ...run.target.fixtures, notes: {} };
  if (!run.main.hasKey) return f;
  if (!f.videoSettingId || INPUT_MODES.some((m) => !f[m.fixture])) {
    // One page of settings serves the text setting and every input mode.
    const ex = await run.main.get('/video-settings/');
    const results: any[] = ex.status === 200 ? ((ex.body as any)?.results ?? []) : [];
    const withFields = results.filter((r: any) => Array.isArray(r?.request_fields));
    if (!f.videoSettingId) {
      // A text-only setting: the cheapest generation, no file upload.
      const s = withFields.find((r: any) => r.request_fields.includes('text') && !r.request_fields.some((x: string) => FILE_FIELDS.includes(x)));
      if (s) f.videoSettingId = s.video_setting_id;
      // A stateless mock accepts any well-formed id (and may list no setting at all).
      else if (!run.target.stateful) f.videoSettingId = randomUUID();
      else f.notes.videoSettingId = 'no video setting with request_fields [text] on page 1 of GET /video-settings/';
    }
    for (const m of INPUT_MODES) {
      if (f[m.fixture]) continue;
      const s = withFields.find((r: any) => sameFields(r.request_fields, m.fields));
      if (s) f[m.fixture] = s.video_setting_id;
      else if (!run.target.stateful) f[m.fixture] = randomUUID();
      else f.notes[m.fixture] = `no video setting with request_fields exactly [${m.fields.join(', ')}] on page 1 of GET /video-settings/`;
    }
  }
  // Video fixtures cannot be discovered on a stateless mock: its examples are not real videos.
  const missing = () => (Object.keys(STATE_FIXTURES) as Array<keyof typeof STATE_FIXTURES>).filter((s) => !f[STATE_FIXTURES[s]]);
  if (run.target.stateful && missing().length) {
    // The list items carry no status: read the status of the first few (the same reads serve every state).
    const ex = await run.main.get('/videos/');
    // Newest first, whatever order the target lists in (the order is not shown: DECISIONS #18): a new
    // video is the least likely to have expired.
    // Videos already known (configured, or made by contract --seed) are not read again: the five reads go
    // to others, which may be the failed or expired video still missing.
    const known = new Set<string>([...Object.values(run.target.fixtures), ...(run.target.seededIds ?? [])].filter((v): v is string => typeof v === 'string'));
    const results: any[] = ex.status === 200 ? [...((ex.body as any)?.results ?? [])].filter((r: any) => !known.has(r?.video_id)).sort(byNewest) : [];
    for (const item of results.slice(0, 5)) {
      const v = await run.main.get(`/videos/${encodeURIComponent(item.video_id)}/`);
      const state = (v.body as any)?.status as keyof typeof STATE_FIXTURES;
      if (v.status === 200 && missing().includes(state)) f[STATE_FIXTURES[state]] = item.video_id;
      if (!missing().length) break;
    }
    for (const s of missing()) f.notes[STATE_FIXTURES[s]] = `no ${s} video among the first 5 of GET /videos/`;
  }
  if (run.target.stateful && !f.convertibleVideoId && f.completedVideoId) {
    const ex = await run.main.get(`/videos/${f.completedVideoId}/conversions/`);
    if (ex.status === 200 && (ex.body as any)?.is_convertible === true) f.convertibleVideoId = f.completedVideoId;
    else f.notes.convertibleVideoId = 'the discovered completed video is not convertible';
  }
  if (run.target.stateful && !f.otherAccountVideoId && run.other) {
    const ex = await run.other.get('/videos/');
    const first = ex.status === 200 ? [...((ex.body as any)?.results ?? [])].sort(byNewest)[0] : undefined;
    if (first?.video_id) f.otherAccountVideoId = first.video_id;
    else f.notes.otherAccountVideoId = 'the other account lists no video';
  }
  return f;
}

/** Sorts list items newest first by created_at (items without one last). */
export function byNewest(a: any, b: any): number {
  return String(b?.created_at ?? '').localeCompare(String(a?.created_at ?? ''));
}
