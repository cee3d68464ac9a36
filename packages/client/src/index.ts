export { createClient } from './client.js';
export type { ClientOptions, Video, VideoClient, VideoSetting } from './client.js';
export type { Recovered, RequestOptions, RetryOptions } from './transport.js';
export { APIPromise } from './api-promise.js';
export type { WithResponse } from './api-promise.js';
export {
  VideoApiError,
  isVideoApiError,
  AuthenticationError,
  NotFoundError,
  RateLimitError,
  InsufficientCreditError,
  ConcurrencyLimitError,
  ValidationError,
  ServerError,
  TimeoutError,
  NetworkError,
  VideoFailedError,
  VideoExpiredError,
  VideoNotReadyError,
  UnexpectedResponseError,
  ResponseTooLargeError,
  DownloadError,
  WebhookVerificationError,
} from './errors.js';
// The receiving side of a relay's webhooks, also alone as @videogen/client/webhooks.
export * from './webhooks-entry.js';
export { ANNOUNCE_PATH, RELAY_URL_VARIABLE, relayToken, relayUrlProblem } from './relay-announce.js';
export type { Announcement, AnnounceOptions } from './relay-announce.js';
export {
  activeTracer,
  contextFromTraceHeaders,
  endHttpSpan,
  startHttpSpan,
  traceHeaders,
} from './tracing.js';
export type { HttpAttempt } from './tracing.js';
export type { ErrorCode, ErrorInit, ErrorKind, TimeoutDeadline } from './errors.js';
export { LANGUAGES, LANGUAGE_NAMES, ASPECT_RATIOS } from '@videogen/openapi/rules';
export type { Clock } from './clock.js';
export type { PacerStore, ScheduleSnapshot, WaitNotice } from '@videogen/openapi/rules';
export type { Logger, LogLevel, TrafficLogger } from './logger.js';
export type { ListOptions, Page } from './pagination.js';
export { Paginated } from './pagination.js';
export type { WaitOptions } from './polling.js';
export type { DownloadOptions } from './download.js';
export type { ConversionTarget, ConvertOptions } from './resources/conversions.js';
export type { GenerateOptions } from './resources/videos.js';
export { Videos } from './resources/videos.js';
export { Settings } from './resources/settings.js';
export { Conversions } from './resources/conversions.js';
export type { FileInput, GenerateInput, Plan, UploadProgress } from './uploads.js';
export type { paths, components, operations } from '@videogen/openapi/types';

import type { components } from '@videogen/openapi/types';
type Schemas = components['schemas'];
export type VideoListItem = Schemas['VideoListItem'];
export type ConversionOptions = Schemas['ConversionOptions'];
export type Language = Schemas['Language'];
export type AspectRatio = Schemas['AspectRatio'];
export type VideoState = Schemas['VideoState'];
