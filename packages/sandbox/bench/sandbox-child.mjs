// A sandbox in its own process for the benchmarks (options as JSON in argv[2]); prints its origin.
import { startSandbox } from '../dist/index.js';

const sandbox = await startSandbox({ port: 0, ...JSON.parse(process.argv[2] ?? '{}') });
process.stdout.write(`ORIGIN ${sandbox.origin}\n`);
process.on('SIGTERM', () => sandbox.close().then(() => process.exit(0)));
