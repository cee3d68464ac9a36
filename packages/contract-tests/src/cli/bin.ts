#!/usr/bin/env node
// The bin of the package (dist/cli.js): runs the command line, then exits once the output is written
// (open keep-alive connections must not hold the process).
import { main } from './main.ts';

const code = await main(process.argv.slice(2));
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
