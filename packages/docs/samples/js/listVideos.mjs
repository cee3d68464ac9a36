// List your videos: the first page (50 at most), newest first
// in the sandbox; the order is the service's choice.
// Usage: node listVideos.mjs [page]
const page = process.argv[2] ?? '1';
const res = await fetch(
  `${process.env.VIDEO_API_BASE_URL}/videos/?page=${page}`,
  {
    headers: {
      Authorization: `Bearer ${process.env.VIDEO_API_KEY}`,
    },
  },
);
const body = await res.json();
if (!res.ok) {
  console.error(`${body.error_code}: ${body.error}`);
  process.exit(1);
}
for (const v of body.results) {
  console.log(`${v.created_at}  ${v.video_id}  ${v.prompt}`);
}
console.log(`page ${body.page}, ${body.total_count} in all`);
