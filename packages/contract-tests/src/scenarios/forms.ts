// The forms of the valid combinations of POST /videos/generate/ (x-valid-combinations, through the
// rules' INPUT_MODES). Tiny but real files: the service may sniff them, the sandbox only looks at the name.
import { INPUT_MODES } from '@videogen/openapi/rules';
import type { FixtureName } from '../shapes.ts';

/** One valid combination of form fields (each also with video_setting_id), and the interface mode it belongs to. */
export interface Combination {
  /** `text_pdf_file`: the fields joined, the suffix of its check `generate_mode_…`. */
  key: string;
  mode: string;
  fields: readonly string[];
  /** The combination with its optional fields (text with image_files). */
  withOptional: boolean;
}

/** Every combination of x-valid-combinations, and each one's variant with its optional fields. */
export const COMBINATIONS: readonly Combination[] = INPUT_MODES.flatMap((m) => {
  const base = { key: m.fields.join('_'), mode: m.mode, fields: m.fields, withOptional: false };
  const all = [...m.fields, ...m.optional];
  return m.optional.length ? [base, { key: all.join('_'), mode: m.mode, fields: all, withOptional: true }] : [base];
});

/**
 * The setting fixture of each combination: a setting whose request_fields are exactly its fields
 * (DECISIONS #26). A combination the spec adds without a fixture here stops the suite at start.
 */
const SETTING_FIXTURE: Record<string, FixtureName> = {
  text: 'videoSettingId',
  text_image_files: 'textImagesSettingId',
  pdf_file: 'pdfSettingId',
  pptx_file: 'pptxSettingId',
  text_pdf_file: 'textPdfSettingId',
  audio_file: 'audioSettingId',
  video_file: 'videoFileSettingId',
};

export function settingFixture(c: Combination): FixtureName {
  const f = SETTING_FIXTURE[c.key];
  if (!f)
    throw new Error(
      `the contract suite has no setting fixture for the combination ${c.fields.join(' + ')}: add it to scenarios/forms.ts`,
    );
  return f;
}

/** The fields of a combination as a reader sees them (`text + 2 × image_files`). */
export const describeFields = (fields: readonly string[]) =>
  fields.map((f) => (f === 'image_files' ? '2 × image_files' : f)).join(' + ');
const b = (...parts: Array<string | number[]>) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));
const PNG_1x1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const PDF = b(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);
/** An empty ZIP archive (end of central directory only): the container of a .pptx. */
const PPTX = b('PK', [5, 6], new Array(18).fill(0));
/** An ID3v2.3 header followed by one silent MPEG-1 Layer III frame header. */
const MP3 = b('ID3', [3, 0, 0, 0, 0, 0, 0], [0xff, 0xfb, 0x90, 0x00]);
/** An MP4 `ftyp` box. */
const MP4 = b([0, 0, 0, 0x18], 'ftyp', 'isom', [0, 0, 2, 0], 'isom', 'mp41');

const FILES: Record<string, { filename: string; type: string; bytes: Buffer }> = {
  pdf_file: { filename: 'contract.pdf', type: 'application/pdf', bytes: PDF },
  pptx_file: {
    filename: 'contract.pptx',
    type: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    bytes: PPTX,
  },
  audio_file: { filename: 'contract.mp3', type: 'audio/mpeg', bytes: MP3 },
  video_file: { filename: 'contract.mp4', type: 'video/mp4', bytes: MP4 },
  image_files: { filename: 'contract.png', type: 'image/png', bytes: PNG_1x1 },
};

const file = (field: string) => new Blob([FILES[field].bytes], { type: FILES[field].type });

/** A form with the given fields: `text` a short instruction, a file field its tiny file, `image_files` `images` parts. */
export function modeForm(setting: string | undefined, fields: readonly string[], images = 2): FormData {
  const form = new FormData();
  if (setting !== undefined) form.append('video_setting_id', setting);
  for (const field of fields) {
    if (field === 'text') form.append('text', 'Contract suite: a one-minute summary of the attached material.');
    else if (field === 'image_files')
      for (let i = 1; i <= images; i++) form.append('image_files', file(field), `contract-${i}.png`);
    else form.append(field, file(field), FILES[field].filename);
  }
  return form;
}
