// The session of issue 38's item 6, run over each transport by the official SDK's client: list the tools,
// generate from a text and from a PDF, a third generation while those two run, wait with progress to
// `completed`, read the download resource, convert, and two refused conversions. Each step is a test;
// they run in order on one connection and one sandbox account.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { FIXTURES, SANDBOX_KEYS } from '@videogen/sandbox';
import { afterAll, expect, it } from 'vitest';
import { GENERATION_SECONDS, textOf, type ToolText, Transcript } from './harness.js';

type Sandbox = Awaited<ReturnType<typeof import('./harness.js').startTestSandbox>>;

export const TOOL_NAMES = [
  'list_video_settings',
  'generate_video',
  'wait_for_video',
  'download_video',
  'get_conversion_options',
  'convert_video',
  'list_videos',
];

export function sessionSteps(title: string, transcriptFile: string, env: () => { client: Client; sb: Sandbox }): void {
  const acme = FIXTURES.acme;
  const t = new Transcript(title);
  let textVideo = '';
  let pdfVideo = '';
  let videosBefore = 0;
  afterAll(() => {
    t.write(transcriptFile);
    // Nothing a model read names the key.
    expect(t.lines.join('\n')).not.toContain(SANDBOX_KEYS.acme);
  });

  it('lists the seven tools', async () => {
    const { tools } = await env().client.listTools();
    expect(tools.map((x) => x.name)).toEqual(TOOL_NAMES);
    t.note(`tools/list: ${tools.map((x) => x.name).join(', ')}`);
  });

  it('lists the settings with the input mode their request_fields make', async () => {
    const r = await t.call(env().client, 'list_video_settings', {});
    expect(r.isError, textOf(r)).toBeFalsy();
    const settings = r.structuredContent?.settings as Array<{ video_setting_id: string; mode?: string }>;
    expect(settings.find((s) => s.video_setting_id === acme.settings.text)?.mode).toBe('question/instruction');
    expect(settings.find((s) => s.video_setting_id === acme.settings.textPdf)?.mode).toBe(
      'from-documents with instruction',
    );
    expect(textOf(r)).toContain(`${acme.settings.pdf} "Slides from a PDF": pdf_file [from-documents]`);
  });

  it('generates from a text: the video id at once, running', async () => {
    const { client } = env();
    videosBefore = (await videoCount(client)) ?? 0;
    const r = await t.call(client, 'generate_video', {
      video_setting_id: acme.settings.text,
      text: 'Explain tides to a ten-year-old',
    });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ status: 'running', mode: 'question/instruction' });
    textVideo = r.structuredContent?.video_id as string;
    expect(textOf(r)).toContain(`wait_for_video with video_id ${textVideo}`);
  });

  it('generates from a PDF given by its local path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-pdf-'));
    const pdf = join(dir, 'quarterly-report.pdf');
    writeFileSync(pdf, Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(50_000, 32)]));
    const r = await t.call(env().client, 'generate_video', { video_setting_id: acme.settings.pdf, pdf_file: pdf });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ status: 'running', mode: 'from-documents' });
    pdfVideo = r.structuredContent?.video_id as string;
  });

  it('refuses a third generation while two run, naming them, and sends nothing (no 503)', async () => {
    const { client, sb } = env();
    const r = await t.call(client, 'generate_video', { video_setting_id: acme.settings.text, text: 'A third one' });
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toMatchObject({ error_code: 'SLOTS_BUSY', max_running: 2 });
    const running = (r.structuredContent!.running as Array<{ video_id: string; status?: string }>).map(
      (v) => v.video_id,
    );
    expect(running.sort()).toEqual([textVideo, pdfVideo].sort());
    expect(textOf(r)).toContain(`wait_for_video with video_id ${textVideo}`);
    expect(await videoCount(client)).toBe(videosBefore + 2);
    expect(sb.stats('acme')['503'] ?? 0).toBe(0);
  });

  it('waits with progress notifications until the video is completed', async () => {
    const { client, sb } = env();
    let advanced = false;
    const r = await t.call(
      client,
      'wait_for_video',
      { video_id: textVideo },
      {
        // The first notification proves progress flows; then the account's clock ends both generations.
        onprogress: () => {
          if (advanced) return;
          advanced = true;
          sb.clock.advance(GENERATION_SECONDS, 'acme');
        },
      },
    );
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(r.progress.length).toBeGreaterThanOrEqual(1);
    expect(r.progress[0]).toMatchObject({ total: 50 });
    expect(r.progress[0].message).toContain(`Video ${textVideo} is running`);
    expect(r.structuredContent).toMatchObject({ video_id: textVideo, status: 'completed' });
    const url = r.structuredContent?.download_url as string;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/downloads\//);
    // The sandbox's address states its expiry (epoch ms): shown as it states it.
    const expires = Number(new URL(url).searchParams.get('expires'));
    expect(r.structuredContent?.expires_at).toBe(new Date(expires).toISOString());
    expect(r.content.find((c) => c.type === 'resource_link')?.uri).toBe(`videogen://videos/${textVideo}/download`);
  });

  it('reads the download address as a resource, with its expiry', async () => {
    const res = await env().client.readResource({ uri: `videogen://videos/${textVideo}/download` });
    const view = JSON.parse(String((res.contents[0] as { text: string }).text));
    expect(view).toMatchObject({ video_id: textVideo, status: 'completed' });
    expect(view.expires_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(view.note).toContain('expires at');
    t.note(
      `resources/read videogen://videos/${textVideo}/download → status ${view.status}, expires_at ${view.expires_at}`,
    );
  });

  it('saves the completed video as an MP4, whole, and replaces no file unasked', async () => {
    const { client } = env();
    const dir = mkdtempSync(join(tmpdir(), 'mcp-download-'));
    const r = await t.call(client, 'download_video', { video_id: textVideo, path: dir });
    expect(r.isError, textOf(r)).toBeFalsy();
    const file = join(dir, `${textVideo}.mp4`);
    expect(r.structuredContent).toMatchObject({ path: file });
    const bytes = readFileSync(file);
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(r.structuredContent?.bytes).toBe(bytes.length);
    const again = await t.call(client, 'download_video', { video_id: textVideo, path: file });
    expect(again.structuredContent).toMatchObject({ error_code: 'FILE_EXISTS' });
    const nowhere = await client.callTool({
      name: 'download_video',
      arguments: { video_id: textVideo, path: join(dir, 'no-such-dir', 'v.mp4') },
    });
    expect(nowhere.structuredContent).toMatchObject({ error_code: 'INVALID_PATH' });
  });

  it('lists the resources: recent videos, the settings, the schedule and the docs', async () => {
    const { client } = env();
    const uris = (await client.listResources()).resources.map((r) => r.uri);
    expect(uris).toEqual(
      expect.arrayContaining([
        `videogen://videos/${textVideo}/download`,
        `videogen://videos/${pdfVideo}/download`,
        'videogen://video-settings',
        'videogen://account/schedule',
        'videogen://docs/llms.txt',
        'videogen://docs/llms-full.txt',
      ]),
    );
    const llms = await client.readResource({ uri: 'videogen://docs/llms.txt' });
    expect(String((llms.contents[0] as { text: string }).text)).toMatch(/^# Video Generation Service API/);
    t.note(`resources/list: ${uris.length} resources; videogen://docs/llms.txt read`);
  });

  it('converts the completed video: a new video id at once', async () => {
    const { client, sb } = env();
    const r = await t.call(client, 'convert_video', { video_id: textVideo, language: 'fr', aspect_ratio: '9:16' });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ source_video_id: textVideo, status: 'running', language: 'fr' });
    const converted = r.structuredContent?.video_id as string;
    expect(converted).not.toBe(textVideo);
    sb.clock.advance(GENERATION_SECONDS, 'acme');
    const done = await t.call(client, 'wait_for_video', { video_id: converted, timeout_seconds: 0 });
    expect(done.structuredContent).toMatchObject({ status: 'completed' });
  });

  it("answers a refused conversion with the service's error code and the fix", async () => {
    const { client, sb } = env();
    const before = sb.stats('acme')['400'] ?? 0;
    const avatar = await t.call(client, 'convert_video', { video_id: acme.videos.realAvatar, language: 'en' });
    expect(avatar.isError).toBe(true);
    // Sent: the options say only "not convertible", so the service's answer gives the code.
    expect(avatar.structuredContent).toMatchObject({ error_code: 'UNSUPPORTED_HEAVY_AVATAR', status: 400 });
    expect(avatar.structuredContent?.fix).toMatch(/real avatar/);
    expect(sb.stats('acme')['400']).toBe(before + 1);
    expect(textOf(avatar)).not.toMatch(/\bat .*\.(js|ts):\d+/);

    const voices = await t.call(client, 'convert_video', { video_id: acme.videos.limitedVoices, language: 'fr' });
    expect(voices.structuredContent).toMatchObject({
      error_code: 'LANGUAGE_NOT_SUPPORTED_BY_VOICES',
      allowed: ['en', 'ko'],
      checked_before_sending: true,
    });
    expect(voices.structuredContent).not.toHaveProperty('status');
    expect(voices.structuredContent?.fix).toMatch(/available_languages/);
    // Refused before sending (the options showed it): no other 400 reached the service.
    expect(sb.stats('acme')['400']).toBe(before + 1);
  });

  it('met no 429 and no 503 on the whole session', () => {
    const stats = env().sb.stats('acme');
    expect(stats['429'] ?? 0).toBe(0);
    expect(stats['503'] ?? 0).toBe(0);
    t.note(`sandbox statuses for the account: ${JSON.stringify(stats)}`);
  });
}

/** The account's number of videos, through list_videos. */
async function videoCount(client: Client) {
  const r = (await client.callTool({ name: 'list_videos', arguments: {} })) as ToolText;
  return r.structuredContent?.total_count as number | undefined;
}
