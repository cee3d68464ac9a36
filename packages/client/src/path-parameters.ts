// A path parameter is checked as the document types it before it goes into a URL (the rule and its
// pattern live in @videogen/openapi/rules, generated from the document): `.` is not a video id, and
// sent it asked GET /videos/ instead (a URL parser resolves dot segments; encoding does not stop it).
import { pathParameterProblem } from '@videogen/openapi/rules';
import { ValidationError } from './errors.js';

/** Throws a ValidationError (nothing sent) when `value` cannot be the path parameter `name`. */
export function checkPathParameter(name: string, value: unknown): void {
  const problem = pathParameterProblem(name, value);
  if (problem)
    throw new ValidationError(`${problem}: nothing was sent`, {
      field: name,
      // What the sandbox answers for it (DECISIONS #11; a service may answer 404 instead).
      error_code: 'INVALID_REQUEST',
      error: problem,
    });
}
