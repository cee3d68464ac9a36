// Fixture discovery: ids the checks need, looked for on the target when they are not configured, within
// a stated request budget (DISCOVERY, shown by --plan). Only answers that were read successfully become
// a reason to skip ("no failed video among the 63 listed"); an error answer on the way blocks the
// fixtures it was looking for instead (the checks that need them fail, naming it).
import { randomUUID } from 'node:crypto';
import { LANGUAGES, PAGE_SIZE, UPLOAD_LIMITS, VALID_COMBINATIONS } from '@videogen/openapi/rules';
import type { Schemas } from '@videogen/openapi/types';
import { itemsOf, stringsOf, successBody } from '../engine/bodies.ts';
import { need, scenario, type FixtureFindings, type FixtureSource, type Sender } from '../engine/catalogue.ts';
import { requestLine, type Api } from '../engine/http.ts';
import type { Exchange, FixtureName } from '../shapes.ts';
import type { OperationId, Untrusted } from '@videogen/openapi/types';
import { COMBINATIONS, settingFixture } from './forms.ts';
import { ok as success } from './videos.ts';

/** The most discovery sends: pages of GET /videos/, and status / conversion-option reads of listed videos. */
export const DISCOVERY = { pages: 4, reads: 12, settingPages: 2, otherAccountReads: 5 } as const;

/** Sorts list items newest first by created_at (items without one last): a new video is the least likely to have expired. */
export function byNewest(a: { created_at?: unknown } | undefined, b: { created_at?: unknown } | undefined): number {
  return String(b?.created_at ?? '').localeCompare(String(a?.created_at ?? ''));
}

type Item = Schemas['VideoListItem'];
const findings = (): FixtureFindings => ({ found: {}, notes: {}, blocked: {} });
/** A success whose body is a JSON object (what discovery can read). */
const ok = (ex: Exchange<OperationId>) => success(ex) && successBody(ex) !== undefined;

/** The upload fields that make a mode of their own (text alone takes none of them). */
const OPTIONAL: readonly string[] = VALID_COMBINATIONS.flatMap(([, may]) => may);
const FILE_FIELDS: readonly string[] = Object.keys(UPLOAD_LIMITS).filter((f) => !OPTIONAL.includes(f));
const sameFields = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x) => b.includes(x));

const SETTING_FIXTURES = [...new Set(COMBINATIONS.map(settingFixture))];

/** The settings of every combination, from GET /video-settings/ (a setting serves a combination whose fields it lists exactly, DECISIONS #26). */
export const settingsDiscovery = scenario({
  name: 'discovery: settings',
  cost: () => ({ B: DISCOVERY.settingPages, upTo: true }),
  send: async (s) => {
    const f = findings();
    if (!s.run.target.stateful) {
      // A stateless mock accepts any well-formed id (and lists only its examples).
      for (const name of SETTING_FIXTURES) f.found[name] = randomUUID();
      return f;
    }
    const settings: Array<{ video_setting_id: unknown; request_fields: string[] }> = [];
    for (let page = 1; page <= DISCOVERY.settingPages; page++) {
      const ex = await s.main.call('listVideoSettings', page === 1 ? {} : { query: { page } });
      const body = successBody(ex);
      if (!ok(ex) || !body) {
        for (const name of SETTING_FIXTURES) f.blocked[name] = ex;
        return f;
      }
      for (const r of itemsOf<Schemas['VideoSetting']>(body.results))
        if (Array.isArray(r.request_fields))
          settings.push({ video_setting_id: r.video_setting_id, request_fields: stringsOf(r.request_fields) });
      if (!body.has_next) break;
    }
    for (const c of COMBINATIONS) {
      const name = settingFixture(c);
      if (f.found[name]) continue;
      // Text alone: a setting with text and no file field (the cheapest generation).
      const match =
        c.key === 'text'
          ? (r: (typeof settings)[number]) =>
              r.request_fields.includes('text') && !r.request_fields.some((x) => FILE_FIELDS.includes(x))
          : (r: (typeof settings)[number]) => sameFields(r.request_fields, c.fields);
      const hit = settings.find(match);
      if (hit) f.found[name] = hit.video_setting_id as string;
      else
        f.notes[name] =
          `no video setting with request_fields ${c.key === 'text' ? 'with text and no file' : `exactly [${c.fields.join(', ')}]`} among the ${settings.length} listed`;
    }
    return f;
  },
});

const STATE_FIXTURES = { completed: 'completedVideoId', failed: 'failedVideoId', expired: 'expiredVideoId' } as const;
const OPTION_FIXTURES = ['convertibleVideoId', 'notConvertibleVideoId', 'limitedVoicesVideoId'] as const;
const VIDEO_FIXTURES: FixtureName[] = [...Object.values(STATE_FIXTURES), ...OPTION_FIXTURES];

/**
 * Videos of the main account in every state, and their conversion options: pages of GET /videos/
 * (newest first whatever order the target lists in, DECISIONS #18), then the status of listed videos
 * newest first, and the options of the completed ones, until every fixture is found or the budget is spent.
 */
export const videoDiscovery = scenario({
  name: 'discovery: videos',
  needs: [need.stateful('its videos are examples')],
  cost: () => ({ B: DISCOVERY.pages + DISCOVERY.reads, upTo: true }),
  send: async (s) => {
    const f = findings();
    const t = s.run.target;
    const known = new Set(
      [...Object.values(t.fixtures), ...(t.seededIds ?? [])].filter((v): v is string => typeof v === 'string'),
    );
    const missing = () => VIDEO_FIXTURES.filter((n) => !t.fixtures[n] && !f.found[n]);
    if (!missing().length) return f;
    const listed = await listPages(s.main, DISCOVERY.pages);
    if (listed.error) {
      for (const n of missing()) f.blocked[n] = listed.error;
      return f;
    }
    const candidates = newestAndOldest(
      listed.items
        .filter((v): v is typeof v & { video_id: string } => typeof v.video_id === 'string' && !known.has(v.video_id))
        .sort(byNewest),
    );
    let reads = 0;
    const needStates = () =>
      Object.entries(STATE_FIXTURES)
        .filter(([, n]) => missing().includes(n))
        .map(([state]) => state);
    const needOptions = () => OPTION_FIXTURES.filter((n) => missing().includes(n));
    let readStates = 0;
    for (const item of candidates) {
      if (!missing().length || reads >= DISCOVERY.reads) break;
      const id = item.video_id;
      const status = await s.main.call('getVideo', { path: { video_id: id } });
      reads++;
      if (!ok(status)) {
        // This one could have been any of them: what is still missing could not be looked for to the end.
        for (const n of missing()) f.blocked[n] = status;
        return f;
      }
      readStates++;
      const state = successBody(status)?.status as keyof typeof STATE_FIXTURES;
      if (needStates().includes(state)) f.found[STATE_FIXTURES[state]] = id;
      if (state !== 'completed' || !needOptions().length || reads >= DISCOVERY.reads) continue;
      const options = await s.main.call('getConversionOptions', { path: { video_id: id } });
      reads++;
      const o = successBody(options);
      if (!ok(options) || !o) {
        for (const n of needOptions()) f.blocked[n] = options;
        continue;
      }
      if (o.is_convertible === true) {
        f.found.convertibleVideoId ??= id;
        // A speaker that does not speak every language (LANGUAGE_NOT_SUPPORTED_BY_VOICES can be provoked).
        const available = stringsOf(o.available_languages);
        if (
          Array.isArray(o.available_languages) &&
          LANGUAGES.some((l) => l !== o.current_language && !available.includes(l))
        )
          f.found.limitedVoicesVideoId ??= id;
      } else if (o.is_convertible === false) f.found.notConvertibleVideoId ??= id;
    }
    const where = `among the ${candidates.length} listed (${listed.pages} page${listed.pages === 1 ? '' : 's'} of ${requestLine('listVideos')} read, ${readStates} statuses read; discovery reads at most ${DISCOVERY.pages} pages and ${DISCOVERY.reads} videos)`;
    for (const [state, n] of Object.entries(STATE_FIXTURES))
      if (missing().includes(n)) f.notes[n] = `no ${state} video ${where}`;
    if (missing().includes('convertibleVideoId'))
      f.notes.convertibleVideoId = `no completed video with is_convertible true ${where}`;
    if (missing().includes('notConvertibleVideoId'))
      f.notes.notConvertibleVideoId = `no completed video with is_convertible false ${where}`;
    if (missing().includes('limitedVoicesVideoId'))
      f.notes.limitedVoicesVideoId = `no convertible video lacking a language ${where}`;
    return f;
  },
});

/**
 * The newest and the oldest in turn: a new video is the likeliest to be completed (and convertible), an
 * old one to have failed or expired. An account in use pushes its first videos, the failed and expired
 * ones among them, behind every newer one: read newest first only, they are never reached.
 */
export function newestAndOldest<T>(newestFirst: T[]): T[] {
  const out: T[] = [];
  for (let i = 0, j = newestFirst.length - 1; i <= j; i++, j--) {
    out.push(newestFirst[i] as T);
    if (j > i) out.push(newestFirst[j] as T);
  }
  return out;
}

/**
 * Up to `pages` pages of GET /videos/: page 1, then the page at the other end of the list (the oldest
 * videos when the list is newest first, the newest when it is oldest first), then the pages next to the
 * newest end: the both ends of an account's history within the budget.
 */
async function listPages(
  api: Api,
  pages: number,
): Promise<{ items: Untrusted<Item>[]; pages: number; error?: Exchange }> {
  const first = await api.call('listVideos', {});
  const firstBody = successBody(first);
  if (!ok(first) || !firstBody) return { items: [], pages: 1, error: first };
  const items = itemsOf<Item>(firstBody.results);
  const total = Number(firstBody.total_count);
  const last = Number.isInteger(total) && total > 0 ? Math.ceil(total / PAGE_SIZE) : 1;
  const oldestFirst = items.length > 1 && byNewest(items[0], items[items.length - 1]) > 0;
  // The other end first, then the pages nearest the newest end.
  const fromNewest = oldestFirst
    ? Array.from({ length: last - 1 }, (_, i) => last - i)
    : Array.from({ length: last - 1 }, (_, i) => i + 2);
  const otherEnd = oldestFirst ? [] : fromNewest.slice(-1);
  const order = [...otherEnd, ...fromNewest.filter((p) => !otherEnd.includes(p))];
  let read = 1;
  for (const page of order.slice(0, pages - 1)) {
    const ex = await api.call('listVideos', { query: { page } });
    read++;
    if (!ok(ex)) return { items, pages: read, error: ex };
    items.push(...itemsOf<Item>(successBody(ex)?.results));
  }
  return { items, pages: read };
}

/** A video of another account: the newest it lists (isolation checks). */
export const otherAccountDiscovery = scenario({
  name: 'discovery: other account',
  needs: [need.stateful('it has no accounts'), need.key('other', 'no second account')],
  cost: () => ({ apartB: 1 }),
  send: async (s) => {
    const f = findings();
    const ex = await s.api('other').call('listVideos', {});
    if (!ok(ex)) f.blocked.otherAccountVideoId = ex;
    else {
      const first = itemsOf<Item>(successBody(ex)?.results).sort(byNewest)[0];
      if (typeof first?.video_id === 'string') f.found.otherAccountVideoId = first.video_id;
      else f.notes.otherAccountVideoId = 'the other account lists no video';
    }
    return f;
  },
});

/** A convertible video of an account (the Free-plan one, the one without credit): the 7.2 INSUFFICIENT_CREDIT rows. */
function convertibleOf(account: 'freePlan' | 'noCredit', fixture: FixtureName, keyWhy: string) {
  return scenario({
    name: `discovery: ${account} account`,
    needs: [need.stateful('it has no plans'), need.key(account, keyWhy)],
    cost: () => ({ apartB: 1 + DISCOVERY.otherAccountReads, upTo: true }),
    send: async (s: Sender) => {
      const f = findings();
      const api = s.api(account);
      const list = await api.call('listVideos', {});
      if (!ok(list)) {
        f.blocked[fixture] = list;
        return f;
      }
      const items = itemsOf<Item>(successBody(list)?.results).sort(byNewest).slice(0, DISCOVERY.otherAccountReads);
      for (const item of items) {
        const o = await api.call('getConversionOptions', { path: { video_id: String(item.video_id) } });
        if (!ok(o)) {
          f.blocked[fixture] = o;
          return f;
        }
        if (successBody(o)?.is_convertible === true) {
          f.found[fixture] = String(item.video_id);
          return f;
        }
      }
      f.notes[fixture] = `no convertible video among the ${items.length} newest of that account`;
      return f;
    },
  });
}

export const freePlanDiscovery = convertibleOf('freePlan', 'freePlanVideoId', 'no key of a Free-plan account');
export const noCreditDiscovery = convertibleOf('noCredit', 'noCreditVideoId', 'no key of an account without credit');

/** Discovery as fixture sources, in the order they are asked. */
export const DISCOVERY_SOURCES: FixtureSource[] = [
  { provides: SETTING_FIXTURES, scenario: settingsDiscovery },
  { provides: VIDEO_FIXTURES, scenario: videoDiscovery },
  { provides: ['otherAccountVideoId'], scenario: otherAccountDiscovery },
  { provides: ['freePlanVideoId'], scenario: freePlanDiscovery },
  { provides: ['noCreditVideoId'], scenario: noCreditDiscovery },
];
