// What the interface says of a generation form (4.1, 8.4), part by part: whether it must be refused and
// with which codes any refusal may come. Read from the rules: formProblem (the combinations, and a
// setting's request_fields, DECISIONS #26) and UPLOAD_LIMITS (extensions and sizes per plan, the number
// of images). A form refused only by a decision of ours (an empty text, #32; a setting used with other
// fields, #26) is `decided`: its acceptance is a mismatch, not a failure.
import { formProblem, GENERATE_FIELDS, PLAN_LIMITS_AS, UPLOAD_LIMITS, type Plan } from '@videogen/openapi/rules';
import { extname } from 'node:path';
import type { FormPart } from './cases.ts';
import { UUID } from '../scenarios/videos.ts';

/** The plans upload limits are stated for (8.4): Personal and Business; Free is read as Personal (DECISIONS #15). */
export type UploadPlan = Exclude<Plan, keyof typeof PLAN_LIMITS_AS>;
export const UPLOAD_PLANS: readonly UploadPlan[] = [
  ...new Set(Object.values(UPLOAD_LIMITS).flatMap((l) => Object.keys(l.maxBytes) as UploadPlan[])),
];
export const uploadPlanOf = (plan: Plan): UploadPlan =>
  (PLAN_LIMITS_AS as Record<string, UploadPlan | undefined>)[plan] ?? (plan as UploadPlan);

type FileField = keyof typeof UPLOAD_LIMITS;
const FILE_FIELDS = Object.keys(UPLOAD_LIMITS) as FileField[];
const isFileField = (name: string): name is FileField => (FILE_FIELDS as string[]).includes(name);

/** The extensions a field takes on a plan (every plan: those all of them take). */
export function extensionsOf(field: FileField, plan?: UploadPlan): readonly string[] {
  const ext = UPLOAD_LIMITS[field].extensions;
  if (plan) return ext[plan];
  return UPLOAD_PLANS.map((p) => ext[p] as readonly string[]).reduce((a, b) => a.filter((x) => b.includes(x)));
}

/** A field's size limit on a plan; without one, the smallest of the plans' (what every plan takes). */
export function maxBytesOf(field: FileField, plan?: UploadPlan): number {
  const max = UPLOAD_LIMITS[field].maxBytes;
  return plan ? max[plan] : Math.min(...UPLOAD_PLANS.map((p) => max[p]));
}

export const MAX_IMAGES = UPLOAD_LIMITS.image_files.maxItems;

/** The largest file any field takes on any plan (bytes). */
export const LARGEST_UPLOAD = Math.max(...Object.values(UPLOAD_LIMITS).flatMap((l) => Object.values(l.maxBytes)));

export interface FormVerdict {
  /** Why the interface refuses it (empty: it does not). */
  faults: string[];
  /** Why only a decision of ours refuses it, with those decisions. */
  decided: Array<{ why: string; decision: number[] }>;
  /** The codes a refusal may carry: each fault's, and those of what a service may refuse beside (a long text). */
  codes: string[];
}

export interface FormContext {
  /** The request_fields of each setting the run knows, by id (lower case). */
  settings: Map<string, readonly string[]>;
  /** The account's plan, when the run knows it (else only what every plan takes counts as valid). */
  plan?: UploadPlan;
  /** The target keeps state (it knows which settings exist). */
  stateful: boolean;
}

/** A text longer than this may meet a service's own limit (the interface shows none, DECISIONS #13): its refusal is no fault. */
const PLAUSIBLE_TEXT = 10_000;

export function formVerdict(parts: readonly FormPart[], ctx: FormContext): FormVerdict {
  const faults: string[] = [];
  const decided: FormVerdict['decided'] = [];
  const codes = new Set<string>();
  const fault = (code: string, why: string) => {
    codes.add(code);
    faults.push(why);
  };
  const settings = parts.filter((p) => p.name === 'video_setting_id' && !p.file);
  const given = [
    ...new Set(parts.filter((p) => (GENERATE_FIELDS as readonly string[]).includes(p.name)).map((p) => p.name)),
  ];
  if (!settings.length) fault('INVALID_REQUEST', 'no video_setting_id');
  // A field given twice: the interface does not say which one counts; a refusal of it is no fault.
  if (settings.length > 1) codes.add('INVALID_REQUEST');
  for (const s of settings) {
    const id = s.value ?? '';
    if (!UUID.test(id)) {
      fault('INVALID_REQUEST', `video_setting_id ${JSON.stringify(id)} is not a UUID`);
      codes.add('INVALID_VIDEO_SETTING');
    } else if (!ctx.settings.has(id.toLowerCase()) && ctx.stateful) fault('INVALID_VIDEO_SETTING', `no setting ${id}`);
  }
  const combination = formProblem(given);
  if (combination)
    fault('INVALID_REQUEST', given.length ? `${given.join(' + ')} is no valid combination` : 'no input field');
  const texts = parts.filter((p) => p.name === 'text' && !p.file);
  if (texts.length > 1) codes.add('INVALID_REQUEST');
  for (const t of texts) {
    if (t.value === '') {
      decided.push({ why: 'an empty text', decision: [32] });
      codes.add('INVALID_REQUEST');
    }
    if ((t.value ?? '').length > PLAUSIBLE_TEXT) codes.add('INVALID_REQUEST');
  }
  // A part the form does not name is read as nothing by a lenient service, refused by a strict one.
  if (parts.some((p) => p.name !== 'video_setting_id' && !(GENERATE_FIELDS as readonly string[]).includes(p.name)))
    codes.add('INVALID_REQUEST');
  for (const field of FILE_FIELDS) {
    const files = parts.filter((p) => p.name === field && p.file);
    const limits = UPLOAD_LIMITS[field];
    if ('maxItems' in limits && files.length > limits.maxItems)
      fault('FILE_UPLOAD_ERROR', `${files.length} ${field} (at most ${limits.maxItems})`);
    else if (!('maxItems' in limits) && files.length > 1) codes.add('INVALID_REQUEST');
    for (const p of files) {
      const f = p.file;
      if (!f) continue;
      const ext = extname(f.filename);
      const allowed = extensionsOf(field, ctx.plan);
      const anywhere = UPLOAD_PLANS.flatMap((plan) => extensionsOf(field, plan));
      if (!anywhere.includes(ext.toLowerCase()))
        fault('FILE_UPLOAD_ERROR', `${field} named ${JSON.stringify(f.filename)}`);
      // Another case of a known extension, or one another plan takes: refused or not, the service says.
      else if (!allowed.includes(ext)) codes.add('FILE_UPLOAD_ERROR');
      if (f.size > maxBytesOf(field, ctx.plan) && ctx.plan)
        fault(
          'FILE_UPLOAD_ERROR',
          `${field} of ${f.size} bytes (the ${ctx.plan} plan takes ${maxBytesOf(field, ctx.plan)})`,
        );
      else if (f.size > maxBytesOf(field)) codes.add('FILE_UPLOAD_ERROR');
    }
  }
  // A known setting used with other fields than it lists (#26): ours alone.
  const known = settings.length === 1 ? ctx.settings.get((settings[0].value ?? '').toLowerCase()) : undefined;
  if (known && !combination && formProblem(given, known)) {
    decided.push({ why: 'a setting used with fields it does not list', decision: [26] });
    codes.add('INVALID_VIDEO_SETTING');
  }
  return { faults, decided, codes: [...codes] };
}

export { isFileField, type FileField };
