// List the video settings and the fields each one takes.
// Usage: node listVideoSettings.mjs
const base = process.env.VIDEO_API_BASE_URL;
const headers = {
  Authorization: `Bearer ${process.env.VIDEO_API_KEY}`,
};

// Pages of 50: follow has_next.
for (let page = 1; ; page++) {
  const url = `${base}/video-settings/?page=${page}`;
  const res = await fetch(url, { headers });
  const body = await res.json();
  if (!res.ok) {
    console.error(`${body.error_code}: ${body.error}`);
    process.exit(1);
  }
  for (const s of body.results) {
    const fields = s.request_fields.join(', ');
    console.log(`${s.video_setting_id}  ${s.title}  [${fields}]`);
  }
  if (!body.has_next) break;
}
