// Records what a real client sends and receives as a HAR 1.2 log, the way a browser or proxy export
// does (Authorization header included, as real exports have it): the input of the --har tests.
import type { Entry, Har } from 'har-format';

export function harRecorder() {
  const entries: Entry[] = [];
  const fetchRecording = async (req: Request, init?: RequestInit): Promise<Response> => {
    const sent = new Request(req, init);
    const started = new Date();
    const res = await fetch(sent.clone());
    const text = await res.clone().text();
    const pairs = (h: Headers) => [...h.entries()].map(([name, value]) => ({ name, value }));
    const url = new URL(sent.url);
    entries.push({
      startedDateTime: started.toISOString(),
      time: Date.now() - started.getTime(),
      request: {
        method: sent.method,
        url: sent.url,
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: pairs(sent.headers),
        queryString: [...url.searchParams.entries()].map(([name, value]) => ({ name, value })),
        headersSize: -1,
        bodySize: -1,
      },
      response: {
        status: res.status,
        statusText: res.statusText,
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: pairs(res.headers),
        content: { size: text.length, mimeType: res.headers.get('content-type') ?? '', text },
        redirectURL: '',
        headersSize: -1,
        bodySize: text.length,
      },
      cache: {},
      timings: { send: 0, wait: Date.now() - started.getTime(), receive: 0 },
    });
    return res;
  };
  const har = (): Har => ({
    log: { version: '1.2', creator: { name: 'contract-tests har-recorder', version: '1' }, entries },
  });
  return { fetch: fetchRecording, har, entries };
}
