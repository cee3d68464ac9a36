// POST /videos/generate/ and what follows from it, judged on the run's generations
// (scenarios/generations.ts): a UUID each time, a new one on every call, the running view, completion
// with a real download, the video in the caller's list; and forms refused with 400.
import { PAGE_SIZE, VIDEO_STATUSES } from '@videogen/openapi/rules';
import type { Schemas } from '@videogen/openapi/types';
import { itemsOf, successBody } from '../engine/bodies.ts';
import { check, need, probe, type Check } from '../engine/catalogue.ts';
import { requestLine } from '../engine/http.ts';
import { ensure } from '../engine/judge.ts';
import { untilGuard } from '../engine/outcomes.ts';
import type { Exchange } from '../shapes.ts';
import type { GenerationScenarios } from '../scenarios/generations.ts';
import { textForm } from '../scenarios/requests.ts';
import { TERMINAL, UUID, idOf, ok } from '../scenarios/videos.ts';
import { ensureVideoDownload } from './status.ts';

type Item = Schemas['VideoListItem'];
const REFUSED = need.profile('no-credit', 'POST requests');

const GENERATE = requestLine('generateVideo');
const LIST = requestLine('listVideos');

export function generationChecks(g: GenerationScenarios): Check[] {
  return [
    check('generateVideo', 'generate_returns_video_id', g.generations, (r, j) => {
      const body = j.success(r.first, GENERATE);
      ensure(
        typeof body?.video_id === 'string' && UUID.test(body.video_id),
        `video_id ${body?.video_id} is not a UUID`,
        r.first,
      );
    }),
    check(
      'generateVideo',
      'generate_new_id_each_time',
      g.generations,
      (r, j) => {
        j.success(r.first, GENERATE);
        ensure(
          r.ids.length >= 2,
          'a second generation was not accepted, so no second id could be compared (see the generate_mode checks)',
          [r.first, ...r.fallbacks],
        );
        const [a, b] = r.ids;
        const shown = [...r.sent.map((x) => x.exchange), ...r.fallbacks].filter((e) => idOf(e));
        ensure(new Set(r.ids).size === r.ids.length, `two generations answered the same video_id ${a}`, shown);
        ensure(
          !r.known.includes(a) && !r.known.includes(b),
          'a generation answered the id of an existing video',
          shown,
        );
      },
      [need.stateful('it answers the same example id to every request')],
    ),
    check(
      'getVideo',
      'status_view_running',
      g.generations,
      (r, j) => {
        const id = idOf(r.first);
        ensure(id, 'no generation was accepted (see generate_returns_video_id)', r.first);
        const ex = j.present(r.firstStatus, 'the status read of the new video');
        const body = j.success(ex, 'GET a video just generated');
        ensure(body.video_id === id, `video_id ${body.video_id} is not the requested ${id}`, ex);
        // Any state but expired: a video just made cannot have outlived its download URL.
        ensure(
          VIDEO_STATUSES.filter((v) => v !== 'expired').some((v) => v === body.status),
          `a new video has status ${body.status}`,
          ex,
        );
        if (body.status !== 'running')
          j.skip(`the new video was already ${body.status} when read (the target is too fast to observe running)`);
        ensure(
          body.download_url === '',
          `download_url is ${JSON.stringify(body.download_url)} while running, not ""`,
          ex,
        );
        ensure(
          Array.isArray(body.copyright) && body.copyright.length === 0,
          `copyright is ${JSON.stringify(body.copyright)} while running, not []`,
          ex,
        );
      },
      [need.stateful('its videos are examples')],
    ),
    check('getVideo', 'status_view_generated_completes', g.ownVideo, (v, j) => {
      const ex = v.polled.last;
      const body = j.success(ex, `polling video ${v.id}`);
      ensure(
        TERMINAL.some((t) => t === body.status) || body.status === 'running',
        `status ${body.status} is not a documented state`,
        ex,
      );
      ensure(!v.polled.timedOut, `video ${v.id} still running after the client-side timeout of x-polling`, ex);
      ensure(body.status === 'completed', `a generation ended ${body.status}`, ex);
      ensure(
        typeof body.download_url === 'string' && body.download_url.length > 0,
        'completed without a download_url',
        ex,
      );
      ensure(Array.isArray(body.copyright), 'copyright is not an array when completed', ex);
      ensureVideoDownload(j, v.download, ex);
    }),
    probe('listVideos', 'lists_generated_video', {
      needs: [need.stateful('its list is an example')],
      uses: [g.generations],
      cost: { B: 2, upTo: true },
      send: async (s) => {
        const id = idOf((await s.read(g.generations)).first);
        if (!id) return { pages: [] as Exchange<'listVideos'>[] };
        // Order is not constrained (DECISIONS #18): the first page, else the last (an oldest-first list).
        const first = await s.main.call('listVideos', { query: { page: 1 } });
        const pages = [first];
        const b = successBody(first);
        const last = typeof b?.total_count === 'number' ? Math.ceil(b.total_count / PAGE_SIZE) : 1;
        if (ok(first) && !itemsOf<Item>(b?.results).some((v) => v.video_id === id) && last > 1)
          pages.push(await s.main.call('listVideos', { query: { page: last } }));
        return { id, pages };
      },
      judge: (r, j) => {
        ensure(r.id, 'no generation was accepted (see generate_returns_video_id)');
        for (const ex of r.pages) {
          const body = j.success(ex, LIST);
          if (itemsOf<Item>(body.results).some((v) => v.video_id === r.id)) return;
        }
        const total = (r.pages[0].body as { total_count?: unknown }).total_count;
        if (typeof total === 'number' && total > 2 * PAGE_SIZE)
          j.skip(
            `the generated video is on neither the first nor the last page of ${total} videos (the order is not shown, DECISIONS #18)`,
          );
        ensure(false, `the generated video ${r.id} is not in ${LIST} (${total} videos)`, r.pages);
      },
    }),
    probe('generateVideo', 'negative_data_rejection_schema', {
      needs: [REFUSED],
      cost: { A: 2, atRisk: 2 },
      // Invalid by the schema alone: no video_setting_id, a video_setting_id that is not a UUID.
      send: async (s) => {
        const noSetting = new FormData();
        noSetting.append('text', 'Contract suite: no setting');
        return untilGuard([
          () => s.main.call('generateVideo', { form: noSetting }),
          () => s.main.call('generateVideo', { form: textForm('not-a-uuid', 'Contract suite: bad setting') }),
        ]);
      },
      judge: (r, j) => {
        for (const ex of r.sent) j.refusal(ex, [400]);
        if (r.stopped) j.skip(r.stopped);
      },
      answers: [{ status: 400 }],
    }),
    probe('generateVideo', 'negative_data_rejection_semantics', {
      needs: [REFUSED, need.stateful('it accepts any well-typed form'), need.fixture('videoSettingId')],
      cost: { A: 1, atRisk: 1 },
      // No input at all (no valid combination of 4.1). An unknown setting is negative_data_rejection_unknown_setting.
      send: async (s) => {
        const noInput = new FormData();
        noInput.append('video_setting_id', await s.fixture('videoSettingId'));
        return s.main.call('generateVideo', { form: noInput });
      },
      judge: (ex, j) => j.refusal(ex, [400]),
      answers: [{ status: 400 }],
    }),
  ];
}
