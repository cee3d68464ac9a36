// Everything the sandbox knows about the API comes from the bundled OpenAPI document, read here once
// through the shared @videogen/openapi module (no schema is retyped in this package).
import { UUID_PATTERN, type Plan } from '@videogen/openapi/rules';
import {
  createAjv,
  loadSpec,
  listOperations,
  validatorFor,
  type Operation,
  type OpenApiDocument,
  type SchemaObject,
} from '@videogen/openapi';
import type { Schemas } from '@videogen/openapi/types';

export type { Plan };
export type UploadPlan = 'personal' | 'business';

export interface UploadFieldLimits {
  extensions: Record<UploadPlan, string[]>;
  max_bytes: Record<UploadPlan, number>;
  max_items?: number;
}

export interface ValidCombination {
  fields: string[];
  optional?: string[];
  mode: string;
}

export interface SpecModel {
  spec: OpenApiDocument;
  ajv: ReturnType<typeof createAjv>;
  operations: Operation[];
  languages: Schemas['Language'][];
  aspectRatios: Schemas['AspectRatio'][];
  combinations: ValidCombination[];
  uploadLimits: Record<string, UploadFieldLimits>;
  /** The generation form's fields and their schemas (GenerateVideoRequest's properties). */
  formFields: Record<string, SchemaObject>;
  /** Plans whose upload limits are those of another plan (`free` → `personal`). */
  uploadPlanOf(plan: Plan): UploadPlan;
  /** The generation form's field names that are files (schema `format: binary`, or an array of them). */
  fileFields: Set<string>;
  /** Validators compiled from the document. */
  validate: {
    language: (v: unknown) => boolean;
    aspectRatio: (v: unknown) => boolean;
    /** With the errors of its last call, as an Ajv validator has them. */
    generateForm: ((v: unknown) => boolean) & { readonly errors: ReturnType<typeof validatorFor>['errors'] };
  };
}

let model: SpecModel | undefined;

export function specModel(): SpecModel {
  if (model) return model;
  const spec = loadSpec();
  // The document's schemas are checked against the JSON Schema meta-schema by @videogen/openapi's own
  // tests; doing it again here would compile the meta-schema at every start (about 100 ms of the
  // start-up to first answer). Strict mode still applies to every schema compiled.
  const ajv = createAjv(spec, { validateSchema: false });
  // ajv-formats' uuid also accepts "urn:uuid:<id>"; an id in a path or a form is the bare UUID.
  ajv.addFormat('uuid', UUID_PATTERN);
  const schemas = spec.components.schemas;
  const form = schemas.GenerateVideoRequest;
  const formFields = form.properties ?? {};
  // The extensions' shapes as the document writes them (@videogen/openapi's tests hold its facts).
  const limits = form['x-upload-limits'] as {
    fields: Record<string, UploadFieldLimits>;
    plans?: Partial<Record<Plan, UploadPlan>>;
  };
  const fileFields = new Set<string>();
  for (const [name, prop] of Object.entries(formFields)) {
    if (prop.format === 'binary' || prop.items?.format === 'binary') fileFields.add(name);
  }
  // Compiled when first used: a start that answers a GET compiles nothing it does not need.
  const lazy = <F>(compile: () => F) => {
    let fn: F | undefined;
    return () => (fn ??= compile());
  };
  const language = lazy(() => validatorFor(ajv, '#/components/schemas/Language'));
  const aspectRatio = lazy(() => validatorFor(ajv, '#/components/schemas/AspectRatio'));
  const generateForm = lazy(() => validatorFor(ajv, '#/components/schemas/GenerateVideoRequest'));
  model = {
    spec,
    ajv,
    operations: listOperations(spec),
    // The enums the generated types were written from, read from the same document.
    languages: [...(schemas.Language.enum ?? [])] as Schemas['Language'][],
    aspectRatios: [...(schemas.AspectRatio.enum ?? [])] as Schemas['AspectRatio'][],
    combinations: form['x-valid-combinations'] as ValidCombination[],
    formFields,
    uploadLimits: limits.fields,
    uploadPlanOf: (plan) => limits.plans?.[plan] ?? (plan as UploadPlan),
    fileFields,
    validate: {
      language: (v) => language()(v) as boolean,
      aspectRatio: (v) => aspectRatio()(v) as boolean,
      generateForm: Object.defineProperty((v: unknown) => generateForm()(v) as boolean, 'errors', {
        get: () => generateForm().errors,
      }) as SpecModel['validate']['generateForm'],
    },
  };
  return model;
}

/** Rate-limit class of an operation, from its `x-rate-limit`. */
export function rateLimitOf(op: Operation): { class: string; requests: number; window_seconds: number } {
  const rl = op.operation['x-rate-limit'];
  if (!rl) throw new Error(`operation ${op.operationId} has no x-rate-limit`);
  return rl;
}
