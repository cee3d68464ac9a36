// One user session with the published client, the same on every runtime: list the settings, generate
// (text, and a PDF given as a Blob), poll to completion, read the download URL and fetch the video,
// and meet a typed error. Returns what it saw; the test asserts on it. Uses only web-standard globals
// besides the client, so that a Worker can run it.
export async function session(client, lib, { textSetting, pdfSetting, missingId, webhook }) {
  const out = {};
  // A relay's delivery (issue 37), signed by the test with the stock standardwebhooks: verified here, on
  // this runtime, by the client's verifyWebhook; the same body changed by one byte is refused.
  const delivery = typeof webhook === 'string' ? JSON.parse(webhook) : webhook;
  const verified = lib.verifyWebhook(delivery.body, new Headers(delivery.headers), delivery.secret);
  out.webhook = { id: verified.id, type: verified.type, video: verified.data.video_id };
  try {
    lib.verifyWebhook(`${delivery.body} `, delivery.headers, delivery.secret);
    out.webhookTampered = 'no error';
  } catch (e) {
    out.webhookTampered = { kind: e.kind, code: e.error_code };
  }
  const settings = [];
  for await (const s of client.settings.list()) settings.push(s.video_setting_id);
  out.settings = settings;

  const { video_id } = await client.videos.generate({ video_setting_id: textSetting, text: 'Explain tides' });
  // timeoutMs only ends a hang: a loaded machine may take many times the usual few seconds.
  const wait = { intervalMs: 20, timeoutMs: 240_000 };
  const done = await client.waitForVideo(video_id, wait);
  out.status = done.status;
  const res = await fetch(done.download_url);
  const bytes = new Uint8Array(await res.arrayBuffer());
  out.download = { status: res.status, bytes: bytes.byteLength, box: new TextDecoder().decode(bytes.subarray(4, 8)) };

  const pdf = { data: new Blob([new Uint8Array(1000).fill(1)], { type: 'application/pdf' }), filename: 'deck.pdf' };
  const fromPdf = await client.generateAndWait({ video_setting_id: pdfSetting, pdf_file: pdf }, wait);
  out.pdfStatus = fromPdf.status;

  try {
    await client.videos.get(missingId);
    out.notFound = 'no error';
  } catch (e) {
    out.notFound = {
      isNotFound: e instanceof lib.NotFoundError,
      isApiError: lib.isVideoApiError(e),
      status: e.status,
      code: e.error_code,
    };
  }
  // Per-request options and raw responses: the same on every runtime.
  const opts = {
    timeoutMs: 10_000,
    maxRetries: 1,
    signal: new AbortController().signal,
    headers: { 'x-runtime-test': '1' },
  };
  const { data, response } = await client.videos.get(video_id, opts).withResponse();
  out.withResponse = {
    videoStatus: data.status,
    status: response.status,
    isResponse: response instanceof Response,
    json: /json/.test(response.headers.get('content-type')),
  };
  const raw = await client.conversions.get(video_id, opts).asResponse();
  out.asResponse = { ok: raw.ok, bodyUsed: raw.bodyUsed, convertible: typeof (await raw.json()).is_convertible };
  const page = await client.settings.list(opts);
  out.firstPage = { page: page.page, items: page.results.length };
  try {
    // A call's headers reach the wire: this one replaces the key, so the service refuses it.
    await client.videos.get(video_id, { headers: { Authorization: 'Bearer not-the-key' }, maxRetries: 0 });
    out.headerOverride = 'no error';
  } catch (e) {
    out.headerOverride = { kind: e.kind, status: e.status };
  }
  const stop = new AbortController();
  stop.abort(new Error('stopped by the caller'));
  out.aborted = await client.videos.get(video_id, { signal: stop.signal }).then(
    () => 'no error',
    (e) => e.message,
  );
  out.videoId = video_id;
  return out;
}
