// Behaviours and their values in words, for the changelog of `calibrate --diff` and the report of
// `compare`: "rate-limit headers RateLimit-* → X-RateLimit-*", "generation (text) p50 45 s → 70 s".
import { describeDistribution, type Fitted } from './fit.ts';

const FAMILY: Record<string, string> = {
  ratelimit: 'RateLimit-*',
  'ratelimit-structured': 'RateLimit (structured)',
  'x-ratelimit': 'X-RateLimit-*',
  none: 'none',
};

const REFUSAL: Record<string, string> = {
  missing_credentials: 'a request without a key',
  malformed_credentials: 'an Authorization that is not Bearer',
  unknown_key: 'an unknown key',
  rate_limited: 'a request over the rate limit',
  malformed_id: 'a malformed video_id',
  unknown_id: 'an unknown video_id',
  bad_page: 'a bad page',
  invalid_form: 'a form it cannot read',
  bad_combination: 'an invalid combination of fields',
  empty_text: 'an empty text',
  unknown_setting: 'an unknown video setting',
  setting_mismatch: 'fields that do not fit the setting',
  oversize_upload: 'a file over the plan’s size',
  wrong_extension: 'a file of the wrong extension',
  too_many_images: 'too many images',
  generation_no_credit: 'a generation without credit',
  generation_concurrency: 'a generation over the concurrency limit',
  conversion_body_invalid: 'a conversion body that is no JSON object',
  payload_too_large: 'a body too large',
};

/** A behaviour key as a reader names it. */
export function behaviourName(key: string): string {
  const parts = key.split('.');
  switch (parts[0]) {
    case 'success':
      return `success status of ${parts[2]}`;
    case 'refusal':
      return `refusal of ${REFUSAL[parts[1]] ?? parts[1]}`;
    case 'paging':
      return parts[1] === 'videos_order' ? 'order of GET /videos/' : 'a page past the end';
    case 'rate_limit':
      if (parts[1] === 'headers') return 'rate-limit headers';
      return `class ${parts[1]} limiter ${{ style: 'style', limit: 'limit', window_seconds: 'window', refused_count: 'counting refused requests' }[parts[2]] ?? parts[2]}`;
    case 'retry_after':
      return `Retry-After of ${{ rate_limited: 'the rate-limit 429', concurrency: 'the concurrency 503', unavailable: 'another 503' }[parts[1]] ?? parts[1]}`;
    case 'concurrency':
      return 'concurrency limit';
    case 'copyright':
      return 'copyright items';
    case 'body':
      return parts[1] === 'timestamps' ? 'timestamps' : `extra fields of ${parts[2] === 'error' ? 'errors' : parts[2]}`;
    case 'encoding':
      return 'content encoding';
    case 'download':
      return `download ${{ origin: 'host', query: 'URL query', ttl_seconds: 'URL lifetime', authorization_header: 'with an Authorization header', refusal: 'refusal (expired or tampered)' }[parts[1]] ?? parts[1]}`;
    case 'latency':
      return `latency of ${parts[1]}`;
    case 'duration':
      return parts[1] === 'conversion' ? 'conversion time' : `generation time (${parts.slice(2).join('.')})`;
    case 'lifecycle':
      return 'expiry of a completed video';
    case 'transient':
      return 'transient 5xx';
    case 'rules':
      return 'what request_fields requires';
    default:
      return key;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/** A behaviour's value in a few words. */
export function valueWords(key: string, value: unknown): string {
  if (value === undefined) return '(none)';
  if (key.startsWith('latency.') || key.startsWith('duration.')) return describeDistribution(value as Fitted);
  if (!isObject(value)) return typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value);
  if ('error_code' in value && 'status' in value && !('answer' in value) && !('form' in value))
    return `${value.status} ${value.error_code}`;
  if (key === 'rate_limit.headers')
    return `${FAMILY[String(value.family)] ?? value.family}${value.on === 'rate_limited_only' ? ' (on 429s only)' : ''}${value.reset === 'epoch_seconds' ? ' (epoch reset)' : ''}`;
  if (key === 'paging.past_end')
    return value.answer === 'refused'
      ? `refused ${value.status} ${value.error_code}`
      : String(value.answer).replace('_', ' ');
  if (key === 'copyright.items') return value.form === 'object' ? `objects (text in ${value.text_field})` : 'strings';
  if (key === 'body.timestamps')
    return `…${value.fraction_digits ? `.${'0'.repeat(Number(value.fraction_digits))}` : ''}${value.utc}`;
  if (key === 'encoding.api') {
    const codings = (value.codings as string[]) ?? [];
    return codings.length ? `${codings.join(', ')}${value.min_bytes ? ` from ${value.min_bytes} bytes` : ''}` : 'none';
  }
  if (key === 'download.query') {
    const e = value.expires as Record<string, unknown>;
    const s = value.signature as Record<string, unknown>;
    return `${e?.name} (${String(e?.form).replace('_', ' ')}), ${s?.name}`;
  }
  if (key === 'download.authorization_header' || key === 'download.refusal')
    return value.answer === 'ignored'
      ? 'ignored'
      : `${value.answer === 'refused' ? 'refused ' : ''}${value.status} ${value.form === 'xml' ? 'XML ' : ''}${value.error_code}`;
  if (key === 'transient.errors') {
    const rate = Number(value.rate);
    const answers = (value.answers as Array<Record<string, unknown>> | undefined) ?? [];
    return rate
      ? `${Math.round(rate * 1000) / 10}% (${answers.map((a) => `${a.status} ${a.form}`).join(', ')})`
      : 'none';
  }
  if (key.startsWith('body.extra_fields.')) {
    const names = [
      ...Object.keys((value.fields as object) ?? {}),
      ...Object.keys((value.item_fields as object) ?? {}).map((k) => `results[].${k}`),
    ];
    return names.length ? names.join(', ') : 'none';
  }
  return JSON.stringify(value);
}
