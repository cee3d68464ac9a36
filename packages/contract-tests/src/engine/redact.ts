// Keys must never reach the console, JUnit XML or an error message: every text the suite emits
// passes through redact(), which knows every key the run was given. The rule is the toolkit's one
// redaction (@videogen/openapi/rules: Redactor, one marker, REDACTED); this module only holds the run's keys.
import { Redactor } from '@videogen/openapi/rules';

const secrets = new Redactor();

export function registerSecret(value: string | undefined): void {
  secrets.add(value);
}

export function redact(text: string): string {
  return secrets.text(text);
}
