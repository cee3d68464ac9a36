import { startSandbox } from '@videogen/sandbox';
const sb = await startSandbox({ port: 4391, timeScale: 100 });
console.log(sb.baseUrl);
