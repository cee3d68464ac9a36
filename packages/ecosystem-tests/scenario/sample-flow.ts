// The interface's client flow (4.7), written once over the five calls it makes. Each generated client
// (hey-api.ts, orval.ts) adapts its own SDK functions to `Api`; under `tsc --strict` that adaptation is
// what proves the generated types: every field read here must exist in them with a compatible type.
// Plain code on purpose: this is what a user writes on top of a generated SDK, waits included.

/** One answer, as each adapter reads it from its SDK: the status, the typed body or error, the headers. */
export interface Reply<T, E = { error_code: string }> {
  status: number;
  data?: T;
  error?: E;
  headers: Headers;
}

export interface Api<Language extends string> {
  listVideoSettings(): Promise<Reply<{ results: Array<{ video_setting_id: string; request_fields: string[] }> }>>;
  generateVideo(form: { video_setting_id: string; text: string }): Promise<Reply<{ video_id: string }>>;
  getVideo(videoId: string): Promise<Reply<{ video_id: string; status: string; download_url: string }>>;
  getConversionOptions(
    videoId: string,
  ): Promise<Reply<{ is_convertible: boolean; current_language: string; available_languages: Language[] }>>;
  createConversion(videoId: string, language: Language): Promise<Reply<{ video_id: string }, { error_code: string }>>;
}

/** The waits of the interface: poll every 10 s up to 600 s (4.7); a 429 or 503 without Retry-After waits these (7.1). */
export interface Timing {
  pollIntervalMs: number;
  pollTimeoutMs: number;
  rateLimitWaitMs: number;
  unavailableWaitMs: number;
}

export interface FlowOptions<Language extends string> {
  text: string;
  failingText: string;
  wantedLanguage: Language;
  timing: Timing;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Interface 7.1: a 429 waits until the rate limit resets, a 503 until the load decreases (Retry-After when sent). */
function waitFor(reply: Reply<unknown, { error_code: string }>, timing: Timing): number | undefined {
  if (reply.status === 429 && reply.error?.error_code === 'INSUFFICIENT_CREDIT') return undefined; // waiting adds no credit
  if (reply.status !== 429 && reply.status !== 503) return undefined;
  const header = reply.headers.get('retry-after');
  const seconds = header === null || header.trim() === '' ? NaN : Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  return reply.status === 429 ? timing.rateLimitWaitMs : timing.unavailableWaitMs;
}

export async function runSampleFlow<Language extends string>(api: Api<Language>, options: FlowOptions<Language>) {
  const waits = { 429: 0, 503: 0 };
  async function send<T, E extends { error_code: string }>(call: () => Promise<Reply<T, E>>): Promise<Reply<T, E>> {
    for (let attempt = 1; ; attempt++) {
      const reply = await call();
      const ms = waitFor(reply, options.timing);
      if (ms === undefined || attempt === 10) return reply;
      waits[reply.status as 429 | 503]++;
      await sleep(ms);
    }
  }
  function ok<T, E>(reply: Reply<T, E>, what: string): T {
    if (reply.status !== 200 || reply.data === undefined)
      throw new Error(`${what}: HTTP ${reply.status} ${JSON.stringify(reply.error)}`);
    return reply.data;
  }
  /** Polls GET /videos/{video_id}/ until the video leaves `running` (or the client-side timeout). */
  async function poll(videoId: string) {
    const { pollIntervalMs, pollTimeoutMs } = options.timing;
    const deadline = Date.now() + pollTimeoutMs;
    let polls = 0;
    for (;;) {
      polls++;
      const video = ok(await send(() => api.getVideo(videoId)), 'getVideo');
      if (video.status !== 'running') return { ...video, polls };
      if (Date.now() + pollIntervalMs > deadline)
        throw new Error(`video ${videoId} still running after ${pollTimeoutMs} ms`);
      await sleep(pollIntervalMs);
    }
  }

  // 1. Pick a setting used with `text` alone.
  const settings = ok(await send(() => api.listVideoSettings()), 'listVideoSettings');
  const setting = settings.results.find((s) => s.request_fields.length === 1 && s.request_fields[0] === 'text');
  if (!setting) throw new Error('no video setting is used with text alone');

  // 2-3. Generate and poll until completed (read download_url) or failed (stop).
  const created = ok(
    await send(() => api.generateVideo({ video_setting_id: setting.video_setting_id, text: options.text })),
    'generateVideo',
  );
  const video = await poll(created.video_id);

  // 4. Read the conversion options; convert when the wanted language is available, and poll the new id.
  let conversion: Record<string, unknown> = { skipped: `status ${video.status}` };
  if (video.status === 'completed') {
    const conversionOptions = ok(await send(() => api.getConversionOptions(video.video_id)), 'getConversionOptions');
    const available =
      conversionOptions.is_convertible && conversionOptions.available_languages.includes(options.wantedLanguage);
    conversion = { is_convertible: conversionOptions.is_convertible, available };
    if (available) {
      const converted = ok(
        await send(() => api.createConversion(video.video_id, options.wantedLanguage)),
        'createConversion',
      );
      const result = await poll(converted.video_id);
      conversion = {
        ...conversion,
        video_id: converted.video_id,
        status: result.status,
        download_url: result.download_url,
      };
    }
    // A conversion into the video's own language is refused with a code of interface 7.2, read from the typed error.
    const refused = await send(() =>
      api.createConversion(video.video_id, conversionOptions.current_language as Language),
    );
    conversion = { ...conversion, refused: { status: refused.status, error_code: refused.error?.error_code } };
  }

  // The same flow on a generation that fails: polling stops at `failed`, nothing more is asked.
  const doomed = ok(
    await send(() => api.generateVideo({ video_setting_id: setting.video_setting_id, text: options.failingText })),
    'generateVideo',
  );
  const failed = await poll(doomed.video_id);

  return {
    setting: setting.video_setting_id,
    video: { video_id: video.video_id, status: video.status, download_url: video.download_url, polls: video.polls },
    conversion,
    failed: { video_id: failed.video_id, status: failed.status, download_url: failed.download_url },
    waits,
  };
}

/**
 * Runs the flow and prints its result as one JSON line. The base URL and the key are read by the adapters from
 * VIDEO_API_BASE_URL and VIDEO_API_KEY (the key never leaves the environment); FLOW_OPTIONS gives the text
 * that makes the target fail a generation and the waits of the interface on the target's clock (the tests run
 * the sandbox faster than real time).
 */
export async function main<Language extends string>(api: Api<Language>, wantedLanguage: Language) {
  const given = JSON.parse(process.env.FLOW_OPTIONS ?? 'null') as { failingText: string; timing: Timing } | null;
  if (!given) throw new Error('FLOW_OPTIONS is not set');
  const result = await runSampleFlow(api, {
    text: 'Explain tides to a ten-year-old in two minutes.',
    wantedLanguage,
    ...given,
  });
  console.log(JSON.stringify({ node: process.version, ...result }));
}
