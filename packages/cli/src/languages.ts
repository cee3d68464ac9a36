import { LANGUAGES, LANGUAGE_NAMES } from '@videogen/openapi/rules';

// Generated from the spec's Language enum and its x-enumDescriptions.
const NAMES: Readonly<Record<string, string>> = LANGUAGE_NAMES;

export interface LanguageInfo {
  code: string;
  name: string;
}

/** The language codes (the spec's enum), named from the spec's x-enumDescriptions. */
export const LANGUAGE_LIST: LanguageInfo[] = LANGUAGES.map((code) => ({ code, name: NAMES[code] ?? code }));

export const languageName = (code: string) => NAMES[code] ?? code;

/** "en (English), ko (Korean)" — for messages that list the choices. */
export const describeLanguages = (codes: readonly string[]) =>
  codes.length ? codes.map((c) => `${c} (${languageName(c)})`).join(', ') : 'none';
