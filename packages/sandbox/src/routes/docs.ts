// /docs: the built reference of @videogen/docs, when the sandbox runs inside the repository and the docs
// have been built (no dependency on that package; an installed sandbox has no docs to serve).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../errors.js';

const candidates = ['../../docs/dist/index.html', '../../../docs/dist/index.html'].map((p) =>
  fileURLToPath(new URL(p, import.meta.url)),
);

/** The built docs page, when there is one (the CLI mentions /docs only then). */
export const docsPage = (): string | undefined => candidates.find((file) => existsSync(file));

export function registerDocs(app: FastifyInstance) {
  const serve = async (_req: unknown, reply: FastifyReply) => {
    const file = docsPage();
    if (file) return reply.type('text/html; charset=utf-8').send(await readFile(file));
    throw new ApiError(
      404,
      'NOT_FOUND',
      'No docs here: /docs serves the reference built inside the videogen repository (npm run build there). The OpenAPI document itself is in the @videogen/openapi package.',
    );
  };
  app.get('/docs', serve);
  app.get('/docs/', serve);
}
