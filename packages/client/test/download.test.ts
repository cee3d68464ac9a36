// Downloads never go through the API's error rules (issue 21 item 5): the storage host is another
// origin (an object store, say), whose refusals are not the API's. An expired URL is read fresh once,
// then a DownloadError names the host, the status and the first bytes of the answer, never the key.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync } from 'node:fs';
import { createClient, DownloadError, AuthenticationError } from '../src/index.js';
import { drop, faultServer, json, video, VIDEO_ID, type Step } from './helpers.js';

const KEY = 'sk-live-DOWNLOAD-SECRET-42';
const EXPIRED =
  '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Request has expired</Message><Expires>2026-01-01T00:00:00Z</Expires></Error>';
const xml403: Step = (_req, res) => res.writeHead(403, { 'content-type': 'application/xml' }).end(EXPIRED);
const notFound: Step = (_req, res) =>
  res.writeHead(404, { 'content-type': 'application/xml' }).end('<Error><Code>NoSuchKey</Code></Error>');
const mp4: Step = (_req, res) =>
  res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': '16' }).end(Buffer.alloc(16, 1));

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
      res.write(Buffer.alloc(100));
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
