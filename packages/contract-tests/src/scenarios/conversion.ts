// The run's one conversion (a credit on a real service), judged by the three conversion checks: the
// source and its options before, the POST, the source and its options after, and the new video polled
// until it ends with its options and the head of its download. A non-200 answer ends the scenario; the
// record keeps what was sent for the checks to judge.
import { need, scenario } from '../engine/catalogue.ts';
import type { Exchange } from '../shapes.ts';
import { downloadHead, idOf, pollUntilDone, type Download, type Polled, ok } from './videos.ts';

export interface Conversion {
  source: string;
  before: { status: Exchange; options?: Exchange };
  target?: Record<string, string>;
  post?: Exchange;
  after?: { status: Exchange; options?: Exchange };
  converted?: { id: string; polled: Polled; options?: Exchange; download?: Download };
}

/** A target different from the source's: a language from available_languages, else an aspect ratio. */
export function conversionTarget(opts: any): Record<string, string> | undefined {
  const lang = (opts?.available_languages ?? []).find((l: string) => l !== opts.current_language);
  if (lang) return { language: lang };
  const ratio = (opts?.available_aspect_ratios ?? []).find((r: string) => r !== opts.current_aspect_ratio);
  return ratio ? { aspect_ratio: ratio } : undefined;
}

export const conversion = scenario<Conversion>({
  name: 'conversion',
  needs: [
    need.profile('full', 'converting videos (each costs a credit)'),
    need.stateful('it has no videos to convert'),
    need.fixture('convertibleVideoId'),
  ],
  cost: () => ({ A: 1, B: 5, reads: 1, credits: 1 }),
  send: async (s) => {
    const source = await s.fixture('convertibleVideoId');
    const out: Conversion = { source, before: { status: await s.main.get(`/videos/${source}/`) } };
    if (!ok(out.before.status)) return out;
    out.before.options = await s.main.get(`/videos/${source}/conversions/`);
    if (!ok(out.before.options)) return out;
    out.target = conversionTarget(out.before.options.body);
    if (!out.target) return out;
    out.post = await s.main.post(`/videos/${source}/conversions/`, { json: out.target });
    const id = idOf(out.post);
    if (!id) return out;
    s.run.created.push(id);
    out.after = { status: await s.main.get(`/videos/${source}/`) };
    out.after.options = await s.main.get(`/videos/${source}/conversions/`);
    const polled = await pollUntilDone(s.run, id);
    out.converted = { id, polled };
    const b = polled.last.body as { status?: string; download_url?: unknown };
    if (ok(polled.last) && b.status === 'completed') {
      if (typeof b.download_url === 'string' && b.download_url)
        out.converted.download = await downloadHead(b.download_url);
      out.converted.options = await s.main.get(`/videos/${id}/conversions/`);
    }
    return out;
  },
});
