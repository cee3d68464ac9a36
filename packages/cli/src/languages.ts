import { LANGUAGES } from '@videogen/client';
import { LANGUAGE_NAMES } from './generated/languages.js';

export interface LanguageInfo {
  code: string;
  name: string;
}

/** The client's language codes (the spec's enum), named from the spec's x-enumDescriptions. */
export const LANGUAGE_LIST: LanguageInfo[] = (LANGUAGES as readonly string[]).map((code) => ({
  code,
  name: LANGUAGE_NAMES[code] ?? code,
}));

export const languageName = (code: string) => LANGUAGE_NAMES[code] ?? code;

/** "en (English), ko (Korean)" — for messages that list the choices. */
export const describeLanguages = (codes: readonly string[]) =>
  codes.length ? codes.map((c) => `${c} (${languageName(c)})`).join(', ') : 'none';
