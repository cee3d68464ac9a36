// Whether a generation form fits a video setting (interface 4.1 combinations, DECISIONS #26).
import { VALID_COMBINATIONS } from './generated/constants.js';

export interface FormProblem {
  kind: 'no_input' | 'invalid_combination' | 'field_not_in_setting' | 'setting_field_missing';
  /** The field at fault, when one is. */
  field?: string;
  message: string;
  /** The valid combinations (each also with video_setting_id), or the setting's request_fields. */
  allowed: readonly (readonly string[])[];
}

const list = (fields: readonly string[]) => fields.join(' + ');
const combos = /* @__PURE__ */ VALID_COMBINATIONS.map(([req, opt]) => ({
  req: req as readonly string[],
  opt: opt as readonly string[],
}));
const allCombos = /* @__PURE__ */ combos.map(({ req, opt }) => [...req, ...opt]);

/**
 * The problem of sending `fields` (the input fields given, video_setting_id excepted) with a setting
 * whose `request_fields` are given (omit them when the setting is unknown), or undefined.
 * Rules: the fields are one of x-valid-combinations (optional ones may be added); and, with a setting,
 * only its listed fields are sent, and every listed field but the optional ones is given.
 */
export function formProblem(fields: readonly string[], requestFields?: readonly string[]): FormProblem | undefined {
  const given = [...new Set(fields.filter((f) => f !== 'video_setting_id'))];
  if (!given.length) {
    return {
      kind: 'no_input',
      message: `Give an input: one of ${allCombos.map(list).join('; ')}.`,
      allowed: allCombos,
    };
  }
  const fits = combos.find(
    ({ req, opt }) => req.every((f) => given.includes(f)) && given.every((f) => req.includes(f) || opt.includes(f)),
  );
  if (!fits) {
    return {
      kind: 'invalid_combination',
      message: `${list(given)} is not a valid combination: use one of ${allCombos.map(list).join('; ')}.`,
      allowed: allCombos,
    };
  }
  if (!requestFields) return undefined;
  const extra = given.find((f) => !requestFields.includes(f));
  if (extra) {
    return {
      kind: 'field_not_in_setting',
      field: extra,
      message: `The video setting is not used with ${extra}: it takes ${list(requestFields)}.`,
      allowed: [requestFields],
    };
  }
  const missing = requestFields.find((f) => f !== 'video_setting_id' && !given.includes(f) && !fits.opt.includes(f));
  if (missing) {
    return {
      kind: 'setting_field_missing',
      field: missing,
      message: `The video setting is used with ${list(requestFields)}: ${missing} is missing.`,
      allowed: [requestFields],
    };
  }
  return undefined;
}
