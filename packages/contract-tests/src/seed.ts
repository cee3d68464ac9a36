// contract --seed: spends a few credits once so that later read-only runs skip as little as
// possible. It creates a video, waits for it to complete, converts it when it can, waits for that
// too, and writes their ids to a fixtures file that later runs read (CONTRACT_FIXTURES_FILE).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ASPECT_RATIOS, POLLING } from '@videogen/openapi/rules';
import { Run } from './run.ts';
import { textForm } from './checks/requests.ts';
import type { FixtureIds, TargetConfig } from './target.ts';

/** Polls a video until it leaves `running`, at the polling pace of the spec (target time). */
async function waitDone(run: Run, id: string): Promise<string> {
  const deadline = Date.now() + POLLING.timeoutMs / run.timeScale;
  for (;;) {
    const ex = await run.main.get(`/videos/${id}/`);
    const status = (ex.body as { status?: string })?.status;
    if (ex.status !== 200) throw new Error(`GET /videos/${id}/ answered ${ex.status}`);
    if (status !== 'running') return String(status);
    if (Date.now() > deadline) throw new Error(`video ${id} still running after the client-side timeout`);
    await run.sleep(POLLING.intervalMs / 1000);
  }
}

export async function seed(target: TargetConfig, file: string, out: (s: string) => void): Promise<FixtureIds> {
  if (target.profile !== 'full') throw new Error('--seed spends credits: it runs only with CONTRACT_PROFILE=full');
  const run = new Run(target);
  const found = await run.fixtures();
  const setting = found.videoSettingId;
  if (!setting) throw new Error('no text setting to generate with: set CONTRACT_VIDEO_SETTING_ID');
  const seeded: FixtureIds = {};
  let conversionId: string | undefined;
  const created = await run.main.post('/videos/generate/', { form: textForm(setting, 'Contract suite fixture: explain the water cycle in one minute.') });
  const id = (created.body as { video_id?: string })?.video_id;
  if (created.status < 200 || created.status > 299 || !id) throw new Error(`POST /videos/generate/ answered ${created.status}: ${created.text.slice(0, 200)}`);
  out(`generated ${id}, waiting for it…\n`);
  const state = await waitDone(run, id);
  if (state !== 'completed') throw new Error(`the seeded video ended ${state}`);
  seeded.completedVideoId = id;
  const options = await run.main.get(`/videos/${id}/conversions/`);
  const o = options.body as { is_convertible?: boolean; current_aspect_ratio?: string };
  if (options.status === 200 && o?.is_convertible) {
    seeded.convertibleVideoId = id;
    const ratio = ASPECT_RATIOS.find((r) => r !== o.current_aspect_ratio)!;
    const conversion = await run.main.post(`/videos/${id}/conversions/`, { json: { aspect_ratio: ratio } });
    const cid = (conversion.body as { video_id?: string })?.video_id;
    if (conversion.status >= 200 && conversion.status < 300 && cid) {
      out(`converted to ${ratio} as ${cid}, waiting for it…\n`);
      if ((await waitDone(run, cid)) === 'completed') conversionId = cid;
    } else out(`the conversion answered ${conversion.status}: read-only runs go on without one\n`);
  } else out('the seeded video is not convertible: the conversion checks will skip\n');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ baseUrl: target.baseUrl, seededAt: new Date().toISOString(), fixtures: seeded, conversion: conversionId }, null, 2) + '\n');
  out(`wrote ${file}: ${Object.entries(seeded).map(([k, v]) => `${k}=${v}`).join(', ')} (${run.creditsSpent} credits spent)\n`);
  return seeded;
}
