// A plain node:http server answering one small JSON status view; prints its port.
import http from 'node:http';
const body = JSON.stringify({
  video_id: '3f6c2a4e-8b1d-4c7a-9e2f-5d8b7a6c4e10',
  status: 'running',
  download_url: '',
  copyright: [],
});
const server = http.createServer((req, res) =>
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body),
);
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
