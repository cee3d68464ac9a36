// Scenario tokens of the README, read from a generation's text or uploaded file names.
import { refusal } from './errors.js';
import { MAGIC } from './fixtures.js';
import type { SpecModel } from './spec.js';

export interface Scenario {
  fail: boolean;
  expire: boolean;
  notConvertible: boolean;
  realAvatar: boolean;
  unknownError: boolean;
  voices?: string[];
  language?: string;
  aspectRatio?: string;
}

export function readScenario(sources: string[], model: SpecModel): Scenario {
  const all = sources.join('\n');
  const value = (name: string) => new RegExp(`\\[sandbox:${name}=([^\\]]*)\\]`).exec(all)?.[1];
  const scenario: Scenario = {
    fail: all.includes(MAGIC.fail),
    expire: all.includes(MAGIC.expire),
    notConvertible: all.includes(MAGIC.notConvertible),
    realAvatar: all.includes(MAGIC.realAvatar),
    unknownError: all.includes(MAGIC.unknownError),
  };
  const voices = value('voices');
  if (voices !== undefined) {
    scenario.voices = voices
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const known = new Set<string>(model.languages);
    const unknown = scenario.voices.filter((l) => !known.has(l));
    if (unknown.length)
      throw refusal('invalid_form', `[sandbox:voices=…] has unknown language codes: ${unknown.join(', ')}.`);
  }
  const language = value('language');
  if (language !== undefined) scenario.language = language;
  const ratio = value('aspect-ratio');
  if (ratio !== undefined) {
    if (!model.validate.aspectRatio(ratio))
      throw refusal('invalid_form', `[sandbox:aspect-ratio=…] must be one of ${model.aspectRatios.join(', ')}.`);
    scenario.aspectRatio = ratio;
  }
  return scenario;
}
