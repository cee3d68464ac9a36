// What a refused conversion may answer (7.2), from the rules' conversionProblem: the code of the first
// row that applies in our order of the rows (#25), and the codes of the other rows that apply too, which
// a service with another order answers first (a mismatch with #25, not an interface failure). Without
// the source's options every row that depends on the source may apply.
import { ASPECT_RATIOS, conversionProblem, LANGUAGES, type ConversionSource } from '@videogen/openapi/rules';

const base: ConversionSource = {
  is_convertible: true,
  current_language: LANGUAGES[0],
  current_aspect_ratio: ASPECT_RATIOS[0],
  available_languages: [],
};

/** The codes of the rows that depend on the source (a real avatar, no video data, no change, the voices), read from the rules. */
const SOURCE_CODES: string[] = [
  conversionProblem(
    { language: LANGUAGES[1] },
    { ...base, is_convertible: false, notConvertibleReason: 'real_avatar' },
  ),
  conversionProblem(
    { language: LANGUAGES[1] },
    { ...base, is_convertible: false, notConvertibleReason: 'no_video_data' },
  ),
  conversionProblem({ language: LANGUAGES[0] }, base),
  conversionProblem({ language: LANGUAGES[1] }, base),
].flatMap((p) => (p?.error_code ? [p.error_code] : []));

/** The not-convertible rows: which one the service answers is its own knowledge (#19). */
const NOT_CONVERTIBLE = SOURCE_CODES.slice(0, 2);

export interface ConversionRefusal {
  /** Codes of the first row that applies (either not-convertible code when the options only say false). */
  codes: string[];
  /** Codes of other rows that apply too: another order of the rows answers one of them (#25). */
  others: string[];
  why: string;
}

/** The refusal a target meets on a source with these options (undefined: the options are not known), or undefined when it is accepted. */
export function conversionRefusal(
  target: Record<string, unknown>,
  options?: ConversionSource,
): ConversionRefusal | undefined {
  const p = conversionProblem(target, options);
  if (!p) return undefined;
  const codes = p.error_code ? [p.error_code] : NOT_CONVERTIBLE;
  const others = new Set<string>();
  for (const part of Object.keys(target)) {
    const q = conversionProblem({ [part]: target[part] }, options);
    // A property that is no target (an extra one) makes "no target" alone, not another row.
    if (q?.error_code && q.kind !== 'target_required') others.add(q.error_code);
  }
  if (!options) for (const c of SOURCE_CODES) others.add(c);
  else if (!options.is_convertible) for (const c of NOT_CONVERTIBLE) others.add(c);
  for (const c of codes) others.delete(c);
  return { codes, others: [...others], why: p.message };
}

/** Targets a source with these options refuses (7.2), one per row that can apply: never one a service accepts. */
export function refusedTargets(options?: ConversionSource): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [{}];
  if (options?.is_convertible) {
    out.push({ language: options.current_language }, { aspect_ratio: options.current_aspect_ratio });
    out.push({ language: options.current_language, aspect_ratio: options.current_aspect_ratio });
    const unspoken = LANGUAGES.find((l) => l !== options.current_language && !options.available_languages.includes(l));
    if (unspoken) out.push({ language: unspoken });
  } else if (options) {
    // Not convertible: any change is refused; one that changes something, so that "no change" cannot apply.
    const ratio = ASPECT_RATIOS.find((r) => r !== options.current_aspect_ratio);
    if (ratio) out.push({ aspect_ratio: ratio });
  }
  return out.filter((t) => conversionRefusal(t, options) !== undefined);
}
