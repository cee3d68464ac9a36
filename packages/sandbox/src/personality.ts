// Personalities: the built-in twins by name (`personality: 'alternative'`, `--personality alternative`),
// kept as a shorthand for `twin`. `default` is our own choices (the OpenAPI document and DECISIONS.md);
// `alternative` stays inside the interface but chooses differently at every point where it is silent.
// Their behaviours are data: @videogen/openapi/twins/<name>.twin.json.
import { BUILTIN_TWINS, builtinTwin, isBuiltinTwin, type BuiltinTwinName } from '@videogen/openapi/twin';
import { compileTwin, type TwinBehaviour } from './twin-behaviour.js';

export const PERSONALITIES = BUILTIN_TWINS;
export type PersonalityName = BuiltinTwinName;

export function isPersonality(v: unknown): v is PersonalityName {
  return isBuiltinTwin(v);
}

/** The behaviour of a built-in twin, as the sandbox answers with it. */
export function personality(name: PersonalityName = 'default'): TwinBehaviour {
  if (!isPersonality(name))
    throw new Error(`personality must be one of ${PERSONALITIES.join(', ')}, got ${String(name)}`);
  return compileTwin(builtinTwin(name));
}
