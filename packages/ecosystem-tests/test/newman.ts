// Portman's default contract tests, as its users make them: the bundled document converted into a
// Postman collection (status 2xx, content type, JSON body, schema for every operation's success response,
// with path ids and bodies from the document's examples), then run by newman.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { specPath } from '@videogen/openapi';
import { TOOLS } from '../scripts/tools.mjs';
import { run } from './run.js';

/** Writes Portman's collection for `baseUrl` into a new directory (Portman keeps its own files in cwd). */
export async function portmanCollection(baseUrl: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'vg-portman-'));
  const out = await run(
    process.execPath,
    [TOOLS.portman.bin, '--local', specPath, '--baseUrl', baseUrl, '--output', 'collection.json'],
    { cwd: dir },
  );
  if (out.code !== 0) throw new Error(`portman exited ${out.code}: ${out.stdout}${out.stderr}`);
  return join(dir, 'collection.json');
}

export interface NewmanRun {
  code: number;
  assertions: { total: number; failed: number };
  /** Each request's name and the status it was answered. */
  responses: Array<{ name: string; code: number }>;
  failures: string[];
}

/** Runs the collection with newman (its JSON report, nothing printed); the key is an environment variable. */
export async function runNewman(
  collection: string,
  opts: { apiKey: string; delayRequestMs?: number; baseUrl?: string },
): Promise<NewmanRun> {
  const dir = join(collection, '..');
  const args = [
    TOOLS.newman.bin,
    'run',
    collection,
    '--env-var',
    `bearerToken=${opts.apiKey}`,
    '--reporters',
    'json',
    '--reporter-json-export',
    'newman.json',
  ];
  if (opts.delayRequestMs) args.push('--delay-request', String(Math.ceil(opts.delayRequestMs)));
  if (opts.baseUrl) args.push('--env-var', `baseUrl=${opts.baseUrl}`);
  const out = await run(process.execPath, args, { cwd: dir });
  const report = JSON.parse(readFileSync(join(dir, 'newman.json'), 'utf8')).run;
  return {
    code: out.code,
    assertions: { total: report.stats.assertions.total, failed: report.stats.assertions.failed },
    responses: report.executions.map((e: any) => ({ name: e.item.name, code: e.response?.code })),
    failures: report.failures.map((f: any) => `${f.source?.name}: ${f.error?.message}`),
  };
}
