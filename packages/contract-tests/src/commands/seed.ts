// --seed-fixtures: spends two credits once so that later read-only runs skip as little as possible. It creates a
// video, waits for it to complete, converts it when it can, waits for that too, and writes their ids to
// a fixtures file that later runs against the same base URL read (CONTRACT_FIXTURES_FILE).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ASPECT_RATIOS } from '@videogen/openapi/rules';
import { successBody } from '../engine/bodies.ts';
import { requestLine } from '../engine/http.ts';
import { Run } from '../engine/run.ts';
import { createSender } from '../engine/runner.ts';
import { select } from '../engine/selection.ts';
import { catalogue } from '../checks/index.ts';
import { textForm } from '../scenarios/requests.ts';
import { idOf, pollUntilDone, ok } from '../scenarios/videos.ts';
import type { FixtureIds, TargetConfig } from '../shapes.ts';
import { UsageError } from '../cli/target.ts';

export async function seed(target: TargetConfig, file: string, out: (s: string) => void): Promise<FixtureIds> {
  if (target.profile !== 'full')
    throw new UsageError('--seed-fixtures spends credits: it runs only with --profile full (CONTRACT_PROFILE=full)');
  const run = new Run(target);
  const cat = catalogue(target);
  const s = createSender(run, cat, select(cat, target, 'full'));
  // At most the two credits it is meant to spend, whatever the target answers.
  run.creditCap = 2;
  run.capReason = '--seed-fixtures spends at most 2 credits';
  const setting = await s.maybeFixture('videoSettingId', { made: false });
  if (!setting) throw new Error('no text setting to generate with: set CONTRACT_VIDEO_SETTING_ID');
  const seeded: FixtureIds = {};
  let conversionId: string | undefined;
  const created = await run.main.call('generateVideo', {
    form: textForm(setting, 'Contract suite fixture: explain the water cycle in one minute.'),
  });
  const id = idOf(created);
  if (!id) throw new Error(`${requestLine('generateVideo')} answered ${created.status}: ${created.text.slice(0, 200)}`);
  out(`generated ${id}, waiting for it…\n`);
  const done = await pollUntilDone(run, id);
  const state = successBody(done.last)?.status;
  if (!ok(done.last) || state !== 'completed')
    throw new Error(`the seeded video ended ${ok(done.last) ? state : `with GET answering ${done.last.status}`}`);
  seeded.completedVideoId = id;
  const options = await run.main.call('getConversionOptions', { path: { video_id: id } });
  const o = successBody(options);
  // (Every ratio but the source's: there are 7, so one always differs.)
  const ratio = ASPECT_RATIOS.find((r) => r !== o?.current_aspect_ratio);
  if (o?.is_convertible && ratio) {
    seeded.convertibleVideoId = id;
    const conversion = await run.main.call('createConversion', {
      path: { video_id: id },
      json: { aspect_ratio: ratio },
    });
    const cid = idOf(conversion);
    if (cid) {
      out(`converted to ${ratio} as ${cid}, waiting for it…\n`);
      const c = await pollUntilDone(run, cid);
      if (successBody(c.last)?.status === 'completed') conversionId = cid;
    } else out(`the conversion answered ${conversion.status}: read-only runs go on without one\n`);
  } else out('the seeded video is not convertible: the conversion checks will skip\n');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(
    file,
    JSON.stringify(
      { baseUrl: target.baseUrl, seededAt: new Date().toISOString(), fixtures: seeded, conversion: conversionId },
      null,
      2,
    ) + '\n',
  );
  out(
    `wrote ${file}: ${Object.entries(seeded)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ')} (${run.creditsSpent} credits spent)\n`,
  );
  return seeded;
}
