// A client with a relay's URL announces every video it creates (a generate, a conversion) to it, over
// real HTTP on loopback (a server here plays the relay's endpoint), authorized by a token derived from
// the key; an announce that fails never fails the create.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { FIXTURES, type RunningSandbox, SANDBOX_KEYS, startSandbox } from '@videogen/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, RELAY_URL_VARIABLE, relayToken } from '../src/index.js';

interface Announced {
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

let sb: RunningSandbox;
let relay: Server;
let relayUrl: string;
const announced: Announced[] = [];
let answer = 202;
const key = SANDBOX_KEYS.acme;
const text = FIXTURES.acme.settings.text;

beforeAll(async () => {
  sb = await startSandbox({ port: 0, timeScale: 100 });
  relay = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    announced.push({ headers: req.headers, body: JSON.parse(body) });
    res.writeHead(answer, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', () => resolve()));
  const address = relay.address();
  relayUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  relay?.closeAllConnections();
  relay?.close();
  await sb?.close();
});

describe('announcing to a relay', () => {
  it('announces each generate and conversion, authorized by HMAC-SHA256 of the key (never the key)', async () => {
    announced.length = 0;
    const client = createClient({ apiKey: key, baseUrl: sb.baseUrl, relayUrl });
    const made = await client.videos.generate({ video_setting_id: text, text: 'Announced' });
    const source = FIXTURES.acme.videos.convertible;
    const converted = await client.convert(source, { language: 'de' });
    expect(announced.map((a) => a.body)).toEqual([
      { video_id: made.video_id },
      { video_id: converted.video_id, source_video_id: source },
    ]);
    const token = createHmac('sha256', key).update('videogen-relay-announce').digest('hex');
    expect(await relayToken(key)).toBe(token);
    for (const a of announced) {
      expect(a.headers.authorization).toBe(`Bearer ${token}`);
      expect(JSON.stringify(a)).not.toContain(key);
    }
    // A video made some other way, announced by hand.
    expect(await client.announce(made.video_id)).toBe(true);
    expect(announced.at(-1)?.body).toEqual({ video_id: made.video_id });
  });

  it('never fails the create: a refusing relay (tried twice) or none at all costs one warning', async () => {
    const lines: string[] = [];
    const logger = (line: string) => {
      const record = JSON.parse(line) as { level: string; msg: string };
      if (record.level === 'warn') lines.push(record.msg);
    };
    announced.length = 0;
    answer = 503;
    const refused = createClient({ apiKey: key, baseUrl: sb.baseUrl, relayUrl, logger, logLevel: 'warn' });
    const made = await refused.videos.generate({ video_setting_id: text, text: 'Refused announce' });
    expect(made.video_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(announced).toHaveLength(2);
    answer = 202;
    const away = createClient({
      apiKey: key,
      baseUrl: sb.baseUrl,
      relayUrl: 'http://127.0.0.1:9',
      logger,
      logLevel: 'warn',
    });
    expect((await away.videos.generate({ video_setting_id: text, text: 'No relay' })).video_id).toBeTruthy();
    expect(await away.announce(made.video_id)).toBe(false);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/relay announce of .* answered 503; the relay will find the video by listing/);
    expect(lines[1]).toMatch(/relay announce of .* failed: .*; the relay will find the video by listing/);
  });

  it('reads VIDEO_RELAY_URL, refuses a URL that cannot be one, and announces to nobody without one', async () => {
    process.env[RELAY_URL_VARIABLE] = relayUrl;
    try {
      announced.length = 0;
      await createClient({ apiKey: key, baseUrl: sb.baseUrl }).announce(FIXTURES.acme.videos.convertible);
      expect(announced).toHaveLength(1);
    } finally {
      delete process.env[RELAY_URL_VARIABLE];
    }
    for (const bad of ['relay:8787', 'ftp://relay', 'http://user:pw@relay', 'http://relay/?token=x'])
      expect(() => createClient({ apiKey: key, baseUrl: sb.baseUrl, relayUrl: bad })).toThrow(TypeError);
    const none = createClient({ apiKey: key, baseUrl: sb.baseUrl });
    await expect(none.announce(FIXTURES.acme.videos.convertible)).rejects.toThrow(/No relay to announce to/);
    await expect(none.announce('not-a-uuid')).rejects.toThrow(/video_id/);
  });
});
