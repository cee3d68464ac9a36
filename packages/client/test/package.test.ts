// The published shape: exports map, types, one runtime dependency. The document's types it is built
// on are generated in @videogen/openapi (openapi/test/types.test.ts holds them in sync with the spec).
// publint and attw run on the packed tarball with the other published packages (packages/release).
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));

describe('package', () => {
  it('has three runtime dependencies, kept external; undici optional, never imported statically', () => {
    // openapi-fetch (client.api), @opentelemetry/api (traces: the API only, no SDK), standardwebhooks (verifyWebhook).
    expect(Object.keys(pkg.dependencies)).toEqual(['@opentelemetry/api', 'openapi-fetch', 'standardwebhooks']);
    // undici is for proxies on Node only (README: Proxies): optional, so `npm install --omit=optional` drops it.
    expect(Object.keys(pkg.optionalDependencies)).toEqual(['undici']);
    const dist = readdirSync(`${root}dist`)
      .filter((f) => f.endsWith('.js'))
      .map((f) => readFileSync(`${root}dist/${f}`, 'utf8'))
      .join('\n');
    expect(dist).toMatch(/from 'openapi-fetch'/);
    const imports = new Set([...dist.matchAll(/^import .* from '([^']+)'/gm)].map((m) => m[1]));
    expect([...imports].filter((i) => !i.startsWith('node:') && !i.startsWith('./')).sort()).toEqual([
      '@opentelemetry/api',
      'openapi-fetch',
      'standardwebhooks',
    ]);
    expect(dist).not.toMatch(/import\(\s*['"]undici/);
    // It is loaded in one place: the createRequire call of proxy.ts, which no bundler follows.
    expect(dist).toMatch(/createRequire\(import\.meta\.url\)\("undici"\)/);
    expect(pkg.sideEffects).toBe(false);
    expect(pkg.engines.node).toBe('^20.19.0 || ^22.0.0 || ^24.0.0'); // the Node majors CI proves (README: Runtimes)
  });

  it('is tree-shakeable: one export costs only itself', async () => {
    const { build } = await import('esbuild');
    const bundle = async (name: string) => {
      const r = await build({
        stdin: { contents: `import { ${name} } from './dist/index.js'; globalThis.k = ${name};`, resolveDir: root },
        bundle: true,
        minify: true,
        format: 'esm',
        platform: 'node',
        write: false,
        external: ['openapi-fetch', '@opentelemetry/api', 'standardwebhooks'],
      });
      // The dependencies stay import lines here (external): their cost is theirs, measured by the bench.
      return r.outputFiles[0].text.replace(/import\s*(?:[\w$]+\s*,?\s*)?(?:\{[^}]*\})?\s*from\s*"[^".][^"]*";/g, '');
    };
    expect((await bundle('LANGUAGES')).length).toBeLessThan(400);
    // VideoApiError.generate (openai-node's shape) names every subclass: any error export brings the
    // error classes and the rules' classifier (about 1 KB gzipped), and nothing else.
    const guard = await bundle('isVideoApiError');
    expect(guard.length).toBeLessThan(3500);
    expect(guard).not.toMatch(/UPLOAD_LIMITS|pdf_file|ratelimit|Pacer|undici|createRequire/);
  });

  it('bundles for a browser or a Worker without undici (esbuild, workerd/browser conditions)', async () => {
    const { build } = await import('esbuild');
    for (const conditions of [['workerd', 'worker', 'browser'], ['browser']]) {
      const r = await build({
        stdin: {
          contents: `import { createClient } from './dist/index.js'; globalThis.k = createClient;`,
          resolveDir: root,
        },
        bundle: true,
        minify: true,
        format: 'esm',
        platform: 'neutral',
        conditions,
        mainFields: ['module', 'main'],
        write: false,
        metafile: true,
      });
      expect(Object.keys(r.metafile.inputs).filter((f) => f.includes('undici'))).toEqual([]);
    }
  });

  it('works from dist as a consumer imports it', async () => {
    const m = await import('@videogen/client');
    expect(typeof m.createClient).toBe('function');
    expect(m.LANGUAGES).toHaveLength(34);
    expect(m.ASPECT_RATIOS).toHaveLength(7);
  });
});
