// Behind a proxy: the variables (HTTP_PROXY, set by the test) and nothing in the code. A status read
// and a download; prints one JSON line.
import { createClient } from '@videogen/client';

const [videoId, path] = process.argv.slice(2);
const client = createClient({ baseUrl: process.env.VIDEO_API_BASE_URL });
const { data, response } = await client.videos.get(videoId).withResponse();
const saved = await client.download(videoId, path);
console.log(JSON.stringify({ status: data.status, http: response.status, bytes: saved.bytes }));
