// /docs: the built site of @videogen/docs (reference, "Try the flow", llms.txt), when the sandbox runs inside
// the repository and the docs have been built (no dependency on that package; an installed sandbox has no
// docs to serve). Each HTML page gets this sandbox's description (accounts, keys, plans, fixtures, time
// scale) where the page asks for it, so that its console targets this sandbox, same-origin, with no probe.
// GET / leads to /docs.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { operationById } from '@videogen/openapi/rules';
import type { Context } from '../context.js';
import { ApiError } from '../errors.js';
import { fixtureId, SETTING_MODES, VIDEO_SCENARIOS } from '../fixtures.js';

const candidates = ['../../docs/dist/index.html', '../../../docs/dist/index.html'].map((p) =>
  fileURLToPath(new URL(p, import.meta.url)),
);

/** The built docs page, when there is one (the CLI mentions /docs only then). */
export const docsPage = (): string | undefined => candidates.find((file) => existsSync(file));

/** Where a page of the built site asks for the sandbox's description (packages/docs writes it). */
export const SANDBOX_MARKER = '<!--VIDEOGEN_SANDBOX-->';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.png': 'image/png',
};

/** Names of the site's files: one flat folder; nothing else (no path, no dot file) is ever read. */
const SITE_FILE = /^[a-z0-9][a-z0-9_-]*\.(html|txt|json|png)$/i;

/** What the docs' console needs to target this sandbox. Its keys are the sandbox's own, documented ones. */
export function sandboxDescription(ctx: Context) {
  return {
    time_scale: ctx.clock.timeScale,
    rate_limiter: ctx.limiter.limitOf(operationById('listVideos').rateClass).style,
    personality: ctx.twin.name,
    twin: ctx.twin.name,
    generation_seconds: ctx.twin.typicalGenerationSeconds,
    accounts: [...ctx.accounts.all.values()].map((account) => ({
      name: account.name,
      plan: account.plan,
      credits: ctx.store.creditsOf(account.name),
      keys: ctx.accounts.keysOf(account.name),
      settings: SETTING_MODES.map((m) => ({
        video_setting_id: fixtureId(account.settingPrefix, m.n),
        title: m.title,
        request_fields: [...m.request_fields],
      })),
      videos: (account.seedVideos ? VIDEO_SCENARIOS : []).map((v) => ({
        video_id: fixtureId(account.videoPrefix, v.n),
        status: v.status,
        prompt: v.prompt,
        convertible: v.convertible,
        real_avatar: v.realAvatar,
        voices: v.voices,
        unknown_error: v.unknownError,
      })),
    })),
  };
}

export function registerDocs(app: FastifyInstance, ctx: Context) {
  const noDocs = () =>
    new ApiError(
      404,
      'NOT_FOUND',
      'No docs here: /docs serves the reference built inside the videogen repository (npm run build there). The API is under /v1; the OpenAPI document itself is in the @videogen/openapi package.',
    );

  const send = async (reply: FastifyReply, name: string) => {
    const index = docsPage();
    if (!index) throw noDocs();
    const file = join(dirname(index), name);
    if (!SITE_FILE.test(name) || !existsSync(file))
      throw new ApiError(404, 'NOT_FOUND', `No such page of the docs: /docs/${name}.`);
    const type = TYPES[extname(name).toLowerCase()];
    if (type.startsWith('text/html')) {
      const html = (await readFile(file, 'utf8')).replace(
        SANDBOX_MARKER,
        () =>
          `<script type="application/json" id="vg-sandbox">${JSON.stringify(sandboxDescription(ctx)).replace(/</g, '\\u003c')}</script>`,
      );
      // Generated per request (credits change): never cached.
      return reply.type(type).header('cache-control', 'no-store').send(html);
    }
    return reply
      .type(type)
      .header('cache-control', 'no-cache')
      .send(await readFile(file));
  };

  app.get('/', async (_req, reply) => {
    if (!docsPage()) throw noDocs();
    return reply.redirect('/docs/', 302);
  });
  // Without the slash too (the pages resolve their links to each other themselves).
  app.get('/docs', (_req, reply) => send(reply, 'index.html'));
  app.get('/docs/', (_req, reply) => send(reply, 'index.html'));
  app.get<{ Params: { file: string } }>('/docs/:file', (req, reply) => send(reply, req.params.file));
}
