// A generation form cut short (its closing boundary missing or cut mid-way) is a 400
// in the envelope: nothing created, no credit spent. Before, busboy's "Unexpected end of multipart data"
// was swallowed by @fastify/multipart 9 and a form ending with `--BOUNDARY` or `--BOUNDARY-` was accepted.
// The bodies are sent whole at the HTTP level (a correct Content-Length): only the form is cut.
import { describe, expect, it } from 'vitest';
import { FIXTURES, SANDBOX_KEYS } from '../src/index.js';
import { call, expectError, sandbox } from './helpers.js';

const BOUNDARY = 'videogen-test-7d5c0f';
const key = SANDBOX_KEYS.globex;

/** A complete form as a browser or curl writes it: one part per field, the closing boundary last. */
function formBody(parts: Array<{ name: string; value: string; filename?: string }>): string {
  const lines = parts.map(({ name, value, filename }) =>
    [
      `--${BOUNDARY}`,
      `Content-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}`,
      ...(filename ? ['Content-Type: application/pdf'] : []),
      '',
      value,
    ].join('\r\n'),
  );
  return `${lines.join('\r\n')}\r\n--${BOUNDARY}--\r\n`;
}

const textForm = formBody([
  { name: 'video_setting_id', value: FIXTURES.globex.settings.text },
  { name: 'text', value: 'Explain why a form must be complete' },
]);
const pdfForm = formBody([
  { name: 'video_setting_id', value: FIXTURES.globex.settings.pdf },
  { name: 'pdf_file', value: `%PDF-1.4\n${'x'.repeat(20_000)}\n%%EOF`, filename: 'deck.pdf' },
]);

/** The form cut `from` characters before the end of its closing boundary (`--BOUNDARY--`). */
const cut = (body: string, beforeCloseEnd: number) => body.slice(0, body.lastIndexOf('--\r\n') + 2 - beforeCloseEnd);

const post = (sb: Awaited<ReturnType<typeof sandbox>>, body: string) =>
  call(sb, 'POST', '/videos/generate/', {
    key,
    body,
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  });

describe('a multipart form that ends before its closing boundary', async () => {
  // globex with a single credit: a credit spent by a refused form would make the last valid form a 429.
  const sb = await sandbox({
    rateLimits: false,
    accounts: [{ name: 'globex', plan: 'personal', credits: 1, keys: [key] }],
  });
  const videoCount = async () => (await call(sb, 'GET', '/videos/', { key })).body.total_count as number;

  it('is a 400 INVALID_REQUEST that says so, wherever it is cut, for a text and for a file', async () => {
    const before = await videoCount();
    const cases: Array<[string, string]> = [];
    for (const [what, body] of [
      ['text form', textForm],
      ['pdf form', pdfForm],
    ] as const) {
      cases.push([`${what}, no closing dashes (--BOUNDARY)`, cut(body, 2)]);
      cases.push([`${what}, one closing dash (--BOUNDARY-)`, cut(body, 1)]);
      cases.push([`${what}, cut inside the closing boundary`, cut(body, 8)]);
      cases.push([`${what}, cut right after the last value`, cut(body, BOUNDARY.length + 6)]);
      cases.push([`${what}, cut inside the last value`, cut(body, BOUNDARY.length + 16)]);
    }
    for (const [what, body] of cases) {
      const a = await post(sb, body);
      expect({ what, status: a.status, code: a.body?.error_code }).toEqual({
        what,
        status: 400,
        code: 'INVALID_REQUEST',
      });
      expectError(a, 400, 'INVALID_REQUEST');
      expect(a.body.error).toMatch(/closing boundary|form was complete/);
    }
    expect(await videoCount()).toBe(before);
  });

  it('spent no credit: the complete form still creates its video with the one credit left', async () => {
    const before = await videoCount();
    const ok = await post(sb, textForm);
    expect(ok.status).toBe(200);
    expect(typeof ok.body.video_id).toBe('string');
    expect(await videoCount()).toBe(before + 1);
    // And now the credit is gone: the count above was not a coincidence.
    expectError(await post(sb, pdfForm), 429, 'INSUFFICIENT_CREDIT');
  });
});

describe('a complete form is still accepted', async () => {
  const sb = await sandbox({ rateLimits: false });
  it('with an epilogue after the closing boundary, or without the final CRLF (RFC 2046 allows both)', async () => {
    const epilogue = `${textForm}This is the epilogue: ignored.\r\n`;
    const noFinalCrlf = textForm.slice(0, -2);
    for (const body of [epilogue, noFinalCrlf]) {
      const a = await call(sb, 'POST', '/videos/generate/', {
        key: SANDBOX_KEYS.acme,
        body: body.replaceAll(FIXTURES.globex.settings.text, FIXTURES.acme.settings.text),
        headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      });
      expect(a.status).toBe(200);
    }
  });
});
