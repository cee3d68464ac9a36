// Generative faults: a service that fails — a 500, a wrong shape, a hang — only for one class of inputs,
// the way real services break on the edges of their inputs (an int32 page, a case-sensitive lookup, a
// file name's encoding, an off-by-one size check). None of them is met by the hand-written scenarios
// (test/generative-faults.test.ts runs them alone against every fault: no request of any class is
// sent); the boundary and random phases are measured by how many of them a default run finds
// (test/power/, `npm run power`).
//
// The server is a proxy in front of a real sandbox: it reads each request whole (in memory: the test's
// uploads are at most 180 MB, one at a time), tells which classes it belongs to (a multipart body
// through busboy), answers the first class's fault, or forwards it untouched. Every
// faulted answer carries `x-generative-fault: <class id>`, and every request hitting a class is logged
// with its place among all requests, so that a run's failures can be traced to the classes they found.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { Busboy } from '@fastify/busboy';
import {
  ASPECT_RATIOS,
  LANGUAGES,
  operationFor,
  pathParametersOf,
  UPLOAD_LIMITS,
  type OperationId,
} from '@videogen/openapi/rules';

/** One part of a multipart form, as a fault sees it. */
export interface SeenPart {
  name: string;
  value?: string;
  filename?: string;
  size: number;
}

/** A request as the faults read it. */
export interface SeenRequest {
  method: string;
  operationId?: OperationId;
  /** Relative to the base URL, with the query (`/videos/?page=2`), as the suite's messages name it. */
  path: string;
  query: URLSearchParams;
  /** The path's video_id, decoded. */
  id?: string;
  json?: unknown;
  text?: string;
  form?: SeenPart[];
}

/** What a fault answers: a 500 with the envelope, a wrong shape, or a hang (headers, then a body that never comes). */
export type Failure = '500' | 'wrong shape' | 'hang';

export interface GenerativeFault {
  id: string;
  operation: OperationId;
  /** The class of input, as a QA engineer names it. */
  label: string;
  failure: Failure;
  matches(r: SeenRequest): boolean;
  /** The wrong shape it answers (a fault of kind `wrong shape`). */
  shape?(r: SeenRequest): { status: number; contentType: string; body: string };
  /**
   * Measured alone, never beside another class: its 500 answers a create the suite cannot find in the
   * account's list (a conversion, a form of files alone), so the run counts a credit as maybe spent
   * (at most once for every POST), and the no-credit profile's guard then sends no further create.
   */
  alone?: true;
}

const pageOf = (r: SeenRequest): bigint | undefined => {
  const p = r.query.get('page');
  return p !== null && /^\d+$/.test(p) ? BigInt(p) : undefined;
};
const fieldOf = (r: SeenRequest, name: string) =>
  r.json && typeof r.json === 'object' ? (r.json as Record<string, unknown>)[name] : undefined;
const hasField = (r: SeenRequest, name: string) => Boolean(r.json && typeof r.json === 'object' && name in r.json);
const parts = (r: SeenRequest, name: string) => (r.form ?? []).filter((p) => p.name === name);
const files = (r: SeenRequest) => (r.form ?? []).filter((p) => p.filename !== undefined);
const LIMITS = Object.entries(UPLOAD_LIMITS).map(([field, l]) => ({
  field,
  sizes: Object.values(l.maxBytes) as number[],
}));

export const GENERATIVE_FAULTS: GenerativeFault[] = [
  {
    id: 'list-videos-page-2^31',
    operation: 'listVideos',
    label: 'page ≥ 2^31 (an int32 page)',
    failure: '500',
    matches: (r) => (pageOf(r) ?? 0n) >= 2n ** 31n,
  },
  {
    id: 'list-videos-page-twice',
    operation: 'listVideos',
    label: 'page given twice (a list where a number was read)',
    failure: '500',
    matches: (r) => r.query.getAll('page').length > 1,
  },
  {
    id: 'list-settings-page-10^6',
    operation: 'listVideoSettings',
    label: '10^6 ≤ page < 10^7 (a slow OFFSET)',
    failure: 'hang',
    matches: (r) => {
      const p = pageOf(r);
      return p !== undefined && p >= 10n ** 6n && p < 10n ** 7n;
    },
  },
  {
    id: 'list-settings-page-2^53',
    operation: 'listVideoSettings',
    label: 'page ≥ 2^53 (echoed as a string)',
    failure: 'wrong shape',
    matches: (r) => (pageOf(r) ?? 0n) >= 2n ** 53n,
    shape: (r) => ({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({
        results: [],
        has_next: false,
        total_count: 0,
        page: r.query.get('page'),
        items_per_page: 50,
      }),
    }),
  },
  {
    id: 'get-video-non-ascii-id',
    operation: 'getVideo',
    label: 'a video_id with non-ASCII characters (an encoding error)',
    failure: '500',
    matches: (r) => /[^\x20-\x7e]/.test(r.id ?? ''),
  },
  {
    id: 'get-video-long-id',
    operation: 'getVideo',
    label: 'a video_id of more than 100 characters (a backtracking pattern)',
    failure: 'hang',
    matches: (r) => (r.id ?? '').length > 100,
  },
  {
    id: 'options-nil-uuid',
    operation: 'getConversionOptions',
    label: 'the nil UUID (a placeholder row)',
    failure: 'wrong shape',
    matches: (r) => r.id === '00000000-0000-0000-0000-000000000000',
    shape: () => ({ status: 200, contentType: 'application/json', body: JSON.stringify({ is_convertible: 'no' }) }),
  },
  {
    id: 'options-upper-case-id',
    operation: 'getConversionOptions',
    label: 'a video_id in upper case (a case-sensitive lookup)',
    failure: '500',
    matches: (r) => /^[0-9a-f-]{36}$/i.test(r.id ?? '') && /[A-F]/.test(r.id ?? ''),
  },
  {
    id: 'convert-language-case',
    operation: 'createConversion',
    label: 'a language in another case (a case-folded lookup)',
    failure: '500',
    alone: true,
    matches: (r) => {
      const l = fieldOf(r, 'language');
      return (
        typeof l === 'string' &&
        !(LANGUAGES as readonly string[]).includes(l) &&
        LANGUAGES.some((x) => x.toLowerCase() === l.toLowerCase())
      );
    },
  },
  {
    id: 'convert-ratio-spaces',
    operation: 'createConversion',
    label: 'an aspect_ratio with surrounding spaces (trimmed, then split)',
    failure: '500',
    alone: true,
    matches: (r) => {
      const a = fieldOf(r, 'aspect_ratio');
      return typeof a === 'string' && a !== a.trim() && (ASPECT_RATIOS as readonly string[]).includes(a.trim());
    },
  },
  {
    id: 'convert-language-null',
    operation: 'createConversion',
    label: 'language null (null.lower())',
    failure: '500',
    alone: true,
    matches: (r) => hasField(r, 'language') && fieldOf(r, 'language') === null,
  },
  {
    id: 'convert-duplicate-key',
    operation: 'createConversion',
    label: 'a property given twice (a strict parser’s own page)',
    failure: 'wrong shape',
    matches: (r) =>
      ['language', 'aspect_ratio'].some((k) => (r.text?.match(new RegExp(`"${k}"\\s*:`, 'g')) ?? []).length > 1),
    shape: () => ({ status: 400, contentType: 'text/plain', body: 'Bad Request: duplicate key' }),
  },
  {
    id: 'generate-empty-text',
    operation: 'generateVideo',
    label: 'an empty text (text[0])',
    failure: '500',
    matches: (r) => parts(r, 'text').some((p) => p.filename === undefined && p.value === ''),
  },
  {
    id: 'generate-non-ascii-name',
    operation: 'generateVideo',
    label: 'a file name with non-ASCII characters (Content-Disposition)',
    failure: '500',
    matches: (r) => files(r).some((p) => /[^\x20-\x7e]/.test(p.filename ?? '')),
  },
  {
    id: 'generate-setting-twice',
    operation: 'generateVideo',
    label: 'video_setting_id given twice',
    failure: '500',
    matches: (r) => parts(r, 'video_setting_id').length > 1,
  },
  {
    id: 'generate-webm',
    operation: 'generateVideo',
    label: 'a video_file .webm (the Business plan’s own extension)',
    failure: '500',
    alone: true,
    matches: (r) => parts(r, 'video_file').some((p) => (p.filename ?? '').toLowerCase().endsWith('.webm')),
  },
  {
    id: 'generate-size-at-limit',
    operation: 'generateVideo',
    label: 'a file of exactly a plan’s size limit (an off-by-one)',
    failure: '500',
    alone: true,
    matches: (r) => files(r).some((p) => LIMITS.some((l) => l.field === p.name && l.sizes.includes(p.size))),
  },
];

/** A request that hit a class, in the order the server received every request. */
export interface Hit {
  fault: string;
  /** Its place among all requests the server received (1-based). */
  at: number;
  request: string;
}

export interface FaultServer {
  baseUrl: string;
  hits: Hit[];
  /** Requests received so far. */
  received(): number;
  close(): Promise<void>;
}

/** A request's body, read whole. */
async function bodyOf(req: IncomingMessage): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return chunks;
}

/** Reads a multipart body's parts: names, text values, file names and sizes. */
function formOf(body: Buffer[], contentType: string): Promise<SeenPart[]> {
  return new Promise((resolve, reject) => {
    const out: SeenPart[] = [];
    const bb = new Busboy({
      headers: { 'content-type': contentType },
      limits: { fieldSize: 4_000_000, files: 64, parts: 128 },
    });
    bb.on('file', (name: string, stream: NodeJS.ReadableStream, filename: string) => {
      const part: SeenPart = { name, filename, size: 0 };
      out.push(part);
      stream.on('data', (c: Buffer) => {
        part.size += c.length;
      });
    });
    bb.on('field', (name: string, value: string) => out.push({ name, value, size: Buffer.byteLength(value) }));
    bb.on('finish', () => resolve(out));
    bb.on('error', reject);
    Readable.from(body).pipe(bb);
  });
}

async function seen(req: IncomingMessage, body: Buffer[]): Promise<SeenRequest> {
  const url = new URL(req.url ?? '/', 'http://x');
  const method = req.method ?? 'GET';
  const op = operationFor(method, url.pathname);
  const path = url.pathname.replace(/^\/v1(?=\/)/, '') + url.search;
  const r: SeenRequest = { method, path, query: url.searchParams };
  if (op) {
    r.operationId = op.operationId;
    const id = pathParametersOf(op, url.pathname)?.video_id;
    if (id !== undefined) r.id = id;
  }
  const type = req.headers['content-type'] ?? '';
  if (/json/.test(type)) {
    r.text = Buffer.concat(body).toString('utf8');
    try {
      r.json = JSON.parse(r.text);
    } catch {
      // A body that is no JSON: the faults read its text.
    }
  } else if (/multipart\/form-data/.test(type)) r.form = await formOf(body, type).catch(() => []);
  return r;
}

/** Starts the fault server in front of `upstream` (a sandbox's origin), breaking the classes of `faults`. */
export async function startFaultServer(
  upstream: string,
  faults: GenerativeFault[] = GENERATIVE_FAULTS,
): Promise<FaultServer> {
  const hits: Hit[] = [];
  let received = 0;
  const hanging = new Set<ServerResponse>();
  const target = new URL(upstream);
  const server = createServer(async (req, res) => {
    const at = ++received;
    try {
      const body = await bodyOf(req);
      const r = await seen(req, body);
      const fault = faults.find((f) => f.operation === r.operationId && f.matches(r));
      if (fault) {
        hits.push({ fault: fault.id, at, request: `${r.method} ${r.path}` });
        if (fault.failure === 'hang') {
          // The head of a JSON answer, then nothing for as long as the caller waits: a stuck handler
          // behind a proxy that sent the headers (the suite's --body-timeout gives up on it).
          res.writeHead(200, { 'content-type': 'application/json', 'x-generative-fault': fault.id });
          res.write('{');
          hanging.add(res);
          res.on('close', () => hanging.delete(res));
          return;
        }
        const answer =
          fault.failure === 'wrong shape' && fault.shape
            ? fault.shape(r)
            : {
                status: 500,
                contentType: 'application/json',
                body: JSON.stringify({ error_code: 'UNKNOWN_ERROR', error: `generative fault: ${fault.label}` }),
              };
        res.writeHead(answer.status, { 'content-type': answer.contentType, 'x-generative-fault': fault.id });
        res.end(answer.body);
        return;
      }
      // Forwarded untouched, the answer streamed back.
      const headers = { ...req.headers, host: target.host };
      delete headers['transfer-encoding'];
      headers['content-length'] = String(body.reduce((n, c) => n + c.length, 0));
      const up = httpRequest(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      up.on('error', (err) => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`fault server: ${err.message}`);
      });
      Readable.from(body).pipe(up);
    } catch (err) {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`fault server: ${(err as Error).message}`);
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    hits,
    received: () => received,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
