import { conversionProblem } from '@videogen/openapi/rules';
import type { components } from './generated/openapi.js';
import { ValidationError } from './errors.js';

type Schemas = components['schemas'];
export type ConversionTarget = Schemas['ConversionRequest'];

/**
 * Fails fast, with the error_code the service would answer (interface 7.2, the shared rule
 * conversionProblem), when the target or the conversion options show that the conversion cannot
 * succeed. Returns nothing when the request may be sent. A video whose options say only
 * `is_convertible: false` is sent anyway: the client cannot know why (no video data, or a real
 * avatar), so the service's answer gives the code rather than a guess.
 */
export function checkConversion(t: ConversionTarget, o?: Schemas['ConversionOptions']) {
  const p = conversionProblem(t, o);
  if (!p?.error_code) return;
  const allowed = p.allowed ? ` Allowed: ${p.allowed.join(',')}.` : '';
  throw new ValidationError(`${p.error_code}: ${p.message}${allowed}`, {
    status: p.status,
    error_code: p.error_code,
    error: p.message,
    field: p.field,
    limit: p.allowed,
  });
}
