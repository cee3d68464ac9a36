// @module-tag full/processes
// `videogen relay` as a user runs it: the built command as a child process with its state in a file,
// against a sandbox and a receiver on loopback. kill -9 in the middle of a delivery, then a new relay on
// the same file delivers it with its id; a receiver that refuses fills the dead-letter list, which
// `--failed` shows and `--replay` empties while the relay runs; usage errors exit 2 (3 without a key).
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, verifyWebhook } from '@videogen/client';
import { FIXTURES, type RunningSandbox, SANDBOX_KEYS, startSandbox } from '@videogen/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, SECRET, startReceiver, tally, until } from '../../relay/test/harness.mjs';
import { assertNoSecret, CLI, cliEnv, errorLine, run } from './helpers.js';

let sb: RunningSandbox;
let receiver: Receiver;
const key = SANDBOX_KEYS.acme;
const dir = mkdtempSync(join(tmpdir(), 'vg-cli-relay-'));
const env = () => ({ key, baseUrl: sb.baseUrl, env: { VIDEO_WEBHOOK_SECRET: SECRET } });

beforeAll(async () => {
  sb = await startSandbox({ port: 0, timeScale: 100 });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await sb?.close();
});

interface Running {
  url: string;
  stderr: () => string;
  kill(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `videogen relay … --listen 0` running; resolves once it says where it listens. */
function relay(args: string[]): Promise<Running> {
  const child = spawn(process.execPath, [CLI, 'relay', '--listen', '0', ...args], {
    env: cliEnv(env()),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => {
      stderr += d;
      const m = /announces at (http:\/\/\S+)/.exec(stderr);
      if (m?.[1])
        resolve({
          url: m[1],
          stderr: () => stderr,
          kill: (signal = 'SIGKILL') => {
            child.kill(signal);
            return exited;
          },
        });
    });
    exited.then(({ code }) => reject(new Error(`videogen relay exited ${code}: ${stderr}`)));
  });
}

const to = (path: string) => receiver.deliveries.filter((d) => d.path === path);
const verify = (d: (typeof receiver.deliveries)[number]) => verifyWebhook(d.body, d.headers, SECRET);

describe('videogen relay', () => {
  it('survives kill -9 mid-delivery on its state file: the next relay delivers the event with its id', async () => {
    const state = join(dir, 'restart.json');
    // A lease of 1 s: the dead relay's video is free for the next one a second after its last renewal.
    const args = [
      '--forward-to',
      `${receiver.url}/restart`,
      '--state',
      state,
      '--poll-interval',
      '0.1',
      '--backfill',
      '0',
      '--lease',
      '1',
    ];
    receiver.answer = (d) => (d.path === '/restart' ? 'hold' : 200);
    const first = await relay(args);
    const client = createClient({ apiKey: key, baseUrl: sb.baseUrl, relayUrl: first.url });
    const made = await client.videos.generate({ video_setting_id: FIXTURES.acme.settings.text, text: 'Killed relay' });
    await until(() => to('/restart').length === 1, 'the held delivery');
    expect((await first.kill()).signal).toBe('SIGKILL');

    receiver.answer = () => 200;
    receiver.release(200);
    const second = await relay(args);
    await until(() => to('/restart').length === 2, 'the delivery again');
    const [held, again] = to('/restart');
    expect(again?.headers['webhook-id']).toBe(held?.headers['webhook-id']);
    expect(tally(to('/restart'), [{ video_id: made.video_id, type: 'video.completed' }], verify)).toMatchObject({
      expected: 1,
      delivered: 1,
      lost: 0,
      conflicting: 0,
      unverified: 0,
    });
    // SIGTERM: the relay stops; the CLI's code for it.
    expect((await second.kill('SIGTERM')).code).toBe(143);
    assertNoSecret({ stdout: '', stderr: second.stderr() }, key);
    expect(second.stderr()).not.toContain(SECRET.slice(6));
  });

  it('lists what it gave up with --failed, and requeues it with --replay while it runs', async () => {
    const state = join(dir, 'dead.json');
    receiver.answer = (d) => (d.path === '/dead' ? 503 : 200);
    const running = await relay([
      '--forward-to',
      `${receiver.url}/dead`,
      '--state',
      state,
      '--poll-interval',
      '0.1',
      '--retry-schedule',
      '0,0.05',
      '--backfill',
      '0',
      '--lease',
      '1',
    ]);
    const client = createClient({ apiKey: key, baseUrl: sb.baseUrl, relayUrl: running.url });
    await client.videos.generate({ video_setting_id: FIXTURES.acme.settings.text, text: 'Refused twice' });
    const failed = await until(async () => {
      const r = await run(['--json', 'relay', '--failed', '--state', state], env());
      const list = JSON.parse(r.stdout) as Array<{ event: { id: string; attempts: number; lastError: string } }>;
      return list.length > 0 ? list : undefined;
    }, 'a dead letter');
    expect(failed[0]?.event).toMatchObject({ attempts: 2, lastError: expect.stringMatching(/^503/) });
    const human = await run(['relay', '--failed', '--state', state], env());
    expect(human.stdout).toMatch(/EVENT\s+TYPE\s+VIDEO\s+ATTEMPTS/);
    expect(human.stdout).toContain(`videogen relay --replay ${failed[0]?.event.id}`);

    receiver.answer = () => 200;
    const replayed = await run(['relay', '--replay', failed[0]?.event.id ?? '', '--state', state], env());
    expect(replayed.code).toBe(0);
    expect(replayed.stdout).toMatch(/requeued/);
    await until(
      () => to('/dead').some((d, i) => i >= 2 && d.headers['webhook-id'] === failed[0]?.event.id),
      'the replay',
    );
    const empty = await run(['relay', '--failed', '--state', state], env());
    expect(empty.stdout).toMatch(/No dead-lettered event/);
    const unknown = await run(['relay', '--replay', 'msg_nothing', '--state', state], env());
    expect(unknown.code).toBe(4);
    await running.kill('SIGTERM');
  });

  it('refuses what cannot work, with the fix: exit 2, or 3 without a key', async () => {
    const noTarget = await run(['relay'], env());
    expect(noTarget.code).toBe(2);
    expect(errorLine(noTarget.stderr)).toMatch(/--forward-to/);
    const noSecret = await run(['relay', '--forward-to', 'https://app.example/hook'], { key, baseUrl: sb.baseUrl });
    expect(noSecret.code).toBe(2);
    expect(errorLine(noSecret.stderr)).toMatch(/VIDEO_WEBHOOK_SECRET=whsec_/);
    const badSchedule = await run(
      ['relay', '--forward-to', 'https://app.example/hook', '--retry-schedule', '0,x'],
      env(),
    );
    expect(badSchedule.code).toBe(2);
    const noKey = await run(['relay', '--forward-to', 'https://app.example/hook'], { baseUrl: sb.baseUrl });
    expect(noKey.code).toBe(3);
  });
});
