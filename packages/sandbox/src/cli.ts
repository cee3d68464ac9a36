#!/usr/bin/env node
// videogen-sandbox. Node 22.1+ keeps the compiled code of the modules between starts (about 50 ms less
// start-up to the first answer); the cache must be on before they load, so the CLI itself (cli-main.ts)
// is imported afterwards. Node 20 has no such cache.
import module from 'node:module';

(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
await import('./cli-main.js');
