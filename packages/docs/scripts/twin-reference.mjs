// The reference page of the twin file format, written at build time from @videogen/openapi/twin: the
// schema's own words for every field and value type, every behaviour's dotted key with the values of the
// two built-in twins. Nothing here restates the format: a field added to twin/schema.yaml appears here.
import {
  BEHAVIOUR_KEYS,
  BUILTIN_TWINS,
  builtinTwin,
  INTERFACE_SECTIONS,
  TWIN_SCHEMA,
  TWIN_VERSION,
} from '@videogen/openapi/twin';

export const TWIN_PAGE_TITLE = 'The twin file format';

const cell = (text) =>
  String(text ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\n+/g, ' ');
const code = (value) => `\`${cell(typeof value === 'string' ? value : JSON.stringify(value))}\``;
const defs = TWIN_SCHEMA.$defs;
const refName = (ref) => ref.replace('#/$defs/', '').split('/')[0];
/** The node a local `$ref` points at. */
const deref = (ref) =>
  ref
    .slice(2)
    .split('/')
    .reduce((o, k) => o?.[k], TWIN_SCHEMA);

/** A value schema in words: a type's name (linked to its section), an enum, a plain type. */
function typeOf(schema) {
  if (!schema) return 'any';
  if (schema.$ref) {
    // A type of its own is named (its section below); a field of another type is described in place.
    const whole = /^#\/\$defs\/[^/]+$/.test(schema.$ref);
    return whole && defs[refName(schema.$ref)].title ? `**${refName(schema.$ref)}**` : typeOf(deref(schema.$ref));
  }
  if (schema.const !== undefined) return code(schema.const);
  if (schema.enum) return schema.enum.map(code).join(' \\| ');
  if (schema.oneOf) return schema.oneOf.map(typeOf).join(' or ');
  if (schema.type === 'array') return `array of ${typeOf(schema.items)}`;
  if (schema.type === 'object' && schema.additionalProperties && typeof schema.additionalProperties === 'object')
    return `object of ${typeOf(schema.additionalProperties)}`;
  const bounds = [
    schema.minimum !== undefined && `≥ ${schema.minimum}`,
    schema.exclusiveMinimum !== undefined && `> ${schema.exclusiveMinimum}`,
    schema.maximum !== undefined && `≤ ${schema.maximum}`,
  ].filter(Boolean);
  return `${schema.type ?? 'any'}${bounds.length ? ` (${bounds.join(', ')})` : ''}`;
}

/** The rows of an object schema's fields. */
function fieldRows(schema) {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(
    ([name, p]) =>
      `| \`${name}\` | ${typeOf(p)} | ${required.has(name) ? 'yes' : ''} | ${cell(p.description ?? (p.$ref ? deref(p.$ref)?.description : ''))} |`,
  );
}
const fieldTable = (schema) => ['| field | value | required | meaning |', '|---|---|---|---|', ...fieldRows(schema)];

/** A value type's section: its fields, or each of its forms. */
function typeSection(name) {
  const def = defs[name];
  const lines = [`### ${name}`, ''];
  if (def.description) lines.push(cell(def.description), '');
  const base = def.allOf?.find((d) => d.$ref);
  if (base) {
    const unit = def.allOf.find((d) => d.properties?.unit)?.properties.unit.const;
    lines.push(`A ${typeOf(base)}${unit ? ` whose \`unit\` is ${code(unit)}` : ''}.`, '');
    return lines;
  }
  const forms = def.oneOf;
  if (forms) {
    for (const form of forms) {
      const f = form.$ref ? defs[refName(form.$ref)] : form;
      const tag = Object.entries(f.properties ?? {}).find(([, p]) => p.const !== undefined);
      lines.push(`- ${tag ? `${code(tag[0])} ${code(tag[1].const)}` : 'a form'}:`, '');
      lines.push(...fieldTable(f).map((l) => `  ${l}`), '');
    }
  } else if (def.properties) lines.push(...fieldTable(def), '');
  else lines.push(`${typeOf(def)}`, '');
  return lines;
}

/** The built-in twin's value of a key, as a reader resolves it. */
const valueIn = (name, key) => {
  const b = builtinTwin(name).behaviours[key];
  const stated = b.provenance.source === 'interface' ? ` (interface ${INTERFACE_SECTIONS[key]})` : '';
  return `${code(b.value)}${stated}`;
};

/** Behaviour keys grouped by their first part. */
function behaviourTables() {
  const schemas = TWIN_SCHEMA.properties.behaviours.properties;
  const groups = new Map();
  for (const key of BEHAVIOUR_KEYS) {
    const group = key.split('.')[0];
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group).push(key);
  }
  const lines = [];
  for (const [group, keys] of groups) {
    lines.push(`### \`${group}.*\``, '');
    lines.push(
      `| key | value | meaning | ${BUILTIN_TWINS.map((n) => `\`${n}\``).join(' | ')} |`,
      `|---|---|---|${BUILTIN_TWINS.map(() => '---').join('|')}|`,
    );
    for (const key of keys) {
      const s = schemas[key];
      lines.push(
        `| \`${key}\` | ${typeOf(s.properties.value)} | ${cell(s.description)} | ${BUILTIN_TWINS.map((n) => valueIn(n, key)).join(' | ')} |`,
      );
    }
    lines.push('');
  }
  return lines;
}

/** The page, as a guide: `{ file, title, body }`. */
export function twinReferenceGuide() {
  const used = new Set();
  const walk = (node) => {
    if (!node || typeof node !== 'object') return;
    if (typeof node.$ref === 'string' && node.$ref.startsWith('#/$defs/')) {
      const name = refName(node.$ref);
      if (!used.has(name)) {
        used.add(name);
        walk(defs[name]);
      }
    }
    for (const v of Object.values(node)) walk(v);
  };
  walk(TWIN_SCHEMA.properties);
  // (The provenance's forms have their own section.)
  const typeNames = [...used].filter((n) => defs[n].title && !['Observed', 'Decided', 'Stated'].includes(n)).sort();
  const top = { ...TWIN_SCHEMA, properties: Object.fromEntries(Object.entries(TWIN_SCHEMA.properties)) };
  const body = [
    cell(TWIN_SCHEMA.description),
    '',
    `A twin file is one JSON document of format ${TWIN_VERSION} (\`"twin_version": ${TWIN_VERSION}\`), valid against the JSON Schema 2020-12 \`${TWIN_SCHEMA.$id}\`, published as \`@videogen/openapi/twin.schema.json\`. Read one with \`readTwin(path)\` or \`parseTwin(json)\` of \`@videogen/openapi/twin\` (a \`TwinError\` names each bad field and the reason); start a sandbox from one with \`videogen-sandbox --twin FILE\` or \`createSandbox({ twin: 'FILE' })\` (a file that does not validate is refused at start, exit 2). The two built-in twins are \`default\` (the choices of this document, DECISIONS.md) and \`alternative\` (another honest implementation), published as \`@videogen/openapi/twins/<name>.twin.json\`; \`--personality NAME\` starts the sandbox from one.`,
    '',
    'Latencies and durations are distributions: the sandbox draws the n-th sample of a key for an account from a hash of (seed, key, account, n), so the same `--seed` (`createSandbox({ seed })`, default 0) and the same requests give the same latencies, durations and transient errors. `--time-scale N` divides durations, windows, latencies and the download lifetime by N.',
    '',
    '## The file',
    '',
    ...fieldTable(top),
    '',
    '## Provenance',
    '',
    'Every behaviour is `{ "value": …, "provenance": … }`. The provenance takes one of three forms:',
    '',
    ...['Observed', 'Decided', 'Stated'].flatMap((n) => [
      `- ${code(defs[n].properties.source.const)}:`,
      '',
      ...fieldTable(defs[n]).map((l) => `  ${l}`),
      '',
    ]),
    `A behaviour whose value the interface states (${Object.keys(INTERFACE_SECTIONS).map(code).join(', ')}) may leave its value out with the provenance \`interface\`: the reader takes it from the OpenAPI document.`,
    '',
    '## Behaviours',
    '',
    'One behaviour per stable dotted key; `{operationId}`, `{mode}` (a valid combination of 4.1, its fields joined by `+`) and `{class}` (a rate-limit class) range over the OpenAPI document. The last columns are the values of the built-in twins.',
    '',
    ...behaviourTables(),
    '## Value types',
    '',
    ...typeNames.flatMap(typeSection),
  ].join('\n');
  return { file: 'twin.schema.json', title: TWIN_PAGE_TITLE, body: `${body.trimEnd()}\n` };
}
