/** Results go to stdout (progress and errors go to stderr), as JSON with --json, else as text. */

export interface Output {
  readonly json: boolean;
  /** The command's result: JSON with --json, otherwise `human()`'s text. */
  result(value: unknown, human: () => string): void;
}

export function createOutput(json: boolean, stream: NodeJS.WritableStream = process.stdout): Output {
  return {
    json,
    result(value, human) {
      const text = json ? JSON.stringify(value, null, 2) : human();
      if (text) stream.write(text.endsWith('\n') ? text : `${text}\n`);
    },
  };
}

/** A plain aligned table: a person reads it, and `cut`/`awk` still split it on runs of spaces. */
export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}
