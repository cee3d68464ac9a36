// The ceiling of the throughput bench: a plain node:http server answering the bytes of the sandbox's
// GET /v1/videos/{id}/ (node -e PLAIN_SERVER prints its origin).
const VIDEO = '71de0a00-0000-4000-8000-000000000001';
export const PLAIN_SERVER = `
const body = JSON.stringify({ video_id: '${VIDEO}', status: 'completed', download_url: 'http://127.0.0.1/downloads/${VIDEO}.mp4?expires=1795268764262&signature=' + 'f'.repeat(64), copyright: ['Background music', 'Stock footage'] });
const s = require('node:http').createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) }); res.end(body); });
s.listen(0, '127.0.0.1', () => console.log('ORIGIN http://127.0.0.1:' + s.address().port));
process.on('SIGTERM', () => process.exit(0));`;
