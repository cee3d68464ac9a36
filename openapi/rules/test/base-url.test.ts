// The one diagnosis of a base URL, shared by the CLI and the contract suite's preflight: the API answers
// its list or its envelope (not a 404); anything else is named with the fix, /v1 missing first of all.
import { describe, expect, it } from 'vitest';
import { baseUrlProblem, describeProbe, isTheApi, PROBE_PATH, readProbe, unreachable } from '../src/index.js';

const answer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  readProbe({
    status,
    headers: new Headers({ 'content-type': 'application/json', ...headers }),
    text: typeof body === 'string' ? body : JSON.stringify(body),
  });
const LIST = { results: [], has_next: false, total_count: 0, page: 1, items_per_page: 50 };
const NOT_FOUND = { error_code: 'NOT_FOUND', error: 'No such path.' };

describe('what answers as the API', () => {
  it('the list, or an envelope that is not a 404 (a key refused is still the API)', () => {
    expect(isTheApi(answer(200, LIST))).toBe(true);
    expect(isTheApi(answer(401, { error_code: 'UNAUTHORIZED', error: 'x' }))).toBe(true);
    expect(isTheApi(answer(404, NOT_FOUND))).toBe(false);
    expect(isTheApi(answer(200, '<html>hi</html>', { 'content-type': 'text/html' }))).toBe(false);
    expect(describeProbe(answer(200, '<html>hi</html>', { 'content-type': 'text/html' }))).toBe(
      '200 text/html (a web page)',
    );
    expect(describeProbe(answer(404, NOT_FOUND))).toBe('404 application/json NOT_FOUND');
  });
});

describe('baseUrlProblem', () => {
  const api = 'http://127.0.0.1:4801';
  const probe = async (url: string) =>
    url === `${api}/v1${PROBE_PATH}` ? answer(401, { error_code: 'UNAUTHORIZED', error: 'x' }) : answer(404, NOT_FOUND);

  it('none when the base answers as the API', async () => {
    expect(
      await baseUrlProblem({ base: `${api}/v1`, urlSource: '--base-url', first: answer(200, LIST), probe }),
    ).toBeUndefined();
  });

  it('/v1 missing: named, with the URL to use as the user sets it', async () => {
    expect(
      await baseUrlProblem({ base: api, urlSource: 'VIDEO_API_BASE_URL', first: answer(404, NOT_FOUND), probe }),
    ).toBe(
      `${api} is not the API (GET /video-settings/ answered 404 application/json NOT_FOUND): is /v1 missing? ${api}/v1 answers as the API: use VIDEO_API_BASE_URL=${api}/v1`,
    );
    expect(
      await baseUrlProblem({ base: `${api}/`, urlSource: '--base-url', first: answer(404, NOT_FOUND), probe }),
    ).toMatch(new RegExp(`use --base-url ${api}/v1$`));
  });

  it('another server: what it answered, and where to look', async () => {
    const page = answer(200, '<html></html>', { 'content-type': 'text/html' });
    expect(await baseUrlProblem({ base: 'http://web.test', urlSource: '--target', first: page, probe })).toBe(
      'http://web.test is not the API: GET /video-settings/ answered 200 text/html (a web page), where the API answers its list or the envelope {error_code, error}: check --target',
    );
  });

  it('a redirect: where it leads, as the base to use', async () => {
    const moved = answer(301, '', { location: 'https://api.test/v1/video-settings/' });
    expect(
      await baseUrlProblem({ base: 'http://api.test/v1', urlSource: 'VIDEO_API_BASE_URL', first: moved, probe }),
    ).toMatch(/no redirect is followed: use VIDEO_API_BASE_URL=https:\/\/api\.test\/v1$/);
  });
});

describe('unreachable', () => {
  it('names the cause of a connection never made, and the setting to fix', () => {
    const refused = Object.assign(new TypeError('fetch failed'), {
      cause: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' },
    });
    expect(unreachable(new URL('http://127.0.0.1:4899/v1'), refused, 'VIDEO_API_BASE_URL', 10_000)).toBe(
      'cannot reach http://127.0.0.1:4899/v1: connection refused (nothing listens on 127.0.0.1:4899): start the service or fix VIDEO_API_BASE_URL',
    );
    const dns = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ENOTFOUND' } });
    expect(unreachable(new URL('https://nope.test/v1'), dns, '--base-url', 10_000)).toMatch(
      /DNS lookup of nope\.test failed/,
    );
  });
});
