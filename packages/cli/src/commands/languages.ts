import type { Command } from 'commander';
import { createOutput } from '../output.js';
import { table } from '../output.js';
import { LANGUAGE_LIST } from '../languages.js';

export function registerLanguages(program: Command): void {
  program
    .command('languages')
    .description('List the 34 language codes a video can be converted to, with their names (no API call).')
    .action((_opts, cmd: Command) => {
      // Local data only: no key and no network needed.
      const out = createOutput(Boolean(cmd.optsWithGlobals().json));
      out.result(LANGUAGE_LIST, () =>
        table(
          ['CODE', 'LANGUAGE'],
          LANGUAGE_LIST.map((l) => [l.code, l.name]),
        ),
      );
    });
}
