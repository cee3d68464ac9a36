#!/usr/bin/env node
// The bin of the package (dist/cli.js): runs the command line, then exits once the output is written
// (open keep-alive connections must not hold the process).
import { main } from './main.ts';

// Node 24's undici may enqueue into a response body the suite already cancelled (a refusal answered while
// an upload was still being sent), and throws outside any request: the exchange is over, its answer kept.
process.on('uncaughtException', (err: NodeJS.ErrnoException) => {
  if (err?.code === 'ERR_INVALID_STATE' && /ReadableStream is already closed/.test(err.message)) return;
  throw err;
});

const code = await main(process.argv.slice(2));
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
