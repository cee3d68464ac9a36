export interface StreamedUploadOptions {
  /** Base URL with /v1. */
  baseUrl: string;
  key: string;
  setting: string;
  field?: string;
  /** null: send the part as a text field (no filename). */
  filename?: string | null;
  /** Bytes of the generated file. */
  total: number;
  chunkBytes?: number;
}
export function streamedUpload(
  options: StreamedUploadOptions,
): Promise<{ status: number; text: string; sentWhenAnswered: number }>;
