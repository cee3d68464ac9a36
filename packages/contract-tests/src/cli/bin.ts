#!/usr/bin/env node
// The bin of the package (dist/cli.js): runs the command line, then exits once the output is written
// (open keep-alive connections must not hold the process).
import { redact } from '../engine/redact.ts';
import { main } from './main.ts';

// Node 24's undici may close a request body's stream after the suite cancelled it (a refusal answered
// while an upload was still being sent: the race of undici#5715, a delayed close() on a controller already
// closed, fixed in undici after the version Node 24.21 bundles). It throws outside any request; the
// exchange is over, its answer kept, so that one error is ignored. Any other ends the process with exit 1
// and its stack (rethrown from this handler, Node would exit 7).
process.on('uncaughtException', (err: NodeJS.ErrnoException) => {
  if (err?.code === 'ERR_INVALID_STATE' && /ReadableStream is already closed/.test(err.message)) return;
  process.stderr.write(`videogen-contract: internal error: ${redact(err?.stack ?? String(err))}\n`);
  process.exit(1);
});

const code = await main(process.argv.slice(2));
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
