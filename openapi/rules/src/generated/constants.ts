// generated, do not edit: written by openapi/scripts/generate-rules.mjs from openapi/dist/openapi.json
// (spec 2.0.0). Change openapi/openapi.yaml, then `npm run build -w @videogen/openapi`.
/* eslint-disable */

/** x-rate-limit classes, per account. */
export const RATE_LIMITS = {"A":{"requests":2,"windowMs":10000},"B":{"requests":5,"windowMs":10000}} as const;
export type RateClass = keyof typeof RATE_LIMITS;
/** x-concurrency-limit.max_running: videos generated (or converted) in parallel per account. */
export const MAX_RUNNING = 2;
/** components.schemas.PageEnvelope.items_per_page (fixed page size of list endpoints). */
export const PAGE_SIZE = 50;
/** x-polling of getVideo. */
export const POLLING = {"intervalMs":10000,"timeoutMs":600000,"until":["completed","failed"]} as const;
/** x-retry-policy: retries of a 5xx, the wait on a 503 without Retry-After, the 429 wait, and the (status, code) pairs never retried. */
export const RETRY_POLICY = {"maxRetries":3,"backoff":"exponential","serviceUnavailableDelayMs":[30000,60000],"rateLimitWait":"until-rate-limit-reset","noRetry":[[429,"INSUFFICIENT_CREDIT"]]} as const;
/** x-plans, and the plan whose upload limits each one uses (x-upload-limits.plans). */
export const PLANS = ["free","personal","business"] as const;
export type Plan = (typeof PLANS)[number];
export const PLAN_LIMITS_AS = {"free":"personal"} as const;
/** x-upload-limits of generateVideo (bytes), with the part content type from its encoding. */
export const UPLOAD_LIMITS = {"pdf_file":{"extensions":{"personal":[".pdf"],"business":[".pdf"]},"maxBytes":{"personal":100000000,"business":180000000},"contentType":"application/pdf"},"pptx_file":{"extensions":{"personal":[".pptx"],"business":[".pptx"]},"maxBytes":{"personal":100000000,"business":180000000},"contentType":"application/vnd.openxmlformats-officedocument.presentationml.presentation"},"audio_file":{"extensions":{"personal":[".mp3",".wav",".m4a",".aac"],"business":[".mp3",".wav",".m4a",".aac"]},"maxBytes":{"personal":50000000,"business":180000000},"contentType":"application/octet-stream"},"video_file":{"extensions":{"personal":[".mp4"],"business":[".mp4",".mov",".webm"]},"maxBytes":{"personal":50000000,"business":180000000},"contentType":"application/octet-stream"},"image_files":{"extensions":{"personal":[".png",".jpg",".jpeg",".webp"],"business":[".png",".jpg",".jpeg",".webp"]},"maxBytes":{"personal":10000000,"business":10000000},"maxItems":10,"contentType":"application/octet-stream"}} as const;
/** x-valid-combinations of generateVideo as [fields, optional fields] (each also with video_setting_id). */
export const VALID_COMBINATIONS = [[["text"],["image_files"]],[["pdf_file"],[]],[["pptx_file"],[]],[["text","pdf_file"],[]],[["audio_file"],[]],[["video_file"],[]]] as const;
/** x-valid-combinations with their input mode names. */
export const INPUT_MODES = [{"mode":"question/instruction","fields":["text"],"optional":["image_files"]},{"mode":"from-documents","fields":["pdf_file"],"optional":[]},{"mode":"from-documents","fields":["pptx_file"],"optional":[]},{"mode":"from-documents with instruction","fields":["text","pdf_file"],"optional":[]},{"mode":"from-audio","fields":["audio_file"],"optional":[]},{"mode":"from-video","fields":["video_file"],"optional":[]}] as const;
/** components.schemas.GenerateFieldName: the form fields of generateVideo a setting may list. */
export const GENERATE_FIELDS = ["text","pdf_file","pptx_file","audio_file","video_file","image_files"] as const;
/** components.schemas.Language (34 codes), and their English names (x-enumDescriptions). */
export const LANGUAGES = ["ja","en","zh-Hans","zh-Hant","ko","es","fr","de","it","pt","ru","hi","bn","id","th","vi","tl","ms","my","ne","mn","tr","sv","da","fi","pl","cs","sk","nl","ro","hr","bg","uk","el"] as const;
export type Language = (typeof LANGUAGES)[number];
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {"ja":"Japanese","en":"English","zh-Hans":"Chinese (Simplified)","zh-Hant":"Chinese (Traditional)","ko":"Korean","es":"Spanish","fr":"French","de":"German","it":"Italian","pt":"Portuguese","ru":"Russian","hi":"Hindi","bn":"Bengali","id":"Indonesian","th":"Thai","vi":"Vietnamese","tl":"Tagalog","ms":"Malay","my":"Burmese","ne":"Nepali","mn":"Mongolian","tr":"Turkish","sv":"Swedish","da":"Danish","fi":"Finnish","pl":"Polish","cs":"Czech","sk":"Slovak","nl":"Dutch","ro":"Romanian","hr":"Croatian","bg":"Bulgarian","uk":"Ukrainian","el":"Greek"};
/** components.schemas.AspectRatio. */
export const ASPECT_RATIOS = ["16:9","9:16","4:3","1:1","4:5","2:3","21:9"] as const;
export type AspectRatio = (typeof ASPECT_RATIOS)[number];
/** components.schemas.VideoState. */
export const VIDEO_STATUSES = ["running","completed","failed","expired"] as const;
export type VideoStatus = (typeof VIDEO_STATUSES)[number];
/** components.schemas.ErrorCode: every documented error code. */
export const ERROR_CODES = ["CONVERT_TARGET_REQUIRED","INVALID_LANGUAGE","INVALID_ASPECT_RATIO","LANGUAGE_NOT_SUPPORTED_BY_VOICES","CONVERT_NO_CHANGE","SOURCE_VIDEO_NOT_CONVERTIBLE","UNSUPPORTED_HEAVY_AVATAR","NOT_FOUND","INSUFFICIENT_CREDIT","SIMULTANEOUS_GENERATE_LIMIT","UNKNOWN_ERROR","INVALID_REQUEST","INVALID_VIDEO_SETTING","FILE_UPLOAD_ERROR","UNAUTHORIZED","FORBIDDEN","RATE_LIMIT_EXCEEDED","SERVICE_UNAVAILABLE","PAYLOAD_TOO_LARGE"] as const;
/** error_code → the statuses createConversion declares it under. */
export const CONVERSION_ERROR_CODES = {"CONVERT_TARGET_REQUIRED":[400],"INVALID_LANGUAGE":[400],"INVALID_ASPECT_RATIO":[400],"LANGUAGE_NOT_SUPPORTED_BY_VOICES":[400],"CONVERT_NO_CHANGE":[400],"SOURCE_VIDEO_NOT_CONVERTIBLE":[400],"UNSUPPORTED_HEAVY_AVATAR":[400],"INVALID_REQUEST":[400],"INSUFFICIENT_CREDIT":[403,429],"FORBIDDEN":[403],"NOT_FOUND":[404],"RATE_LIMIT_EXCEEDED":[429],"UNKNOWN_ERROR":[500],"SIMULTANEOUS_GENERATE_LIMIT":[503],"SERVICE_UNAVAILABLE":[503]} as const;
export type ConversionErrorCode = keyof typeof CONVERSION_ERROR_CODES;
/** The production server (servers), and the base path every operation path is relative to. */
export const PRODUCTION_BASE_URL = "https://api.video-generation.example/v1";
export const BASE_PATH = "/v1";
/** Every path parameter of the operations, as the document types it (its schema's type and format). */
export const PATH_PARAMETERS = {"video_id":{"type":"string","format":"uuid"}} as const;
export type PathParameterName = keyof typeof PATH_PARAMETERS;
/** One entry per operation (openapi/lib listOperations): its rate class, and whether it starts a video (x-concurrency-limit). */
export const OPERATIONS = [{"operationId":"generateVideo","method":"POST","path":"/videos/generate/","rateClass":"A","startsVideo":true},{"operationId":"listVideos","method":"GET","path":"/videos/","rateClass":"B","startsVideo":false},{"operationId":"getVideo","method":"GET","path":"/videos/{video_id}/","rateClass":"B","startsVideo":false},{"operationId":"getConversionOptions","method":"GET","path":"/videos/{video_id}/conversions/","rateClass":"B","startsVideo":false},{"operationId":"createConversion","method":"POST","path":"/videos/{video_id}/conversions/","rateClass":"A","startsVideo":true},{"operationId":"listVideoSettings","method":"GET","path":"/video-settings/","rateClass":"B","startsVideo":false}] as const;
export type OperationId = (typeof OPERATIONS)[number]['operationId'];
