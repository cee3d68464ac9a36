// videogen-sandbox (loaded by cli.ts): serve the sandbox, print the base URL and the keys, log one line per request.
import { parseArgs } from 'node:util';
import { startSandbox } from './server.js';
import { docsPage } from './routes/docs.js';
import { reachableAt } from './listen-addresses.js';
import { SANDBOX_KEYS } from './accounts.js';
import { TwinError, type Twin } from '@videogen/openapi/twin';
import { RATE_LIMITER_STYLES, isRateLimiterStyle } from './rate-limit.js';
import { PERSONALITIES, isPersonality } from './personality.js';

const HELP = `Usage: videogen-sandbox [--port 4010] [--host 127.0.0.1] [--public-url URL] [--time-scale N]
                        [--data-dir DIR] [--twin FILE | --personality default] [--seed N]
                        [--rate-limiter even] [--no-validate] [--no-rate-limits] [--quiet]

  --port N          port to listen on (0 = any free port); default 4010
  --host H          address to bind; default 127.0.0.1 (0.0.0.0: every interface, reachable from the
                    network with the public keys and the /_sandbox/ controls: the banner warns)
  --public-url URL  the origin the base URL and download URLs name, when clients reach the sandbox by
                    another name (http://sandbox:4010 in a compose network); default the address bound
  --time-scale N    run N times faster (generation, expiry, links, rate-limit windows)
  --data-dir DIR    keep state in DIR/sandbox.mdb across restarts (one sandbox per DIR)
  --twin FILE       answer as this twin wherever the interface is silent (a twin file, as written by
                    videogen-contract calibrate; format: @videogen/openapi/twin.schema.json): statuses,
                    codes, headers, limiter, downloads, encodings, latencies and durations, scaled by
                    --time-scale. A file that does not validate is refused (exit 2) naming the field
  --personality P   a built-in twin: ${PERSONALITIES.join(' | ')} (our choices, or other choices inside the
                    interface); default default
  --seed N          the seed of the twin's samples (latencies, durations, transient errors): the same
                    seed and requests give the same samples; default 0
  --rate-limiter S  how every rate-limit class is enforced: ${RATE_LIMITER_STYLES.join(' | ')};
                    default the twin's (even)
  --no-validate     do not check responses against the OpenAPI document
  --no-rate-limits  disable the rate limits (benchmarks only)
  --quiet           no per-request log lines`;

async function main() {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '4010' },
      host: { type: 'string', default: '127.0.0.1' },
      'public-url': { type: 'string' },
      'time-scale': { type: 'string', default: '1' },
      'data-dir': { type: 'string' },
      'rate-limiter': { type: 'string' },
      personality: { type: 'string' },
      twin: { type: 'string' },
      seed: { type: 'string', default: '0' },
      'no-validate': { type: 'boolean', default: false },
      'no-rate-limits': { type: 'boolean', default: false },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  const port = Number(values.port);
  const timeScale = Number(values['time-scale']);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be an integer 0-65535, got ${values.port}`);
  if (!(timeScale > 0)) throw new Error(`--time-scale must be a positive number, got ${values['time-scale']}`);
  const personality = values.personality;
  if (personality !== undefined && !isPersonality(personality))
    throw new Error(`--personality must be one of ${PERSONALITIES.join(', ')}, got ${personality}`);
  if (personality !== undefined && values.twin !== undefined)
    throw new Error('give either --twin FILE or --personality NAME (a built-in twin), not both');
  const seed = Number(values.seed);
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
    throw new Error(`--seed must be an integer 0-4294967295, got ${values.seed}`);
  const rateLimiter = values['rate-limiter'];
  if (rateLimiter !== undefined && !isRateLimiterStyle(rateLimiter)) {
    throw new Error(`--rate-limiter must be one of ${RATE_LIMITER_STYLES.join(', ')}, got ${rateLimiter}`);
  }

  const sandbox = await startSandbox({
    port,
    host: values.host,
    publicUrl: values['public-url'],
    timeScale,
    dataDir: values['data-dir'],
    validateResponses: !values['no-validate'],
    rateLimits: !values['no-rate-limits'],
    rateLimiter,
    ...(values.twin !== undefined ? { twin: values.twin } : { personality: personality ?? 'default' }),
    seed,
    logger: !values.quiet,
  });
  const rows = [
    ['API key', 'account', 'plan', 'notes'],
    [SANDBOX_KEYS.acme, 'acme', 'business', ''],
    [SANDBOX_KEYS.acme2, 'acme', 'business', 'second key of acme'],
    [SANDBOX_KEYS.globex, 'globex', 'personal', 'smaller upload limits'],
    [SANDBOX_KEYS.initech, 'initech', 'free', 'conversion → 403'],
    [SANDBOX_KEYS.umbrella, 'umbrella', 'business', 'no credit → 429'],
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  // The address bound, then every address it answers on (a wildcard is every interface, not 127.0.0.1).
  const reach = await reachableAt(values.host, sandbox.port);
  const bound = `http://${values.host.includes(':') && !values.host.startsWith('[') ? `[${values.host}]` : values.host}:${sandbox.port}`;
  console.log(`videogen sandbox listening on ${bound}`);
  if (reach.urls.length && reach.urls.join() !== bound) console.log(`  reachable  ${reach.urls.join('  ')}`);
  console.log(`  base URL   ${sandbox.baseUrl}`);
  if (docsPage()) console.log(`  docs       ${sandbox.origin}/docs`);
  console.log(
    `  time scale ${timeScale}${values['data-dir'] ? `, data dir ${values['data-dir']}` : ''}${values['no-rate-limits'] ? ', rate limits OFF' : `, rate limiter ${limiterOf(sandbox.twin, rateLimiter)}`}, ${values.twin === undefined ? `personality ${sandbox.twin.name}` : `twin ${sandbox.twin.name} (${values.twin})${seed ? `, seed ${seed}` : ''}`}`,
  );
  console.log('');
  for (const r of rows)
    console.log(
      '  ' +
        r
          .map((c, i) => c.padEnd(widths[i]))
          .join('  ')
          .trimEnd(),
    );
  console.log('');
  if (reach.network) {
    const beyond = reach.urls.filter((u) => !/^http:\/\/(127\.|\[::1\])/.test(u));
    console.error(
      [
        `WARNING: --host ${values.host} listens beyond this machine${beyond.length ? ` (${beyond.join(', ')})` : ''}.`,
        '  Anyone who can reach it can use the keys above (they are public) and the /_sandbox/ controls, which',
        '  reset accounts (erasing their videos, in the data dir too), move the clock and inject faults. Web',
        '  pages of other origins are refused the controls; other programs on the network are not.',
        `  Use --host 127.0.0.1 unless other machines must reach it. Download URLs name ${sandbox.origin}${values['public-url'] ? '' : ' (--public-url to name the address other machines use)'}.`,
        '',
      ].join('\n'),
    );
  }

  const stop = async () => {
    await sandbox.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** The limiter styles of the twin's classes as the banner says them (`even`, or `A sliding, B even`). */
function limiterOf(twin: Twin, override: string | undefined): string {
  if (override) return override;
  const styles = Object.entries(twin.behaviours)
    .filter(([k]) => /^rate_limit\.[^.]+\.style$/.test(k))
    .map(([k, b]) => [k.split('.')[1], String(b.value)]);
  return new Set(styles.map(([, s]) => s)).size === 1 ? styles[0][1] : styles.map(([c, s]) => `${c} ${s}`).join(', ');
}

main().catch((err) => {
  console.error(`videogen-sandbox: ${err.message}`);
  // A twin that does not validate is a usage error: the operator fixes the file (exit 2, like a bad flag would deserve).
  process.exit(err instanceof TwinError ? 2 : 1);
});
