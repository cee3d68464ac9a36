// llms.txt and llms-full.txt (the llmstxt.org convention): the guides and the reference as plain Markdown,
// for assistants that read a site's text rather than its pages. Written from the same sources as the
// site (guides/, the bundled document, the samples), so they cannot drift from it.
// Not @scalar/openapi-to-markdown: tried on this document, it reports it as OpenAPI 3.2.0 (it upgrades it
// first), renders the generation form's oneOf as rows of "never (false schema)", leaves HTML entities in
// headings, and installs about 300 MB.
import { operations, loadSamples } from './docs-spec.mjs';

/** The slug Redoc gives a heading (what the site's anchors use). */
export const slug = (text) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

const resolve = (spec, node) => {
  let at = node;
  for (let i = 0; at && typeof at.$ref === 'string' && i < 20; i++)
    at = at.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((o, k) => o?.[k], spec);
  return at;
};

const firstSentence = (text = '') => {
  const flat = text.replace(/\s+/g, ' ').trim();
  const end = flat.search(/\.(\s|$)/);
  return end > 0 ? flat.slice(0, end + 1) : flat;
};

/** llms.txt: what the site holds, with links (relative to where it is served, beside the docs page). */
export function llmsIndex(spec, { intro, guides }) {
  const lines = [
    `# ${spec.info.title}`,
    '',
    `> ${spec.info.summary ?? firstSentence(spec.info.description)}`,
    '',
    firstSentence(intro.replace(/^#.*$/gm, '')),
    '',
    '## Guides',
    '',
    ...guides.map(
      (g) => `- [${g.title}](index.html#/${slug(g.title)}): ${firstSentence(g.body.replace(/^#.*$/gm, ''))}`,
    ),
    '',
    '## API reference',
    '',
    ...operations(spec).map(
      ({ operationId, method, path, operation }) =>
        `- [${operation.summary}](index.html#/${slug(operation.tags[0])}/${operationId.toLowerCase()}): \`${method.toUpperCase()} ${path}\`. ${firstSentence(operation.description)}`,
    ),
    '',
    '## Optional',
    '',
    '- [Everything as one text](llms-full.txt): the guides and the reference, with code samples in curl, TypeScript, JavaScript and Python.',
    '- [OpenAPI document](openapi.json): the machine-readable contract (OpenAPI 3.1).',
    '- [Try the flow](flow.html): generate, poll, play and convert a video from the browser.',
    '',
  ];
  return lines.join('\n');
}

function schemaLine(spec, name, schema, required) {
  const s = resolve(spec, schema) ?? {};
  const type =
    s.type === 'array'
      ? `array of ${resolve(spec, s.items)?.format ?? resolve(spec, s.items)?.type}`
      : (s.format ?? s.type ?? 'value');
  const values = Array.isArray(s.enum) ? ` One of: ${s.enum.map((v) => `\`${v}\``).join(', ')}.` : '';
  const text = (s.description ?? '').replace(/\s+/g, ' ').trim();
  return `- \`${name}\` (${type}${required ? ', required' : ''}): ${text}${values}`;
}

/** llms-full.txt: the landing text, every guide, then every operation with its samples. */
export function llmsFull(spec, { intro, guides }, sampleLoader = loadSamples) {
  const out = [`# ${spec.info.title} — reference and guides`, '', intro.trim(), ''];
  for (const g of guides) out.push(`# ${g.title}`, '', g.body.trim(), '');
  out.push(
    '# API reference',
    '',
    `Base URL: \`${spec.servers[0].url}\` (a placeholder: use your service's base URL, with /v1). Every request carries \`Authorization: Bearer <API_KEY>\`.`,
    '',
  );
  for (const { operationId, method, path, operation } of operations(spec)) {
    out.push(`## ${operation.summary}`, '', `\`${method.toUpperCase()} ${path}\` (operationId \`${operationId}\`)`, '');
    out.push((operation.description ?? '').trim(), '');
    const params = (operation.parameters ?? []).map((p) => resolve(spec, p));
    if (params.length) {
      out.push(
        '### Parameters',
        '',
        ...params.map((p) =>
          schemaLine(
            spec,
            `${p.name}` + ` (${p.in})`,
            { ...resolve(spec, p.schema), description: p.description },
            p.required,
          ),
        ),
        '',
      );
    }
    const content = resolve(spec, operation.requestBody)?.content ?? {};
    for (const [type, media] of Object.entries(content)) {
      const schema = resolve(spec, media.schema);
      out.push(`### Request body (${type})`, '', (schema.description ?? '').replace(/\s+/g, ' ').trim(), '');
      for (const [name, prop] of Object.entries(schema.properties ?? {}))
        out.push(schemaLine(spec, name, prop, (schema.required ?? []).includes(name)));
      out.push('');
    }
    out.push('### Responses', '');
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      out.push(`- ${status}: ${(resolve(spec, response).description ?? '').replace(/\s+/g, ' ').trim()}`);
    }
    out.push('', '### Samples', '');
    for (const sample of sampleLoader(operationId)) {
      out.push(`${sample.label}:`, '', `\`\`\`${sample.lang}`, sample.source.trimEnd(), '```', '');
    }
  }
  return out.join('\n');
}
