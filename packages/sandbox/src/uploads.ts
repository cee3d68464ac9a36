// Streaming reader of the generation form. Files are never held in memory: each chunk is counted and
// dropped, and a file is rejected the moment it passes its plan's limit (x-upload-limits), so that
// the client gets its answer while it is still uploading.
import { extname } from 'node:path';
import type { FastifyRequest } from 'fastify';
import { ApiError, refusal } from './errors.js';

/** Every form the sandbox cannot read (the twin's `refusal.invalid_form`). */
const invalidForm = (message: string) => refusal('invalid_form', message);
import type { Plan, SpecModel } from './spec.js';

export interface UploadedFile {
  filename: string;
  bytes: number;
}

export interface GenerateForm {
  fields: Record<string, string>;
  files: Record<string, UploadedFile[]>;
}

const PLAN_NAMES: Record<string, string> = { personal: 'Personal', business: 'Business' };
/**
 * Longest `text` accepted, in UTF-8 bytes (DECISIONS: text limit). The interface shows no maximum;
 * this bounds what one request buffers and what one list page carries (50 prompts).
 */
export const MAX_TEXT_BYTES = 100_000;
/** Longest other known text field (`video_setting_id` is a 36-character UUID). */
export const MAX_OTHER_FIELD_BYTES = 1_000;

const mb = (bytes: number) => `${bytes / 1_000_000} MB`;

export async function readGenerateForm(request: FastifyRequest, plan: Plan, model: SpecModel): Promise<GenerateForm> {
  if (!request.isMultipart()) throw invalidForm('The request must be multipart/form-data.');
  const uploadPlan = model.uploadPlanOf(plan);
  const largest = Math.max(...Object.values(model.uploadLimits).map((l) => Math.max(...Object.values(l.max_bytes))));
  const form: GenerateForm = { fields: {}, files: {} };
  const properties = model.formFields;
  try {
    const parts = request.parts({
      // (throwFileSizeLimit is read by @fastify/multipart, missing from its option type.)
      // busboy would silently truncate at fileSize: keep it above every limit and count bytes here.
      limits: { fileSize: largest + 1, files: 64, parts: 64 },
      throwFileSizeLimit: false,
      // Every part comes as a stream, text fields too: a text is counted as it arrives and refused
      // the moment it passes its limit, instead of being buffered whole first.
      isPartAFile: () => true,
    } as Parameters<typeof request.parts>[0]);
    for await (const part of parts) {
      const name = part.fieldname;
      if (part.type !== 'file') continue; // (every part is a stream, see isPartAFile)
      if (isTextPart(part)) {
        if (model.fileFields.has(name)) throw invalidForm(`${name} must be sent as a file.`);
        if (name in form.fields) throw invalidForm(`${name} was given more than once.`);
        if (!(name in properties)) {
          for await (const _ of part.file); // unknown text fields are ignored, and never held
          continue;
        }
        form.fields[name] = await readText(part.file, name, name === 'text' ? MAX_TEXT_BYTES : MAX_OTHER_FIELD_BYTES);
        continue;
      }
      if (!model.fileFields.has(name)) {
        // A file under an unknown name is a client bug (e.g. `image_files[]`): silently dropping it would hide it.
        throw invalidForm(
          name in properties
            ? `${name} must be a text field, not a file.`
            : `Unknown file field "${name}": files go in ${[...model.fileFields].join(', ')} (repeat image_files for several images).`,
        );
      }
      const limits = model.uploadLimits[name];
      const list = (form.files[name] ??= []);
      if (properties[name].type !== 'array' && list.length) throw invalidForm(`${name} was given more than once.`);
      if (limits.max_items !== undefined && list.length >= limits.max_items) {
        throw refusal('too_many_images', `${name}: at most ${limits.max_items} files can be uploaded.`);
      }
      const filename = part.filename ?? '';
      const allowed = limits.extensions[uploadPlan];
      if (!allowed.includes(extname(filename).toLowerCase())) {
        throw refusal(
          'wrong_extension',
          `${name} "${filename}" has an unsupported format: the ${PLAN_NAMES[uploadPlan]} plan accepts ${allowed.join(', ')}.`,
        );
      }
      const max = limits.max_bytes[uploadPlan];
      let bytes = 0;
      for await (const chunk of part.file) {
        bytes += (chunk as Buffer).length;
        if (bytes > max) {
          throw refusal(
            'oversize_upload',
            `${name} is larger than ${mb(max)}, the limit of the ${PLAN_NAMES[uploadPlan]} plan.`,
          );
        }
      }
      list.push({ filename, bytes });
    }
  } catch (err) {
    abandonBody(request);
    throw asApiError(err);
  }
  return form;
}

/** busboy's own rule for a text part: no filename, and not sent as application/octet-stream. */
const isTextPart = (part: { filename?: string; mimetype?: string }) =>
  !part.filename && part.mimetype !== 'application/octet-stream';

async function readText(stream: AsyncIterable<Buffer>, name: string, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of stream) {
    bytes += chunk.length;
    if (bytes > max) throw invalidForm(`${name} is longer than ${max} bytes.`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Stop parsing and discard the rest of the body, so the answer goes out now and the socket drains. */
function abandonBody(request: FastifyRequest) {
  const raw = request.raw;
  raw.unpipe();
  if (!raw.readableEnded) raw.resume();
}

function asApiError(thrown: unknown): ApiError {
  if (thrown instanceof ApiError) return thrown;
  // What @fastify/multipart and busboy throw: an Error, with a code for the limits.
  const err = thrown as { code?: string; message?: string } | undefined;
  switch (err?.code) {
    case 'FST_FILES_LIMIT':
      return refusal('too_many_images', 'Too many files in one request.');
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return invalidForm('Too many form fields in one request.');
    case 'FST_PROTO_VIOLATION':
      return invalidForm('Invalid form field name.');
    case 'FST_MP_PREMATURE_CLOSE':
      return invalidForm('The connection closed before the form was complete: nothing was created.');
    default:
      // A form cut short (its closing boundary missing) is refused whole: nothing is created, no credit spent.
      if (/unexpected end of multipart data/i.test(err?.message ?? ''))
        return invalidForm(
          'The multipart body ended before its closing boundary (--BOUNDARY--): the form is incomplete, nothing was created.',
        );
      // busboy's messages: "Unexpected end of form", "Malformed part header", "Boundary not found"...
      return invalidForm(`Malformed multipart body: ${err?.message ?? String(thrown)}`);
  }
}
