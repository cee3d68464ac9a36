// Test helpers: real sandboxes on ephemeral ports, real HTTP requests over loopback.
import { afterAll, expect } from 'vitest';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../src/index.js';

export const T0 = Date.UTC(2026, 10, 1, 12, 0, 0);

/**
 * How long a test waits for what it expects a server or a process to do: a deadline for the event,
 * never a measure of speed (the machines that run the tests are shared and often loaded). Below the
 * test timeout (vitest.config.ts), so that a miss fails with the test's own message.
 */
export const WAIT_MS = 60_000;

/** A hand-driven clock: time moves only when a test says so. */
export function manualClock(start = T0) {
  let t = start;
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
    set: (ms: number) => {
      t = ms;
    },
  };
}

/** Start a sandbox for this test file; closes it and asserts zero response violations at the end. */
export async function sandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const sb = await startSandbox({ port: 0, validateResponses: true, ...options });
  afterAll(async () => {
    await sb.close();
    expect(sb.violations).toEqual([]);
  });
  return sb;
}

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export async function call(
  sb: RunningSandbox,
  method: string,
  path: string,
  opts: {
    key?: string;
    json?: unknown;
    body?: string | Uint8Array | FormData;
    headers?: Record<string, string>;
    form?: FormData;
  } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  let body = opts.body;
  if (opts.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(opts.json);
  }
  if (opts.form) body = opts.form;
  const url = path.startsWith('http')
    ? path
    : path.startsWith('/v1') || path.startsWith('/d')
      ? sb.origin + path
      : sb.baseUrl + path;
  const res = await fetch(url, { method, headers, body, redirect: 'error' });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** Build the generation form: strings are fields; [name, bytes|size] pairs are files. */
export function form(
  fields: Record<string, string>,
  files: Array<[field: string, filename: string, content?: number | string]> = [],
): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  for (const [field, filename, content = 'x'] of files) {
    const blob = typeof content === 'number' ? new Blob([new Uint8Array(content)]) : new Blob([content]);
    fd.append(field, blob, filename);
  }
  return fd;
}

export function expectError(a: Answer, status: number, code: string) {
  expect({ status: a.status, code: a.body?.error_code }).toEqual({ status, code });
  expect(typeof a.body.error).toBe('string');
  expect(a.body.error.length).toBeGreaterThan(0);
}
