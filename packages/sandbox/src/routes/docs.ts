// /docs: the built reference of @videogen/docs, when it has been built (no dependency on that package).
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.js';

const candidates = ['../../docs/dist/index.html', '../../../docs/dist/index.html'].map((p) => fileURLToPath(new URL(p, import.meta.url)));

export function registerDocs(app: FastifyInstance) {
  const serve = async (_req: unknown, reply: any) => {
    for (const file of candidates) {
      try {
        const html = await readFile(file);
        return reply.type('text/html; charset=utf-8').send(html);
      } catch {
        // try the next location
      }
    }
    throw new ApiError(404, 'NOT_FOUND', 'The docs are not built: run "npm run build -w @videogen/docs" (or "npm run build" at the repo root), then reload.');
  };
  app.get('/docs', serve);
  app.get('/docs/', serve);
}
