// The plans of the interface and how they differ, as the console shows them beside the sandbox's
// accounts: read from the generated constants (x-upload-limits, x-plans), never restated.
import { PLAN_LIMITS_AS, PLANS, UPLOAD_LIMITS } from '@videogen/openapi/rules';
import { h } from './dom.ts';

export type Plan = (typeof PLANS)[number];

/** The form's file fields: those with upload limits (x-upload-limits). */
export const FILE_FIELDS: readonly string[] = Object.keys(UPLOAD_LIMITS);

/** One field's limits, as every field of x-upload-limits has them (the image field adds maxItems). */
type FieldLimits = {
  extensions: Record<'personal' | 'business', readonly string[]>;
  maxBytes: Record<'personal' | 'business', number>;
  maxItems?: number;
};
/** A field's limits by the field's name as the form gives it (undefined for a field without a file). */
const limitsOf = (field: string): FieldLimits | undefined => (UPLOAD_LIMITS as Record<string, FieldLimits>)[field];

/** The plan whose upload limits a plan uses (the Free plan has Personal's). */
export const limitsPlan = (plan: Plan): 'personal' | 'business' =>
  ((PLAN_LIMITS_AS as Record<string, string>)[plan] ?? plan) as 'personal' | 'business';

export const planName = (plan: string) => plan.charAt(0).toUpperCase() + plan.slice(1);

const mb = (bytes: number) => `${bytes / 1_000_000} MB`;

/** The accept attribute of a file field for a plan (its extensions). */
export function acceptOf(field: string, plan: Plan | undefined): string | undefined {
  const limits = limitsOf(field);
  if (!limits) return undefined;
  const exts: readonly string[] = plan
    ? limits.extensions[limitsPlan(plan)]
    : [...new Set(Object.values(limits.extensions).flat())];
  return exts.join(',');
}

/** Why a chosen file will be refused on a plan (extension or size), or undefined. */
export function fileProblem(field: string, file: File, plan: Plan | undefined): string | undefined {
  const limits = limitsOf(field);
  if (!limits || !plan) return undefined;
  const p = limitsPlan(plan);
  const ext = file.name.includes('.') ? file.name.slice(file.name.lastIndexOf('.')).toLowerCase() : '';
  if (!limits.extensions[p].includes(ext))
    return `${field}: ${file.name} is not one of ${limits.extensions[p].join(' ')} on the ${planName(plan)} plan.`;
  if (file.size > limits.maxBytes[p])
    return `${field}: ${file.name} is larger than ${mb(limits.maxBytes[p])}, the ${planName(plan)} plan's limit.`;
  return undefined;
}

/** A table of what differs between the plans: conversions, and each upload field's formats and size. */
export function planTable(current?: Plan): HTMLTableElement {
  const plans = [...PLANS];
  const cell = (plan: Plan, text: string) => h('td', { class: plan === current ? 'vg-current' : undefined }, text);
  const rows = Object.entries<FieldLimits>(UPLOAD_LIMITS).map(([field, limits]) =>
    h(
      'tr',
      {},
      h('th', { scope: 'row' }, h('code', {}, field)),
      plans.map((plan) => {
        const p = limitsPlan(plan);
        const each = limits.maxItems ? ` each, up to ${limits.maxItems}` : '';
        return cell(plan, `${limits.extensions[p].join(' ')} · ${mb(limits.maxBytes[p])}${each}`);
      }),
    ),
  );
  return h(
    'table',
    { class: 'vg-plans' },
    h('caption', {}, 'What the plans allow'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', {}, ''),
        plans.map((plan) => h('th', { scope: 'col' }, planName(plan))),
      ),
    ),
    h(
      'tbody',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'row' }, 'Conversions'),
        plans.map((plan) => cell(plan, plan === 'free' ? 'not available (403 INSUFFICIENT_CREDIT)' : 'available')),
      ),
      rows,
    ),
  );
}
