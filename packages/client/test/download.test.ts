// Downloads never go through the API's error rules: the storage host is another
// origin (an object store, say), whose refusals are not the API's. An expired URL is read fresh once,
// then a DownloadError names the host, the status and the first bytes of the answer, never the key.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { createClient, DownloadError, AuthenticationError } from '../src/index.js';
import { drop, faultServer, json, mp4Bytes, video, VIDEO_ID, type Step } from './helpers.js';

const KEY = 'sk-live-DOWNLOAD-SECRET-42';
const EXPIRED =
  '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Request has expired</Message><Expires>2026-01-01T00:00:00Z</Expires></Error>';
const xml403: Step = (_req, res) => res.writeHead(403, { 'content-type': 'application/xml' }).end(EXPIRED);
const notFound: Step = (_req, res) =>
  res.writeHead(404, { 'content-type': 'application/xml' }).end('<Error><Code>NoSuchKey</Code></Error>');
const mp4: Step = (_req, res) =>
  res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': '16' }).end(mp4Bytes(16));

let close: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(close.map((c) => c()));
  close = [];
});

/** An API that answers every status read with a completed video whose URL is on `storage`, signed afresh each time. */
async function setup(storageSteps: Step[]) {
  const storage = await faultServer(storageSteps);
  let n = 0;
  const api = await faultServer(() =>
    json(200, video('completed', { download_url: `${storage.origin}/bucket/v.mp4?X-Amz-Signature=sig${++n}` })),
  );
  close.push(storage.close, api.close);
  const client = createClient({ apiKey: KEY, baseUrl: api.baseUrl, pacing: false });
  return { storage, api, client, dir: mkdtempSync('/tmp/vg-dl-') };
}

describe('download from a storage host on another origin', () => {
  it('an expired URL (403 XML) is read fresh once, and the second URL is used', async () => {
    const { storage, api, client, dir } = await setup([xml403, mp4]);
    const { data, response } = await client.download(VIDEO_ID, `${dir}/v.mp4`).withResponse();
    expect(data).toEqual({ path: `${dir}/v.mp4`, bytes: 16 });
    expect(response.headers.get('content-type')).toBe('video/mp4');
    expect(api.seen).toHaveLength(2); // two status reads
    expect(storage.seen.map((s) => s.url)).toEqual([
      '/bucket/v.mp4?X-Amz-Signature=sig1',
      '/bucket/v.mp4?X-Amz-Signature=sig2',
    ]);
    expect(storage.seen.every((s) => s.headers.authorization === undefined)).toBe(true);
  });

  it('403 XML twice: a DownloadError with status, host and the first bytes, not an AuthenticationError, not blaming the key', async () => {
    const { storage, api, client, dir } = await setup([xml403]);
    const e = await client.download(VIDEO_ID, `${dir}/v.mp4`).catch((x) => x);
    expect(e).toBeInstanceOf(DownloadError);
    expect(e).not.toBeInstanceOf(AuthenticationError);
    expect(e).toMatchObject({ kind: 'download', status: 403, host: new URL(storage.origin).host, retryable: false });
    expect(e.body).toMatch(/^<\?xml.*AccessDenied.*Request has expired/s);
    expect(e.message).toMatch(/from 127\.0\.0\.1:\d+ failed: 403: <\?xml/);
    expect(e.message + e.stack + JSON.stringify(e)).not.toMatch(/key|KEY|DOWNLOAD-SECRET|Signature=sig/);
    expect(api.seen).toHaveLength(2);
    expect(storage.seen).toHaveLength(2);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("404: read fresh once, then a DownloadError 404 (not the API's NotFoundError)", async () => {
    const { storage, client, dir } = await setup([notFound]);
    const e = await client.download(VIDEO_ID, `${dir}/v.mp4`).catch((x) => x);
    expect(e).toBeInstanceOf(DownloadError);
    expect(e).toMatchObject({ status: 404, body: '<Error><Code>NoSuchKey</Code></Error>' });
    expect(storage.seen).toHaveLength(2);
  });

  it('a dropped connection: read fresh once, then a DownloadError without a status', async () => {
    const { storage, client, dir } = await setup([drop]);
    const e = await client.download(VIDEO_ID, `${dir}/v.mp4`).catch((x) => x);
    expect(e).toBeInstanceOf(DownloadError);
    expect(e.status).toBeUndefined();
    expect(e).toMatchObject({ host: new URL(storage.origin).host, retryable: true });
    expect(e.message).toMatch(/no answer/);
    expect(storage.seen).toHaveLength(2);
  });

  it('a connection dropped in the middle of the video: read fresh once, no partial file', async () => {
    const half: Step = (req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': '1000' });
      res.write(mp4Bytes(100));
      setTimeout(() => req.socket.destroy(), 20);
    };
    const { storage, client, dir } = await setup([half]);
    const e = await client.download(VIDEO_ID, `${dir}/v.mp4`).catch((x) => x);
    expect(e).toBeInstanceOf(DownloadError);
    expect(e.message).toMatch(/dropped after 100 of 1000 bytes/);
    expect(storage.seen).toHaveLength(2);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('what the download host answers must be a video', () => {
  const answer =
    (type: string | undefined, body: Buffer | string, headers: Record<string, string> = {}): Step =>
    (_req, res) =>
      res.writeHead(200, { ...(type && { 'content-type': type }), ...headers }).end(body);

  it('a 200 whose type is not a video (JSON, an HTML page, XML): a DownloadError NOT_A_VIDEO, read once, no file', async () => {
    for (const [type, body] of [
      ['application/json', '{"error":"SignatureDoesNotMatch","message":"expired"}'],
      ['text/html; charset=utf-8', '<!doctype html><title>Sign in to the Wi-Fi</title>'],
      ['application/problem+json', '{"title":"gone"}'],
      ['text/plain', ''],
    ] as const) {
      const { storage, api, client, dir } = await setup([answer(type, body)]);
      const e = await client.download(VIDEO_ID, `${dir}/v.mp4`).catch((x) => x);
      expect({ type, name: e?.name }).toEqual({ type, name: 'DownloadError' });
      expect(e).toMatchObject({ kind: 'download', error_code: 'NOT_A_VIDEO', status: 200, retryable: false });
      expect(e.message).toContain(`answered 200 ${type.split(';')[0]}, not a video`);
      if (body) expect(e.body).toBe(body);
      // Not read afresh: another address of the same host answers the same.
      expect({ api: api.seen.length, storage: storage.seen.length }).toEqual({ api: 1, storage: 1 });
      expect(readdirSync(dir)).toEqual([]);
    }
  });

  it('a body without a video signature (JSON sent as octet-stream or video/mp4, an empty body): NOT_A_VIDEO, no file', async () => {
    for (const [type, body] of [
      ['application/octet-stream', '{"error":"AccessDenied"}'],
      ['video/mp4', '<html>gateway</html>'],
      ['video/mp4', ''],
      [undefined, Buffer.alloc(4096)],
    ] as const) {
      const { client, dir } = await setup([answer(type, body)]);
      const e = await client.download(VIDEO_ID, `${dir}/v.mp4`).catch((x) => x);
      expect({ type, name: e?.name, code: e?.error_code }).toEqual({
        type,
        name: 'DownloadError',
        code: 'NOT_A_VIDEO',
      });
      expect(e.message).toMatch(/no video container \(no MP4 or WebM signature\)/);
      expect(readdirSync(dir)).toEqual([]);
    }
  });

  it('a real video is saved whatever the host calls it: video/*, an octet-stream, no type; MP4 or WebM; gzip-encoded', async () => {
    const sample = readFileSync(new URL('../../sandbox/assets/sample.mp4', import.meta.url));
    const webm = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(60)]);
    for (const [type, body, headers] of [
      ['video/mp4', sample, {}],
      ['binary/octet-stream', sample, {}], // what S3 stores without a type
      [undefined, sample, {}],
      ['video/webm', webm, {}],
      ['video/mp4', gzipSync(sample), { 'content-encoding': 'gzip' }], // Content-Length is the encoded size
    ] as const) {
      const { client, dir } = await setup([answer(type, body, headers)]);
      const { bytes } = await client.download(VIDEO_ID, `${dir}/v.mp4`);
      const expected = type === 'video/webm' ? webm : sample;
      expect({ type, bytes }).toEqual({ type, bytes: expected.length });
      expect(readFileSync(`${dir}/v.mp4`).equals(expected)).toBe(true);
      expect(readdirSync(dir)).toEqual(['v.mp4']);
    }
  });
});

describe('an aborted download (the CLI aborts one on Ctrl-C)', () => {
  it('stops a host that sends nothing more, rejects with the reason, and leaves no file', async () => {
    const holds: Array<() => void> = [];
    const drip: Step = (_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': '50000000' });
      res.write(mp4Bytes(1024));
      holds.push(() => res.destroy());
    };
    const { client, dir } = await setup([drip]);
    try {
      const ac = new AbortController();
      const started = client.download(VIDEO_ID, `${dir}/v.mp4`, {
        signal: ac.signal,
        onProgress: ({ loaded }) => loaded >= 1024 && ac.abort(new Error('stopped by the user')),
      });
      await expect(started).rejects.toThrow('stopped by the user');
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      for (const h of holds) h();
    }
  });
});
