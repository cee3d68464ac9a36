// @module-tag full/packed
// An application's own test, in a fresh project with the client and the sandbox installed from their
// tarballs and vitest from the registry: the sample flow (interface 4.7) through createSandbox() and
// the client with sb.fetch, in process, with no port. Its own file: createSandbox is being added on
// another branch; this is written against its stated interface.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { installedBin, run, show } from './helpers.ts';

const { projects } = inject('release');
const dir = projects.app!;

// The user's test file, as the client's README "Testing your integration" section shows it: the client
// with the sandbox's fetch and clock.
const FLOW = `
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { createClient } from '@videogen/client';
import { createSandbox, SANDBOX_KEYS } from '@videogen/sandbox';

const sb = await createSandbox();
afterAll(() => sb.close());

// The timeout only guards against a hang on a loaded machine; nothing here measures speed.
test('the sample flow, in process', { timeout: 120_000 }, async () => {
  expect(typeof sb.fetch).toBe('function');
  // The client's waits (polling every 10 s, pacing) move the sandbox's clock instead of sleeping.
  const client = createClient({ apiKey: SANDBOX_KEYS.acme, baseUrl: sb.baseUrl, fetch: sb.fetch, clock: sb.clock });
  // Nothing may leave the process: the client reaches the sandbox through sb.fetch only.
  const realFetch = globalThis.fetch;
  globalThis.fetch = () => Promise.reject(new Error('the network was used'));
  try {
    // 1. a setting for a text, 2. generate, 3. poll until completed, then download.
    let setting;
    for await (const s of client.settings.list()) if (s.request_fields.join() === 'text') { setting = s; break; }
    expect(setting).toBeDefined();
    const video = await client.generateAndWait({ video_setting_id: setting.video_setting_id, text: 'Explain tides' });
    expect(video.status).toBe('completed');
    const { bytes } = await client.download(video.video_id, join(tmpdir(), video.video_id + '.mp4'));
    expect(bytes).toBeGreaterThan(1000);

    // 4. the conversion options, a conversion to another of its languages, polled the same way.
    const options = await client.conversions.get(video.video_id);
    expect(options.is_convertible).toBe(true);
    const language = options.available_languages.find((l) => l !== options.current_language);
    const converted = await client.convertAndWait(video.video_id, { language });
    expect(converted.status).toBe('completed');
    expect(converted.video_id).not.toBe(video.video_id);
  } finally {
    globalThis.fetch = realFetch;
  }
});
`;

describe("createSandbox() in an application's vitest test", () => {
  it('runs the sample flow with the client over sb.fetch, with no port', async () => {
    writeFileSync(join(dir, 'flow.test.mjs'), FLOW);
    const r = await run('npx', ['vitest', 'run', 'flow.test.mjs'], { cwd: dir, env: { CI: '1', NO_COLOR: '1' } });
    expect(r.code, show(r)).toBe(0);
    expect(r.stdout).toMatch(/Tests\s+1 passed/);
  });
});

// A twin file the application keeps beside its tests (the built-in alternative's, changed and written
// out), and one that does not validate: refused before anything runs, naming the field.
const TWIN = `
import { writeFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { createSandbox, SANDBOX_KEYS } from '@videogen/sandbox';

test('the sandbox answers as a twin file; a bad one is refused naming the field', { timeout: 120_000 }, async () => {
  const builtin = await createSandbox({ twin: 'alternative' });
  const file = JSON.parse(JSON.stringify(builtin.twin));
  await builtin.close();
  file.name = 'staging';
  file.behaviours['success.status.listVideos'] = { value: 203, provenance: { source: 'decision', note: 'a test' } };
  writeFileSync('staging.twin.json', JSON.stringify(file));
  const sb = await createSandbox({ twin: 'staging.twin.json' });
  try {
    const res = await sb.fetch(sb.baseUrl + '/videos/', { headers: { authorization: 'Bearer ' + SANDBOX_KEYS.acme } });
    expect(res.status).toBe(203);
    expect((await res.json()).object).toBe('list');
  } finally {
    await sb.close();
  }
  file.behaviours['paging.past_end'].value = { answer: 'nope' };
  writeFileSync('bad.twin.json', JSON.stringify(file));
  await expect(createSandbox({ twin: 'bad.twin.json' })).rejects.toThrow(
    'bad.twin.json is not a valid twin (format 1):\\n  behaviours["paging.past_end"].value.answer: is not one of the forms of this field (got "nope")',
  );
});
`;

describe("createSandbox({ twin }) in an application's vitest test", () => {
  it('answers as a twin file written by the application, and refuses one that does not validate', async () => {
    writeFileSync(join(dir, 'twin.test.mjs'), TWIN);
    // The project's vitest bin itself, as an npm "test" script runs it (npx vitest is run above).
    const r = await run(installedBin(dir, 'vitest'), ['run', 'twin.test.mjs'], {
      cwd: dir,
      env: { CI: '1', NO_COLOR: '1' },
    });
    expect(r.code, show(r)).toBe(0);
    expect(r.stdout).toMatch(/1 passed/);
  });
});
