// The run's generations: each costs a credit on a real service, so each is made once and judged by
// every check it can serve.
//
// Which combinations of x-valid-combinations are generated (a credit each) and which are only sent while
// the account's running places are full (refused with 503 by a conforming target, no credit): the
// fewest combinations that together send every input mode of 4.1 and every optional field, chosen
// greedily (`roles`). Today: text + image_files, text + pdf_file, audio_file, video_file (4 credits);
// text alone, pdf_file alone and pptx_file alone are sent over the limit, where a 400 would still show a
// refused form. CONTRACT_EVERY_COMBINATION=1 generates every combination (7 credits).
//
// The first two generations fill the running places (8.2): while both run, the concurrency probe sends
// the other combinations and a conversion, all of which must be refused with 503.
import { MAX_RUNNING } from '@videogen/openapi/rules';
import {
  need,
  scenario,
  type FixtureFindings,
  type FixtureSource,
  type Scenario,
  type Sender,
} from '../engine/catalogue.ts';
import type { Schemas } from '@videogen/openapi/types';
import { itemsOf, successBody } from '../engine/bodies.ts';
import { Skip, untilGuard } from '../engine/outcomes.ts';
import type { Exchange, RequestOptions, TargetConfig } from '../shapes.ts';
import { COMBINATIONS, modeForm, settingFixture, type Combination } from './forms.ts';
import { byNewest } from './discovery.ts';
import {
  downloadHead,
  idOf,
  pollUntilDone,
  waitForSlot,
  waitUntilRunningAtMost,
  type Download,
  type Polled,
  ok,
} from './videos.ts';

/** How many of the account's newest videos the idle wait before the probe reads (the list shows no status). */
export const NEWEST_READ = 5;

/** Generations the run makes to fill the running places: the first two generated combinations. */
const FILLING = 2;

/** The probe reads the status of each filling video twice: before its first request and after its last. */
const PASSES = 2;

const FULL = need.profile('full', 'generating videos (each costs a credit)');

export interface Roles {
  /** Generated (a credit each), in order: the first FILLING fill the running places. */
  generated: Combination[];
  /** Sent only while the running places are full. */
  overLimit: Combination[];
}

/**
 * The combinations a target can take (the Prism mock rejects repeated image_files parts), split into
 * generated and over-the-limit ones. On a stateless mock every combination is sent as a generation (it
 * charges nothing, and it has no running places to fill).
 */
export function roles(target: TargetConfig): Roles {
  const usable = COMBINATIONS.filter((c) => target.kind !== 'prism' || !c.fields.includes('image_files'));
  if (target.everyCombination || !target.stateful) return { generated: usable, overLimit: [] };
  // What a combination covers: the input mode of each field that makes a mode alone (text → question/
  // instruction, pdf_file → from-documents, …), and its optional fields (image_files).
  const single = new Map(COMBINATIONS.filter((c) => c.fields.length === 1).map((c) => [c.fields[0], c.mode]));
  const covers = (c: Combination) => new Set(c.fields.map((f) => single.get(f) ?? `field ${f}`));
  const needed = new Set(usable.flatMap((c) => [...covers(c)]));
  const generated: Combination[] = [];
  while (needed.size) {
    const gain = (c: Combination) => [...covers(c)].filter((x) => needed.has(x)).length;
    const best = usable
      .filter((c) => !generated.includes(c))
      .sort(
        (a, b) => gain(b) - gain(a) || b.fields.length - a.fields.length || usable.indexOf(a) - usable.indexOf(b),
      )[0];
    if (!best || gain(best) === 0) break;
    generated.push(best);
    for (const x of covers(best)) needed.delete(x);
  }
  return { generated, overLimit: usable.filter((c) => !generated.includes(c)) };
}

export interface Generation {
  combination: Combination;
  exchange: Exchange<'generateVideo'>;
}

export interface Generations {
  /** The first generation: what the generation checks judge (the first combination, or the text one in its place). */
  first: Exchange<'generateVideo'>;
  /** The combinations sent to fill the running places, with their answers. */
  sent: Generation[];
  /** GET of the first video right after its creation (it should still be running); stateful targets. */
  firstStatus?: Exchange<'getVideo'>;
  /** Text generations sent in place of a refused or impossible one, so that FILLING run. */
  fallbacks: Exchange<'generateVideo'>[];
  /** The accepted ids, in order. */
  ids: string[];
  /** Ids of videos that existed before (configured and seeded fixtures): no generation may answer one. */
  known: string[];
}

export interface Probe {
  filling: Exchange<'generateVideo'>[];
  /** Status reads of the filling videos just before the first over-limit request. */
  before: Exchange<'getVideo'>[];
  overLimit: Generation[];
  /** A conversion of the convertible fixture (configured or discovered), when there is one. */
  conversion?: Exchange<'createConversion'>;
  /** Status reads of the filling videos after the last over-limit answer. */
  after: Exchange<'getVideo'>[];
  /** Why the guard stopped the probe before its last request (a target that accepted one past the credit cap). */
  stopped?: string;
}

export interface OwnVideo {
  id: string;
  polled: Polled;
  options?: Exchange<'getConversionOptions'>;
  download?: Download;
}

export interface GenerationScenarios {
  roles: Roles;
  generations: Scenario<Generations>;
  probe: Scenario<Probe>;
  /** One scenario per generated combination after the filling ones. */
  byCombination: Map<Combination, Scenario<Generation>>;
  /** The first generated video, polled until it ends: a completed (and convertible) video of the run's own. */
  ownVideo: Scenario<OwnVideo>;
}

function generate(
  s: Sender,
  c: Combination,
  setting: string,
  extra: Omit<RequestOptions, 'query' | 'json'> = {},
): Promise<Exchange<'generateVideo'>> {
  return s.main.call('generateVideo', { form: modeForm(setting, c.fields), ...extra });
}

export function generationScenarios(target: TargetConfig): GenerationScenarios {
  const r = roles(target);
  const text = COMBINATIONS.find((c) => c.key === 'text');
  if (!text) throw new Error('x-valid-combinations has no text-alone combination (the question/instruction mode, 4.1)');
  const filling = r.generated.slice(0, FILLING);
  // Declared below; the generations scenario waits for an idle account on its behalf.
  let probe!: Scenario<Probe>;

  const generations: Scenario<Generations> = scenario({
    name: 'generations',
    needs: [FULL, need.fixture(settingFixture(text))],
    cost: () => ({ A: FILLING, reads: 1, credits: FILLING }),
    send: async (s) => {
      const { run } = s;
      // Start from no running video, so that exactly the ones sent here run when one more is asked.
      if (s.selected(probe)) await s.as(probe, () => waitForIdleAccount(s));
      const textSetting = await s.fixture(settingFixture(text));
      const known = [...Object.values(run.target.fixtures), ...(run.target.seededIds ?? [])].filter(
        (v): v is string => typeof v === 'string',
      );
      const out: Partial<Generations> & Pick<Generations, 'sent' | 'fallbacks' | 'ids' | 'known'> = {
        sent: [],
        fallbacks: [],
        ids: [],
        known,
      };
      for (const [i, c] of filling.entries()) {
        const setting = c === text ? textSetting : await s.maybeFixture(settingFixture(c));
        let exchange = setting ? await generate(s, c, setting) : undefined;
        if (exchange) out.sent.push({ combination: c, exchange });
        if (!idOf(exchange) && c !== text) {
          // No setting for it, or refused: a text generation in its place, so that a refusal fails its own
          // check only and the running places are filled all the same.
          exchange = await generate(s, text, textSetting);
          out.fallbacks.push(exchange);
        }
        if (i === 0) out.first = exchange;
        const id = idOf(exchange);
        if (!id) break;
        out.ids.push(id);
        run.created.push(id);
        if (i === 0 && run.target.stateful) out.firstStatus = await s.main.call('getVideo', { path: { video_id: id } });
      }
      return out as Generations;
    },
  });

  probe = scenario({
    name: 'concurrency probe',
    needs: [FULL, need.stateful('it has no running videos')],
    uses: [generations],
    cost: () => ({
      // The combinations not generated (or one more generation), and a conversion of a convertible video.
      A: (r.overLimit.length || 1) + 1,
      // The idle wait: the account's list, then the status of its newest videos until none runs.
      B: 1 + NEWEST_READ,
      upTo: true,
      // Status reads of the filling videos, before and after.
      reads: PASSES * MAX_RUNNING,
      credits: Math.max(0, MAX_RUNNING - FILLING),
      atRisk: (r.overLimit.length || 1) + 1,
    }),
    send: async (s) => {
      const g = await s.read(generations);
      const ids = [...g.ids];
      if (ids.length < FILLING)
        throw new Skip(
          'the generations filling the running places were not all accepted (see generate_returns_video_id)',
        );
      // Were the limit above the filling generations, more text ones (none today).
      for (let n = ids.length + 1; n <= MAX_RUNNING; n++) {
        const id = idOf(await generate(s, text, await s.fixture(settingFixture(text)), { retry: false }));
        if (id) ids.push(id), s.run.created.push(id);
      }
      // The sends below skip the pacer's concurrency gate (they are meant to meet the limit): tell it what runs.
      s.run.pacer.noteRunning(ids, 'main');
      const statuses = async () => {
        const out: Exchange<'getVideo'>[] = [];
        for (const id of ids) out.push(await s.main.call('getVideo', { path: { video_id: id } }));
        return out;
      };
      const before = await statuses();
      const overLimit: Generation[] = [];
      const settings = new Map<Combination, string | undefined>();
      for (const c of r.overLimit.length ? r.overLimit : [text])
        settings.set(c, await s.maybeFixture(settingFixture(c)));
      // A convertible video found without waiting for the run's own (configured or discovered).
      const source = await s.maybeFixture('convertibleVideoId', { made: false });
      let conversion: Exchange<'createConversion'> | undefined;
      // The guard (a credit cap) may stop the rest once a target accepted one: what was answered stays.
      const { stopped } = await untilGuard([
        ...[...settings]
          .filter((e): e is [Combination, string] => Boolean(e[1]))
          .map(([c, setting]) => async () => {
            const exchange = await generate(s, c, setting, { retry: false, gate: false });
            const id = idOf(exchange);
            if (id) s.run.created.push(id);
            overLimit.push({ combination: c, exchange });
          }),
        async () => {
          if (!source) return;
          conversion = await s.main.call('createConversion', {
            path: { video_id: source },
            json: { aspect_ratio: '1:1' },
            retry: false,
            gate: false,
          });
          const id = idOf(conversion);
          if (id) s.run.created.push(id);
        },
      ]);
      // Read after sending: a video running now was running while the requests were answered.
      return {
        filling: [...g.sent.map((x) => x.exchange), ...g.fallbacks].filter((e) => idOf(e)),
        before,
        overLimit,
        conversion,
        stopped,
        after: await statuses(),
      };
    },
  });
  // Sent as soon as the generations are, while they run.
  generations.then.push(probe);

  const byCombination = new Map<Combination, Scenario<Generation>>();
  for (const c of r.generated.slice(FILLING)) {
    byCombination.set(
      c,
      scenario({
        name: `generation ${c.key}`,
        needs: [FULL, need.fixture(settingFixture(c))],
        cost: () => ({ A: 1, reads: 1, credits: 1 }),
        send: async (s) => {
          const setting = await s.fixture(settingFixture(c));
          // At most MAX_RUNNING per account (8.2): wait for a free place rather than meet a 503.
          await waitForSlot(s.run);
          const exchange = await generate(s, c, setting);
          const id = idOf(exchange);
          if (id) s.run.created.push(id);
          return { combination: c, exchange };
        },
      }),
    );
  }

  const ownVideo: Scenario<OwnVideo> = scenario({
    name: 'own video',
    needs: [FULL, need.stateful('its videos never progress')],
    uses: [generations],
    cost: () => ({ B: 1, reads: 1 }),
    send: async (s) => {
      const g = await s.read(generations);
      const id = g.ids[0];
      if (!id) throw new Error('no generation was accepted (see generate_returns_video_id)');
      const polled = await pollUntilDone(s.run, id);
      const body = successBody(polled.last);
      const out: OwnVideo = { id, polled };
      if (!ok(polled.last) || body?.status !== 'completed') return out;
      out.options = await s.main.call('getConversionOptions', { path: { video_id: id } });
      if (typeof body.download_url === 'string' && body.download_url)
        out.download = await downloadHead(body.download_url);
      return out;
    },
  });

  return { roles: r, generations, probe, byCombination, ownVideo };
}

/**
 * Waits until the account runs no video the suite can see: this run's, and the newest listed (another
 * user of the account may be generating). The list shows no status, so the newest NEWEST_READ are read.
 * Past the polling timeout it carries on: the probe then judges by the state it sees.
 */
async function waitForIdleAccount(s: Sender): Promise<void> {
  const listed = await s.main.call('listVideos', {});
  // Newest first whatever order the target lists in (DECISIONS #18), as discovery reads them.
  const newest = itemsOf<Schemas['VideoListItem']>(successBody(listed)?.results)
    .sort(byNewest)
    .slice(0, NEWEST_READ)
    .map((v) => v.video_id)
    .filter((v): v is string => typeof v === 'string');
  await waitUntilRunningAtMost(s.run, [...new Set([...s.run.created, ...newest])], 0);
}

/** The run's own first video as a fixture: completed (and convertible) once it has ended so (a full run on a fresh account). */
export function ownVideoSource(own: Scenario<OwnVideo>): FixtureSource {
  return {
    provides: ['completedVideoId', 'convertibleVideoId'],
    makes: true,
    scenario: scenario({
      name: 'own video as fixture',
      uses: [own],
      cost: {},
      send: async (s): Promise<FixtureFindings> => {
        const v = await s.read(own);
        const f: FixtureFindings = { found: {}, notes: {}, blocked: {} };
        const status = (v.polled.last.body as { status?: string } | undefined)?.status;
        if (!ok(v.polled.last)) f.blocked.completedVideoId = f.blocked.convertibleVideoId = v.polled.last;
        else if (status !== 'completed')
          f.notes.completedVideoId =
            f.notes.convertibleVideoId = `the run's own video ended ${status}${v.polled.timedOut ? ' (still running at the polling timeout)' : ''}`;
        else {
          f.found.completedVideoId = v.id;
          if (!ok(v.options)) {
            if (v.options) f.blocked.convertibleVideoId = v.options;
          } else if ((v.options?.body as { is_convertible?: unknown } | undefined)?.is_convertible === true)
            f.found.convertibleVideoId = v.id;
          else f.notes.convertibleVideoId = "the run's own video is not convertible";
        }
        return f;
      },
    }),
  };
}
