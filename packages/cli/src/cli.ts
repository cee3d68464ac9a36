#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { registerConvert } from './commands/convert.js';
import { registerDownload } from './commands/download.js';
import { registerGenerate } from './commands/generate.js';
import { registerLanguages } from './commands/languages.js';
import { registerList } from './commands/list.js';
import { registerMcp } from './commands/mcp.js';
import { registerPacing } from './commands/pacing.js';
import { registerRelay } from './commands/relay.js';
import { registerSettings } from './commands/settings.js';
import { registerStatus } from './commands/status.js';
import { registerWait } from './commands/wait.js';
import { createInvocation, type GlobalOptions, type Invocation, parseSeconds, parseSize } from './context.js';
import { wrongBaseUrl } from './base-url.js';
import { describeError, sanitize } from './errors.js';
import { EXIT, EXIT_CODES_HELP } from './exit-codes.js';
import { type InterruptedError, interruption, onInterrupt } from './interrupt.js';
import { BODY_LIMITS, PLANS } from '@videogen/openapi/rules';

const ENVIRONMENT_HELP = `
Environment:
  VIDEO_API_KEY        API key (required for every command but "languages"; never printed)
  VIDEO_API_BASE_URL   base URL including /v1 (e.g. http://127.0.0.1:4010/v1 for the sandbox)
  VIDEO_API_PLAN       free | personal | business: upload limits to check against (default personal)
  VIDEO_API_ALLOW_HTTP hosts plain http may reach besides loopback (comma-separated; the key would cross
                       the network in the clear): a lab network, named explicitly
  VIDEO_API_PACING_URL redis://, rediss:// (a server, or any node of a cluster) or redis-sentinel:// URL:
                       share the account's rate and concurrency limits with every other process pacing
                       it (replicas, other commands, the contract suite)
  VIDEO_API_LOG        warn | info | debug: log lines on stderr (Redis unreachable is said even without)
  VIDEO_RELAY_URL      a relay's announce endpoint (videogen relay --listen): videos created are watched at once
  VIDEO_WEBHOOK_SECRET whsec_… secret(s) of videogen relay's deliveries`;

// The installed version: package.json sits one level above both src/ and dist/.
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

function buildProgram(invocation: Invocation): Command {
  const program = new Command('videogen')
    .description('Generate, convert, wait for and download videos with the video generation service.')
    .version(version)
    .addOption(new Option('--json', 'print results as JSON on stdout (progress stays on stderr)'))
    .addOption(new Option('-q, --quiet', 'no progress output'))
    .addOption(new Option('--base-url <url>', 'API base URL including /v1 (default: $VIDEO_API_BASE_URL)'))
    .addOption(
      new Option('--request-timeout <seconds>', "wait this long for each answer's headers (default 60)").argParser(
        parseSeconds('--request-timeout'),
      ),
    )
    .addOption(
      new Option(
        '--body-timeout <seconds>',
        `an answer's body that brings less than 1 KiB in this long has stalled: the call fails (default ${BODY_LIMITS.idleMs / 1000})`,
      ).argParser(parseSeconds('--body-timeout')),
    )
    .addOption(
      new Option(
        '--body-deadline <seconds>',
        `an answer's whole body within this long of its headers (default ${BODY_LIMITS.totalMs / 1000}; a video being saved: none unless given)`,
      ).argParser(parseSeconds('--body-deadline')),
    )
    .addOption(
      new Option(
        '--max-size <size>',
        `the largest video a download writes (default ${BODY_LIMITS.maxDownloadBytes / 1024 ** 3}GiB; e.g. 500MB, 8GB)`,
      ).argParser(parseSize('--max-size')),
    )
    .addOption(
      new Option('--plan <plan>', 'your plan, for the upload limits (default: $VIDEO_API_PLAN or personal)').choices([
        ...PLANS,
      ]),
    )
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .configureOutput({ outputError: (text, write) => write(oneLineUsageError(text)) })
    // Commander would exit(1) on a usage error; cli.ts maps it to the documented invalid-input code.
    .exitOverride()
    .addHelpText('after', `${ENVIRONMENT_HELP}\n${EXIT_CODES_HELP}`)
    // The global options, once parsed and before the command reads its own: an error in those (a bad
    // --timeout) is still printed as --json asks.
    .hook('preSubcommand', (self) => {
      invocation.options = self.opts<GlobalOptions>();
    });

  registerSettings(program, invocation);
  registerList(program, invocation);
  registerStatus(program, invocation);
  registerWait(program, invocation);
  registerDownload(program, invocation);
  registerGenerate(program, invocation);
  registerConvert(program, invocation);
  registerLanguages(program, invocation);
  registerPacing(program, invocation);
  registerRelay(program, invocation);
  registerMcp(program, invocation);

  for (const cmd of program.commands) {
    cmd
      .exitOverride()
      .configureOutput({ outputError: (text, write) => write(oneLineUsageError(text, cmd.name())) })
      .addHelpText('after', EXIT_CODES_HELP);
  }
  return program;
}

const secret = process.env.VIDEO_API_KEY;

/** Commander's "error: …" in the CLI's own one-line format, with where to read more. */
function oneLineUsageError(text: string, command?: string): string {
  const message = text.trim().replace(/^error:\s*/, '');
  return `videogen: ${message} (see "videogen ${command ? `${command} ` : ''}--help")\n`;
}

/** Exit once stdout has been flushed (it is asynchronous for pipes on some platforms). */
function exit(code: number): never {
  process.stdout.write('', () => process.exit(code));
  // Keep TypeScript's `never`: nothing after this point runs before the callback exits.
  return undefined as never;
}

async function fail(err: unknown, invocation: Invocation): Promise<never> {
  // A 404 or an answer that is not the API's may mean the base URL is wrong (/v1 missing): the shared
  // diagnosis says so before "check the id" would mislead.
  const given = invocation.options.baseUrl ?? (process.env.VIDEO_API_BASE_URL || undefined);
  const described =
    (await wrongBaseUrl(err, {
      baseUrl: given,
      urlSource: invocation.options.baseUrl ? '--base-url' : 'VIDEO_API_BASE_URL',
    })) ?? describeError(err, invocation.facts);
  const message = sanitize(described.message, secret);
  process.stderr.write(`videogen: ${message}\n`);
  if (invocation.options.json) {
    // Scripts that asked for JSON get the error as JSON too, on stdout where they read.
    const body = { error: { code: described.code, status: described.status, exit_code: described.exitCode, message } };
    process.stdout.write(`${JSON.stringify(body)}\n`);
  }
  return exit(described.exitCode);
}

/** After a signal: one line saying what was stopped, and the conventional 128 + signal number. */
function interrupted(i: InterruptedError, { facts }: Invocation): never {
  const what = facts.downloading
    ? `: the download to ${facts.downloading} was stopped, and its partial file removed`
    : '';
  process.stderr.write(`videogen: interrupted by ${i.signal}${what}.\n`);
  return exit(i.exitCode);
}

async function main(): Promise<void> {
  // Ctrl-C, SIGTERM, SIGHUP: give the cursor back (the bars hide it); a download first removes its
  // temporary file (interrupt.ts), anything else exits at once with 128 + the signal's number.
  onInterrupt(
    () => {
      if (process.stderr.isTTY) process.stderr.write('\x1b[?25h\n');
    },
    (code) => process.exit(code),
  );
  const invocation = createInvocation();
  const program = buildProgram(invocation);
  try {
    await program.parseAsync(process.argv);
  } catch (err) {
    const signal = interruption();
    if (signal) return interrupted(signal, invocation);
    if (err instanceof CommanderError) {
      // --help and --version exit 0; commander already printed any usage error itself.
      return exit(err.exitCode === 0 ? EXIT.OK : EXIT.INVALID_INPUT);
    }
    return fail(err, invocation);
  }
  // A signal that came as the command finished still ends it with the signal's code.
  const signal = interruption();
  if (signal) return interrupted(signal, invocation);
  // Explicit: a pending timer of the client must not keep a finished command alive.
  return exit(EXIT.OK);
}

await main();
