// One upload in its own process, sampling RSS: `node upload-child.mjs client|naive FILE BASE_URL`.
import { readFile } from 'node:fs/promises';
import { createClient } from '@videogen/client';

const [mode, file, baseUrl] = process.argv.slice(2);
const SETTING = '5e77a000-0000-4000-8000-000000000002';
globalThis.gc?.();
await new Promise((r) => setTimeout(r, 200));
const idle = process.memoryUsage.rss();
let peak = idle;
const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10);
const t0 = performance.now();
if (mode === 'client') {
  const client = createClient({ apiKey: 'bench', baseUrl, plan: 'business', pacing: false });
  await client.videos.generate(
    { video_setting_id: SETTING, pdf_file: file },
    { setting: { request_fields: ['pdf_file'] } },
  );
} else {
  // The naive way: the whole file in memory, then a FormData.
  const form = new FormData();
  form.append('video_setting_id', SETTING);
  form.append('pdf_file', new Blob([await readFile(file)]), 'big.pdf');
  const res = await fetch(`${baseUrl}/videos/generate/`, {
    method: 'POST',
    body: form,
    headers: { authorization: 'Bearer bench' },
  });
  await res.json();
}
peak = Math.max(peak, process.memoryUsage.rss());
clearInterval(timer);
console.log(JSON.stringify({ idle, peak, ms: performance.now() - t0 }));
