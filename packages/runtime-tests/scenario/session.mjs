// One user session with the published client, the same on every runtime: list the settings, generate
// (text, and a PDF given as a Blob), poll to completion, read the download URL and fetch the video,
// and meet a typed error. Returns what it saw; the test asserts on it. Uses only web-standard globals
// besides the client, so that a Worker can run it.
export async function session(client, lib, { textSetting, pdfSetting, missingId }) {
  const out = {};
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
    out.notFound = { isNotFound: e instanceof lib.NotFoundError, isApiError: lib.isVideoApiError(e), status: e.status, code: e.error_code };
  }
  out.videoId = video_id;
  return out;
}
