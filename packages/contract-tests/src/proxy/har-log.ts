// --har FILE: every exchange with the target as a HAR 1.2 log, the form `videogen-contract --har FILE`
// reads (and browsers, Charles or mitmproxy export). Keys are redacted everywhere (headers, URL,
// bodies); an Authorization header keeps its scheme and the key's fingerprint (`Bearer [redacted key:…]`). The file is rewritten
// (to a temporary name, then renamed) at most every WRITE_EVERY_MS and at close, so that a proxy
// stopped hard still leaves a complete, readable log of what it had recorded by then.
// HAR is plain JSON described by @types/har-format: no library adds anything to writing it.
import { renameSync, writeFileSync } from 'node:fs';
import { redactAuthorization } from '@videogen/openapi/rules';
import type { Content, Entry, Har, Header, PostData } from 'har-format';

const WRITE_EVERY_MS = 1000;
/** Response bodies larger than this are recorded by size only (the largest page of 2.5 holds about 5 MB). */
export const HAR_TEXT_BYTES = 16 * 1024 * 1024;
const TEXTUAL = /json|^text\/|xml|x-www-form-urlencoded|javascript/i;

export class HarLog {
  private readonly entries: Entry[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly file: string,
    private readonly creator: { name: string; version: string },
  ) {
    this.write();
  }

  add(entry: Entry): void {
    this.entries.push(entry);
    this.timer ??= setTimeout(() => this.write(), WRITE_EVERY_MS);
  }

  har(): Har {
    return { log: { version: '1.2', creator: this.creator, entries: [...this.entries] } };
  }

  /** Writes the log now (and stops the pending write). */
  write(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.har(), null, 1));
    renameSync(tmp, this.file);
  }
}

/** What one attempt sent and got, before redaction. */
export interface Exchange {
  startedAt: number;
  /** How long the pacer held the request before it was sent (HAR `blocked`). */
  blockedMs: number;
  sentAt: number;
  bodySentAt: number;
  headersAt: number;
  endAt: number;
  method: string;
  url: string;
  requestHeaders: Record<string, string | string[] | number | undefined>;
  /** `params`: a multipart body's fields (names, text values, file names), as HAR records a form. */
  requestBody?: {
    size: number;
    mimeType: string;
    text?: string;
    params?: Array<{ name: string; value?: string; fileName?: string }>;
  };
  status: number;
  statusText: string;
  httpVersion: string;
  responseRawHeaders: string[];
  /** The response body as received; `complete` false when it was larger than HAR_TEXT_BYTES. */
  responseBody: { bytes: Buffer; size: number; complete: boolean };
  comment?: string;
  /** `_videogenProxy`: the caller's key fingerprint, the attempt number, what the proxy did next. */
  proxy: { key?: string; attempt: number; next: 'passed to the caller' | 'sent again' | 'kept by the proxy' };
}

/** One redacted HAR entry. `scrub` removes every key the proxy knows from a text. */
export function harEntry(x: Exchange, scrub: (s: string) => string): Entry & { _videogenProxy: Exchange['proxy'] } {
  const headers = (pairs: Array<[string, string]>): Header[] =>
    pairs.map(([name, value]) => ({
      name,
      value: name.toLowerCase() === 'authorization' ? redactAuthorization(value, x.proxy.key) : scrub(value),
    }));
  const requestPairs: Array<[string, string]> = Object.entries(x.requestHeaders).flatMap(([k, v]) =>
    v === undefined
      ? []
      : Array.isArray(v)
        ? v.map((one): [string, string] => [k, one])
        : [[k, String(v)] as [string, string]],
  );
  const responsePairs: Array<[string, string]> = [];
  for (let i = 0; i + 1 < x.responseRawHeaders.length; i += 2)
    responsePairs.push([x.responseRawHeaders[i], x.responseRawHeaders[i + 1]]);
  const mimeType = responsePairs.find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
  const content: Content = { size: x.responseBody.size, mimeType };
  if (!x.responseBody.complete)
    content.comment = `body of ${x.responseBody.size} bytes not recorded (over ${HAR_TEXT_BYTES} bytes)`;
  else if (x.responseBody.size === 0 || TEXTUAL.test(mimeType))
    content.text = scrub(x.responseBody.bytes.toString('utf8'));
  else content.comment = `${mimeType || 'binary'} body not recorded`;
  const url = new URL(x.url);
  let postData: PostData | undefined;
  if (x.requestBody) {
    const { params } = x.requestBody;
    postData =
      x.requestBody.text !== undefined
        ? { mimeType: x.requestBody.mimeType, text: scrub(x.requestBody.text) }
        : params
          ? {
              mimeType: x.requestBody.mimeType,
              params: params.map((p) => ({
                name: scrub(p.name),
                ...(p.value !== undefined && { value: scrub(p.value) }),
                ...(p.fileName !== undefined && { fileName: scrub(p.fileName) }),
              })),
              comment: `${x.requestBody.size} bytes; the fields recorded, not the files' bytes`,
            }
          : { mimeType: x.requestBody.mimeType, params: [], comment: `${x.requestBody.size} bytes not recorded` };
  }
  const ms = (a: number, b: number) => Math.max(0, b - a);
  const timings = {
    blocked: x.blockedMs,
    dns: -1,
    connect: -1,
    send: ms(x.sentAt, x.bodySentAt),
    wait: ms(x.bodySentAt, x.headersAt),
    receive: ms(x.headersAt, x.endAt),
    ssl: -1,
  };
  return {
    startedDateTime: new Date(x.startedAt).toISOString(),
    time: timings.blocked + timings.send + timings.wait + timings.receive,
    request: {
      method: x.method,
      url: scrub(x.url),
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headers(requestPairs),
      queryString: [...url.searchParams].map(([name, value]) => ({ name: scrub(name), value: scrub(value) })),
      ...(postData && { postData }),
      headersSize: -1,
      bodySize: x.requestBody?.size ?? 0,
    },
    response: {
      status: x.status,
      statusText: x.statusText,
      httpVersion: `HTTP/${x.httpVersion}`,
      cookies: [],
      headers: headers(responsePairs),
      content,
      redirectURL: scrub(responsePairs.find(([k]) => k.toLowerCase() === 'location')?.[1] ?? ''),
      headersSize: -1,
      bodySize: x.responseBody.size,
    },
    cache: {},
    timings,
    ...(x.comment && { comment: x.comment }),
    _videogenProxy: x.proxy,
  };
}

export const isTextual = (mimeType: string) => TEXTUAL.test(mimeType);
