// Store growth: the cost of a create (durable, with a data dir) with ~10 and with 100,000 stored videos
// of the same account, as a ratio; a GET /videos/ page of 50 videos whose prompts are at the text limit;
// the deepest page of 100,000; a read during a burst of writes; the sandbox's RSS. Same run, same
// machine, figures printed, never asserted. Run alone: node bench/store-growth.mjs (STORE_VIDEOS=N).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const rss = (pid) => {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k) => Number(new RegExp(`${k}:\\s+(\\d+) kB`).exec(s)?.[1] ?? 0) / 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM'), anon: kb('RssAnon'), file: kb('RssFile') };
};

function startSandboxChild(options) {
  const child = spawn(process.execPath, [here('./sandbox-child.mjs'), JSON.stringify(options)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (d) => {
      out += d;
      const m = /ORIGIN (\S+)/.exec(out);
      if (m) resolve({ child, origin: m[1] });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`sandbox exited ${code}: ${out}`)));
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function request(origin, method, path, key, body, contentType) {
  return new Promise((resolve, reject) => {
    const t = process.hrtime.bigint();
    const req = http.request(
      `${origin}${path}`,
      {
        method,
        agent,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body ? { 'content-type': contentType, 'content-length': body.length } : {}),
        },
      },
      (res) => {
        let bytes = 0;
        const chunks = [];
        res.on('data', (d) => ((bytes += d.length), chunks.push(d)));
        res.on('end', () =>
          resolve({
            status: res.statusCode,
            ms: Number(process.hrtime.bigint() - t) / 1e6,
            bytes,
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function generateBody(setting, text) {
  const b = 'store-bench-boundary';
  return {
    body: Buffer.from(
      `--${b}\r\nContent-Disposition: form-data; name="video_setting_id"\r\n\r\n${setting}\r\n--${b}\r\nContent-Disposition: form-data; name="text"\r\n\r\n${text}\r\n--${b}--\r\n`,
    ),
    type: `multipart/form-data; boundary=${b}`,
  };
}

const stats = (ms) => {
  const s = [...ms].sort((a, b) => a - b);
  return {
    mean: s.reduce((a, b) => a + b, 0) / s.length,
    p50: s[Math.floor(s.length / 2)],
    p99: s[Math.min(s.length - 1, Math.floor(s.length * 0.99))],
  };
};

export async function storeGrowthBench({ videos = Number(process.env.STORE_VIDEOS ?? 100_000), samples = 300 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-store-bench-'));
  const accounts = [
    { name: 'bulk', plan: 'business', credits: 10_000_000, keys: ['bench-bulk'] },
    { name: 'big', plan: 'business', credits: 1000, keys: ['bench-big'] },
    { name: 'warm', plan: 'business', credits: 1000, keys: ['bench-warm'] },
  ];
  // A huge time scale: every generation is over at once, so the concurrency limit never answers 503.
  const sb = await startSandboxChild({
    dataDir: dir,
    rateLimits: false,
    validateResponses: false,
    timeScale: 1e9,
    accounts,
  });
  try {
    const settingOf = async (key) =>
      JSON.parse((await request(sb.origin, 'GET', '/v1/video-settings/', key)).body).results.find(
        (s) => s.request_fields.join() === 'text',
      ).video_setting_id;
    const bulk = await settingOf('bench-bulk');
    const warm = await settingOf('bench-warm');
    const create = async (text, key = 'bench-bulk', setting = bulk) => {
      const { body, type } = generateBody(setting, text);
      const r = await request(sb.origin, 'POST', '/v1/videos/generate/', key, body, type);
      if (r.status !== 200) throw new Error(`create answered ${r.status}: ${r.body}`);
      return r.ms;
    };
    const sequential = async (n) => {
      const ms = [];
      for (let i = 0; i < n; i++) ms.push(await create(`sample ${i}`));
      return stats(ms);
    };
    for (let i = 0; i < 100; i++) await create('warm-up', 'bench-warm', warm); // another account: bulk still has its 7 seeds
    const small = await sequential(samples);

    const t0 = Date.now();
    let made = 7 + samples;
    const filler = async () => {
      while (made < videos) {
        made++;
        await create(`filler ${made} ${'x'.repeat(100)}`);
      }
    };
    await Promise.all(Array.from({ length: 32 }, filler));
    const fillSeconds = (Date.now() - t0) / 1000;
    const large = await sequential(samples);

    // a read while 32 clients write
    let writing = true;
    const writers = Array.from({ length: 32 }, async () => {
      while (writing) await create('burst');
    });
    const readsDuringWrites = [];
    for (let i = 0; i < 200; i++)
      readsDuringWrites.push(
        (await request(sb.origin, 'GET', '/v1/videos/71de0a00-0000-4000-8000-000000000001/', 'sandbox-key-acme')).ms,
      );
    writing = false;
    await Promise.all(writers);
    const quietReads = [];
    for (let i = 0; i < 200; i++)
      quietReads.push(
        (await request(sb.origin, 'GET', '/v1/videos/71de0a00-0000-4000-8000-000000000001/', 'sandbox-key-acme')).ms,
      );

    const first = await request(sb.origin, 'GET', '/v1/videos/', 'bench-bulk');
    const total = JSON.parse(first.body).total_count;
    const deepest = await request(sb.origin, 'GET', `/v1/videos/?page=${Math.ceil(total / 50)}`, 'bench-bulk');

    // 50 videos whose prompts are at the text limit (100,000 bytes): one full page
    const big = await settingOf('bench-big');
    const prompt = 'p'.repeat(100_000);
    for (let i = 0; i < 50; i++) {
      const { body, type } = generateBody(big, prompt);
      await request(sb.origin, 'POST', '/v1/videos/generate/', 'bench-big', body, type);
    }
    const bigPages = [];
    let bigBytes = 0;
    for (let i = 0; i < 20; i++) {
      const r = await request(sb.origin, 'GET', '/v1/videos/', 'bench-big');
      bigPages.push(r.ms);
      bigBytes = r.bytes;
    }
    const mem = rss(sb.child.pid);

    const f = (n) => n.toFixed(2);
    const s = (x) => `mean ${f(x.mean)} ms, p50 ${f(x.p50)} ms, p99 ${f(x.p99)} ms`;
    console.log(`\nstore growth (LMDB in a data dir; every create synced to disk before its 200):`);
    console.log(`  ${samples} sequential creates with 7 to ${7 + samples} stored videos: ${s(small)}`);
    console.log(`  ${samples} sequential creates with ${total} stored videos: ${s(large)}`);
    console.log(
      `  create cost ratio (${total} vs 7 to ${7 + samples} stored), by mean: ${(large.mean / small.mean).toFixed(2)}x, by p50: ${(large.p50 / small.p50).toFixed(2)}x   (filling took ${fillSeconds.toFixed(1)} s, ${((videos - 7 - samples) / fillSeconds).toFixed(0)} creates/s with 32 clients)`,
    );
    console.log(
      `  GET /videos/{id}/ while 32 clients create: ${s(stats(readsDuringWrites))}; with no writes: ${s(stats(quietReads))}`,
    );
    console.log(
      `  GET /videos/ first page of ${total}: ${f(first.ms)} ms; deepest page (${Math.ceil(total / 50)}): ${f(deepest.ms)} ms`,
    );
    console.log(
      `  GET /videos/ page of 50 prompts of 100,000 bytes: ${(bigBytes / 1e6).toFixed(1)} MB, ${s(stats(bigPages))}`,
    );
    console.log(
      `  sandbox RSS now ${mem.rss.toFixed(0)} MB (heap and other private memory ${mem.anon.toFixed(0)} MB, pages of the mapped database file ${mem.file.toFixed(0)} MB, which the kernel can drop), peak (VmHWM) ${mem.hwm.toFixed(0)} MB`,
    );
    return { small, large, total };
  } finally {
    await new Promise((r) => (sb.child.exitCode !== null ? r() : (sb.child.once('exit', r), sb.child.kill('SIGTERM'))));
    agent.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  storeGrowthBench().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
