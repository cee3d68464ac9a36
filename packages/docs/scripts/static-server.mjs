// A small static file server over node:http, shared by `npm run serve` and the browser test.
// It serves one directory under a URL prefix ("/" or e.g. "/docs", the path the sandbox uses),
// so the test can check that the site works when it is not at the root of its host.
import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.yaml': 'application/yaml; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.md': 'text/markdown; charset=utf-8',
};

/**
 * @param {{ root: string, prefix?: string, host?: string, port?: number }} options
 * @returns {Promise<{ url: string, port: number, close: () => Promise<void> }>}
 */
export async function startStaticServer({ root, prefix = '/', host = '127.0.0.1', port = 0 }) {
  const base = resolve(root);
  const mount = prefix.endsWith('/') ? prefix : `${prefix}/`;
  const server = createServer(async (req, res) => {
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { allow: 'GET, HEAD' }).end();
        return;
      }
      const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      // "/docs" without the slash gets the page too, as the sandbox serves it there.
      if (`${pathname}/` === mount) {
        return await sendFile(res, join(base, 'index.html'), req.method);
      }
      // The host's root leads to the site, as the sandbox's does.
      if (pathname === '/') {
        res.writeHead(302, { location: mount }).end();
        return;
      }
      if (!pathname.startsWith(mount)) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      let rel = pathname.slice(mount.length) || 'index.html';
      if (rel.endsWith('/')) rel += 'index.html';
      const file = normalize(join(base, rel));
      // Refuse anything that escapes the root (../ in the path).
      if (file !== base && !file.startsWith(base + sep)) {
        res.writeHead(403, { 'content-type': 'text/plain' }).end('forbidden');
        return;
      }
      await sendFile(res, file, req.method);
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
    }
  });
  await new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => ok(undefined));
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}${mount}`,
    port: actualPort,
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections?.();
        server.close(() => ok());
      }),
  };
}

async function sendFile(res, file, method) {
  let info;
  try {
    info = await stat(file);
  } catch {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  if (!info.isFile()) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  res.writeHead(200, {
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'content-length': info.size,
    // The docs are rebuilt often during development; never serve a stale page.
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
  });
  if (method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(file).pipe(res);
}
