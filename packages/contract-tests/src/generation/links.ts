// Stateful sequences that follow the document's `links`, as Schemathesis's stateful phase does: start
// from an operation that needs no id (the video list), and at each step follow one of the links the
// answers so far offer (`$response.body#/results/0/video_id`, `$request.path.video_id`, read by the
// lib's linkParameters) to the operation it names: status → conversion options → conversion. A
// conversion step sends only what the interface refuses, derived from the options the sequence read
// (every given value unchanged, a language the voices do not speak, no target, a source that is not
// convertible): no credit. fast-check draws the choices and shrinks a failing sequence to its shortest.
import fc from 'fast-check';
import { deref, linkParameters, type LinkObject, type ResponseObject } from '@videogen/openapi';
import type { ConversionSource } from '@videogen/openapi/rules';
import type { Contract } from '../engine/contract.ts';
import type { Api } from '../engine/http.ts';
import type { Profile } from '../shapes.ts';
import type { GeneratedCase } from './cases.ts';
import { conversionRefusal, refusedTargets } from './conversions.ts';
import type { Step } from './property.ts';
import { sendCase } from './send.ts';

/** A link the answers so far offer: the operation it leads to, its parameters, where it came from. */
interface Offer {
  operationId: string;
  parameters: Record<string, unknown>;
  from: string;
}

/** One step's choices: which offered link, and for a conversion which refused target. */
export interface StepChoice {
  pick: number;
  target: number;
  accept: string | undefined;
}

/** The most steps of one sequence (a list, a status, the options, a conversion, and one more). */
export const MAX_STEPS = 5;

export const sequences = fc.array(
  fc.record({
    pick: fc.nat(),
    target: fc.nat(),
    accept: fc.option(fc.constantFrom('application/json', '*/*'), { nil: undefined }),
  }),
  { minLength: 1, maxLength: MAX_STEPS },
);

/** The sequence that follows, at every step, the link the last answer offered. */
export const straightPath = (): StepChoice[] =>
  Array.from({ length: MAX_STEPS }, () => ({ pick: 0, target: 0, accept: undefined }));

/** The operations a sequence may start from: GET operations without path parameters whose answers offer links. */
export function starts(contract: Contract): Offer[] {
  return contract.operations
    .filter(
      (o) =>
        o.method === 'GET' &&
        !o.parameters.some((p) => p.in === 'path') &&
        linksOf(contract, o.operationId, 200).length,
    )
    .map((o) => ({ operationId: o.operationId, parameters: {}, from: 'start' }));
}

/** Every operation a sequence can reach: the starts and, through their answers' links, the rest. */
export function reachable(contract: Contract): Set<string> {
  const seen = new Set(starts(contract).map((o) => o.operationId));
  const queue = [...seen];
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    for (const [, link] of linksOf(contract, id, 200))
      if (!seen.has(link.operationId)) {
        seen.add(link.operationId);
        queue.push(link.operationId);
      }
  }
  return seen;
}

/** The links of an operation's answer that name their operation (the document's do; an operationRef is not followed). */
function linksOf(
  contract: Contract,
  operationId: string,
  status: number,
): Array<[string, LinkObject & { operationId: string }]> {
  const response = deref<ResponseObject | undefined>(
    contract.spec,
    contract.operation(operationId)?.operation.responses?.[String(status)],
  );
  return Object.entries(response?.links ?? {})
    .map(([name, link]) => [name, deref<LinkObject>(contract.spec, link)] as const)
    .filter((e): e is [string, LinkObject & { operationId: string }] => typeof e[1].operationId === 'string');
}

/** Sends one sequence: each step follows a link an earlier answer offered. */
export async function sendSequence(
  api: Api,
  contract: Contract,
  profile: Profile,
  choices: StepChoice[],
): Promise<Step[]> {
  const offers: Offer[] = [...starts(contract)];
  const options = new Map<string, ConversionSource>();
  const steps: Step[] = [];
  for (const choice of choices) {
    // A read-only run follows no link to a POST.
    const usable = offers.filter((o) => profile !== 'read-only' || contract.operation(o.operationId)?.method === 'GET');
    if (!usable.length) break;
    // Counted from the newest offer: small picks (fast-check draws them first, and shrinks towards
    // them) follow the link the last answer offered, so that sequences go deep.
    const offer = usable[usable.length - 1 - (choice.pick % usable.length)];
    // A link is followed once per sequence (a start stays): the next pick goes on to another.
    if (offer.from !== 'start') offers.splice(offers.indexOf(offer), 1);
    const op = contract.operation(offer.operationId);
    // (Offers are the document's own operations: a start, or a link's target.)
    if (!op) throw new Error(`a link leads to ${offer.operationId}, which the document does not have`);
    const path: Record<string, string> = {};
    for (const [k, v] of Object.entries(offer.parameters)) if (typeof v === 'string') path[k] = v;
    const headers: Record<string, string> = choice.accept ? { accept: choice.accept } : {};
    const via = offer.from === 'start' ? '' : ` via ${offer.from}`;
    const base = { operationId: op.operationId, path, query: {}, headers, auth: 'key' as const };
    let c: GeneratedCase;
    if (op.method === 'GET') c = { ...base, expect: { kind: 'conforms', why: `${op.operationId}${via}` } };
    else {
      const known = options.get(path.video_id ?? '');
      const targets = refusedTargets(known);
      const target = targets[choice.target % targets.length];
      const e = conversionRefusal(target, known);
      // refusedTargets gives only targets 7.2 refuses given these options.
      if (!e) throw new Error(`${JSON.stringify(target)} is not a refused target`);
      c = {
        ...base,
        body: { kind: 'json', value: target },
        expect: {
          kind: 'refused',
          statuses: [400],
          codes: e.codes,
          alsoUnder: { codes: e.others, decision: [25] },
          why: `${op.operationId} ${JSON.stringify(target)}${via}: ${e.why}`,
        },
      };
    }
    const exchange = await sendCase(api, c);
    steps.push({ case: c, exchange });
    if (exchange.status < 200 || exchange.status >= 300) continue;
    if (op.operationId === 'getConversionOptions' && path.video_id)
      options.set(path.video_id, exchange.body as ConversionSource);
    for (const [name, link] of linksOf(contract, op.operationId, exchange.status)) {
      const parameters = linkParameters(link, { body: exchange.body, pathParams: path });
      // A link whose parameter the answer does not hold (an empty list) offers nothing.
      if (Object.values(parameters).some((v) => typeof v !== 'string' || !v)) continue;
      offers.push({ operationId: link.operationId, parameters, from: `${op.operationId} → ${name}` });
    }
  }
  return steps;
}
