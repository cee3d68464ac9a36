// The error envelope of interface 7.1, thrown from anywhere and rendered by the server's handler.
export class ApiError extends Error {
  /** Fields added to the envelope (the alternative personality's `request_id`). */
  extra?: Record<string, unknown>;
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
  get body() {
    return { error_code: this.code, error: this.message, ...this.extra };
  }
}

export const envelope = (code: string, error: string) => ({ error_code: code, error });
export const invalidRequest = (message: string) => new ApiError(400, 'INVALID_REQUEST', message);
export const notFound = (what: string) => new ApiError(404, 'NOT_FOUND', `${what} was not found.`);
export const fileUploadError = (message: string) => new ApiError(400, 'FILE_UPLOAD_ERROR', message);
