// Keys must never reach the console, JUnit XML or an error message: every text the suite emits
// passes through redact(), which knows every key the run was given.
const secrets = new Set<string>();

export function registerSecret(value: string | undefined): void {
  if (value && value.length >= 4) secrets.add(value);
}

export function redact(text: string): string {
  let out = text;
  // Longest first, so that a key that contains another is replaced whole.
  for (const s of [...secrets].sort((a, b) => b.length - a.length)) out = out.split(s).join('***');
  return out;
}

/** A copy of an Error whose message and stack carry no key. */
export function redactError(err: unknown): Error {
  if (err instanceof Error) {
    const copy = new Error(redact(err.message));
    copy.name = err.name;
    copy.stack = err.stack ? redact(err.stack) : undefined;
    return copy;
  }
  return new Error(redact(String(err)));
}
