#!/usr/bin/env node
// videogen-sandbox. The compiled code of the modules is kept between starts (about 50 ms less start-up to
// the first answer): Node 22.1+ has its own cache; before that, v8-compile-cache does the same for the
// CommonJS modules (Fastify, LMDB, Ajv: most of the start-up). Either must be on before they load, so
// the CLI itself (cli-main.ts) is imported afterwards. DISABLE_V8_COMPILE_CACHE=1 turns the older one off.
import module, { createRequire } from 'node:module';

const { enableCompileCache } = module as { enableCompileCache?: () => unknown };
if (enableCompileCache) enableCompileCache();
else createRequire(import.meta.url)('v8-compile-cache');
await import('./cli-main.js');
