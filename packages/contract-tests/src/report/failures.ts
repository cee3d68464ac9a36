// A failed check leaves a bundle a developer can replay (`videogen-contract --replay FILE`): the
// exchanges its judgement rests on (request and response, key redacted), one curl line per request,
// what was expected.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { curlLine } from '../engine/recorded-request.ts';
import { redact } from '../engine/redact.ts';
import type { Exchange, Problem, RecordedRequest } from '../shapes.ts';

export interface BundledExchange {
  request: RecordedRequest;
  /** How the request authenticated, e.g. `key of main` (the account whose key replays it). */
  auth: string;
  operationId?: string;
  curl: string;
  response: { status: number; contentType: string; headers: Record<string, string>; body: string };
  /** What the response checks found in this answer. */
  problems: Problem[];
}

export interface FailureBundle {
  format: 'videogen-contract-failure/1';
  check: string;
  /** The failure message: what the check expected and what it got. */
  expected: string;
  target: { kind: string; baseUrl: string };
  recordedAt: string;
  exchanges: BundledExchange[];
}

/** A file name for a check id (`getVideo › status_view_running` → `getVideo.status_view_running`). */
export function bundleName(checkId: string): string {
  return checkId.replace(/\s*›\s*/g, '.').replace(/[^A-Za-z0-9._-]+/g, '_');
}

export function makeBundle(
  checkId: string,
  message: string,
  target: { kind: string; baseUrl: string },
  exchanges: Exchange[],
): FailureBundle {
  return {
    format: 'videogen-contract-failure/1',
    check: checkId,
    expected: redact(message),
    target: { kind: target.kind, baseUrl: target.baseUrl },
    recordedAt: new Date().toISOString(),
    exchanges: exchanges.flatMap((e) => {
      const { request } = e;
      if (!request) return [];
      const headers: Record<string, string> = {};
      e.headers.forEach((v, k) => {
        headers[k] = redact(v);
      });
      return [
        {
          request,
          auth: e.auth,
          operationId: e.operationId,
          curl: curlLine(target.baseUrl, request),
          response: { status: e.status, contentType: e.contentType, headers, body: e.text },
          problems: e.problems,
        },
      ];
    }),
  };
}

/** Writes the bundle to `<dir>/<check><suffix>.json` (a drift's: `.drift`) and returns its path. */
export function writeBundle(dir: string, bundle: FailureBundle, suffix = ''): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${bundleName(bundle.check)}${suffix}.json`);
  writeFileSync(file, redact(JSON.stringify(bundle, null, 2)) + '\n');
  return file;
}
