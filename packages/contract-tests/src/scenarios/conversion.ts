// The run's one conversion (a credit on a real service), judged by the three conversion checks: the
// source and its options before, the POST, the source and its options after, and the new video polled
// until it ends with its options and the head of its download. A non-200 answer ends the scenario; the
// record keeps what was sent for the checks to judge.
import type { Schemas } from '@videogen/openapi/types';
import { stringsOf, successBody, type Answered } from '../engine/bodies.ts';
import { need, scenario } from '../engine/catalogue.ts';
import type { Exchange } from '../shapes.ts';
import { downloadHead, idOf, pollUntilDone, type Download, type Polled, ok } from './videos.ts';

type Target = Schemas['ConversionRequest'];

export interface Conversion {
  source: string;
  before: { status: Exchange<'getVideo'>; options?: Exchange<'getConversionOptions'> };
  target?: Target;
  post?: Exchange<'createConversion'>;
  after?: { status: Exchange<'getVideo'>; options?: Exchange<'getConversionOptions'> };
  converted?: { id: string; polled: Polled; options?: Exchange<'getConversionOptions'>; download?: Download };
}

/** A target different from the source's: a language from available_languages, else an aspect ratio. */
export function conversionTarget(opts: Answered<'getConversionOptions'> | undefined): Target | undefined {
  const lang = stringsOf(opts?.available_languages).find((l) => l !== opts?.current_language);
  if (lang) return { language: lang as Target['language'] };
  const ratio = stringsOf(opts?.available_aspect_ratios).find((r) => r !== opts?.current_aspect_ratio);
  return ratio ? { aspect_ratio: ratio as Target['aspect_ratio'] } : undefined;
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
    const path = { video_id: source };
    const out: Conversion = { source, before: { status: await s.main.call('getVideo', { path }) } };
    if (!ok(out.before.status)) return out;
    out.before.options = await s.main.call('getConversionOptions', { path });
    if (!ok(out.before.options)) return out;
    out.target = conversionTarget(successBody(out.before.options));
    if (!out.target) return out;
    out.post = await s.main.call('createConversion', { path, json: out.target });
    const id = idOf(out.post);
    if (!id) return out;
    s.run.created.push(id);
    out.after = { status: await s.main.call('getVideo', { path }) };
    out.after.options = await s.main.call('getConversionOptions', { path });
    const polled = await pollUntilDone(s.run, id);
    out.converted = { id, polled };
    const b = successBody(polled.last);
    if (b?.status === 'completed') {
      if (typeof b.download_url === 'string' && b.download_url)
        out.converted.download = await downloadHead(b.download_url);
      out.converted.options = await s.main.call('getConversionOptions', { path: { video_id: id } });
    }
    return out;
  },
});
