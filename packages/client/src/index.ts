export { createClient } from './client.js';
export type { ClientOptions, ConvertOptions, GenerateOptions, RequestOptions, Video, VideoClient, VideoSetting } from './client.js';
export {
  VideoApiError, isVideoApiError, AuthenticationError, NotFoundError, RateLimitError, InsufficientCreditError,
  ConcurrencyLimitError, ValidationError, ServerError, TimeoutError, NetworkError, VideoFailedError, VideoExpiredError,
  VideoNotReadyError, UnexpectedResponseError,
} from './errors.js';
export type { ErrorCode, ErrorInit, ErrorKind } from './errors.js';
export { LANGUAGES, LANGUAGE_NAMES, ASPECT_RATIOS } from '@videogen/openapi/rules';
export type { Clock } from './clock.js';
export type { TrafficLogger } from './traffic-log.js';
export type { RetryOptions } from './retry.js';
export type { ListOptions, Page, Paginated } from './pagination.js';
export type { WaitOptions } from './polling.js';
export type { DownloadOptions } from './download.js';
export type { ConversionTarget } from './conversions.js';
export type { FileInput, GenerateInput, Plan, UploadProgress } from './uploads.js';
export type { paths, components, operations } from './generated/openapi.js';

import type { components } from './generated/openapi.js';
type Schemas = components['schemas'];
export type VideoListItem = Schemas['VideoListItem'];
export type ConversionOptions = Schemas['ConversionOptions'];
export type Language = Schemas['Language'];
export type AspectRatio = Schemas['AspectRatio'];
export type VideoState = Schemas['VideoState'];
