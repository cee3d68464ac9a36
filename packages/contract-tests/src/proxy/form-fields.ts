// The fields of a multipart body as a HAR records them (`postData.params`: each part's name, a text
// field's value, a file's name; never a file's bytes), read by busboy, so that a recording shows what a
// generation asked for (its input mode) and `videogen-contract calibrate --from` can time each mode.
import { createRequire } from 'node:module';

export interface FormField {
  name: string;
  value?: string;
  fileName?: string;
}

/** A text field's value is recorded up to this many characters. */
const VALUE_CHARS = 4096;

interface BusboyParser {
  on(event: 'field', fn: (name: string, value: string) => void): BusboyParser;
  on(event: 'file', fn: (name: string, stream: NodeJS.ReadableStream, fileName: string) => void): BusboyParser;
  on(event: 'finish' | 'error', fn: (err?: Error) => void): BusboyParser;
  end(bytes: Buffer): void;
}
// @fastify/busboy is CommonJS without an ES entry: loaded as such.
const Busboy = createRequire(import.meta.url)('@fastify/busboy') as new (o: {
  headers: Record<string, string>;
}) => BusboyParser;

/** The fields of a multipart body held in memory; undefined when it cannot be read as multipart. */
export function formFields(bytes: Buffer, contentType: string): Promise<FormField[] | undefined> {
  return new Promise((resolve) => {
    const fields: FormField[] = [];
    try {
      const parser = new Busboy({ headers: { 'content-type': contentType } });
      parser.on('field', (name, value) => fields.push({ name, value: value.slice(0, VALUE_CHARS) }));
      parser.on('file', (name, stream, fileName) => {
        fields.push({ name, fileName });
        stream.resume();
      });
      parser.on('finish', () => resolve(fields));
      parser.on('error', () => resolve(undefined));
      parser.end(bytes);
    } catch {
      resolve(undefined);
    }
  });
}
