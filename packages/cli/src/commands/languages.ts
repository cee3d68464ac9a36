import type { Command } from 'commander';
import type { Invocation } from '../context.js';
import { createOutput } from '../output.js';
import { table } from '../output.js';
import { LANGUAGE_LIST } from '../languages.js';

export function registerLanguages(program: Command, invocation: Invocation): void {
  program
    .command('languages')
    .description('List the 34 language codes a video can be converted to, with their names (no API call).')
    .action(() => {
      // Local data only: no key and no network needed.
      const out = createOutput(Boolean(invocation.options.json));
      out.result(LANGUAGE_LIST, () =>
        table(
          ['CODE', 'LANGUAGE'],
          LANGUAGE_LIST.map((l) => [l.code, l.name]),
        ),
      );
    });
}
