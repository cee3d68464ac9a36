// src/client.ts
import createFetchClient from "openapi-fetch";

// ../../openapi/dist/rules/generated/constants.js
var RATE_LIMITS = { "A": { "requests": 2, "windowMs": 1e4 }, "B": { "requests": 5, "windowMs": 1e4 } };
var MAX_RUNNING = 2;
var PAGE_SIZE = 50;
var POLLING = { "intervalMs": 1e4, "timeoutMs": 6e5, "until": ["completed", "failed"] };
var RETRY_POLICY = { "maxRetries": 3, "backoff": "exponential", "serviceUnavailableDelayMs": [3e4, 6e4], "rateLimitWait": "until-rate-limit-reset", "noRetry": [[429, "INSUFFICIENT_CREDIT"]] };
var PLAN_LIMITS_AS = { "free": "personal" };
var UPLOAD_LIMITS = { "pdf_file": { "extensions": { "personal": [".pdf"], "business": [".pdf"] }, "maxBytes": { "personal": 1e8, "business": 18e7 }, "contentType": "application/pdf" }, "pptx_file": { "extensions": { "personal": [".pptx"], "business": [".pptx"] }, "maxBytes": { "personal": 1e8, "business": 18e7 }, "contentType": "application/vnd.openxmlformats-officedocument.presentationml.presentation" }, "audio_file": { "extensions": { "personal": [".mp3", ".wav", ".m4a", ".aac"], "business": [".mp3", ".wav", ".m4a", ".aac"] }, "maxBytes": { "personal": 5e7, "business": 18e7 }, "contentType": "application/octet-stream" }, "video_file": { "extensions": { "personal": [".mp4"], "business": [".mp4", ".mov", ".webm"] }, "maxBytes": { "personal": 5e7, "business": 18e7 }, "contentType": "application/octet-stream" }, "image_files": { "extensions": { "personal": [".png", ".jpg", ".jpeg", ".webp"], "business": [".png", ".jpg", ".jpeg", ".webp"] }, "maxBytes": { "personal": 1e7, "business": 1e7 }, "maxItems": 10, "contentType": "application/octet-stream" } };
var VALID_COMBINATIONS = [[["text"], ["image_files"]], [["pdf_file"], []], [["pptx_file"], []], [["text", "pdf_file"], []], [["audio_file"], []], [["video_file"], []]];
var LANGUAGES = ["ja", "en", "zh-Hans", "zh-Hant", "ko", "es", "fr", "de", "it", "pt", "ru", "hi", "bn", "id", "th", "vi", "tl", "ms", "my", "ne", "mn", "tr", "sv", "da", "fi", "pl", "cs", "sk", "nl", "ro", "hr", "bg", "uk", "el"];
var LANGUAGE_NAMES = { "ja": "Japanese", "en": "English", "zh-Hans": "Chinese (Simplified)", "zh-Hant": "Chinese (Traditional)", "ko": "Korean", "es": "Spanish", "fr": "French", "de": "German", "it": "Italian", "pt": "Portuguese", "ru": "Russian", "hi": "Hindi", "bn": "Bengali", "id": "Indonesian", "th": "Thai", "vi": "Vietnamese", "tl": "Tagalog", "ms": "Malay", "my": "Burmese", "ne": "Nepali", "mn": "Mongolian", "tr": "Turkish", "sv": "Swedish", "da": "Danish", "fi": "Finnish", "pl": "Polish", "cs": "Czech", "sk": "Slovak", "nl": "Dutch", "ro": "Romanian", "hr": "Croatian", "bg": "Bulgarian", "uk": "Ukrainian", "el": "Greek" };
var ASPECT_RATIOS = ["16:9", "9:16", "4:3", "1:1", "4:5", "2:3", "21:9"];
var PRODUCTION_BASE_URL = "https://api.video-generation.example/v1";
var BASE_PATH = "/v1";
var OPERATIONS = [{ "operationId": "generateVideo", "method": "POST", "path": "/videos/generate/", "rateClass": "A", "startsVideo": true }, { "operationId": "listVideos", "method": "GET", "path": "/videos/", "rateClass": "B", "startsVideo": false }, { "operationId": "getVideo", "method": "GET", "path": "/videos/{video_id}/", "rateClass": "B", "startsVideo": false }, { "operationId": "getConversionOptions", "method": "GET", "path": "/videos/{video_id}/conversions/", "rateClass": "B", "startsVideo": false }, { "operationId": "createConversion", "method": "POST", "path": "/videos/{video_id}/conversions/", "rateClass": "A", "startsVideo": true }, { "operationId": "listVideoSettings", "method": "GET", "path": "/video-settings/", "rateClass": "B", "startsVideo": false }];

// ../../openapi/dist/rules/operations.js
var patterns = /* @__PURE__ */ OPERATIONS.map((op) => ({
  op,
  re: new RegExp(`^${op.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`)
}));
function operationFor(method, pathname) {
  const m = method.toUpperCase();
  let path = pathname.split(/[?#]/)[0];
  const at = path.indexOf(`${BASE_PATH}/`);
  if (at >= 0)
    path = path.slice(at + BASE_PATH.length);
  if (!path.endsWith("/"))
    path += "/";
  return patterns.find((p) => p.op.method === m && p.re.test(path))?.op;
}

// ../../openapi/dist/rules/conversion.js
var problem = (kind, error_code, field, message, allowed) => ({ kind, ...error_code && { error_code }, status: 400, field, message, ...allowed && { allowed } });
var has = (list2, v) => typeof v === "string" && list2.includes(v);
function conversionProblem(target, source) {
  const { language: l, aspect_ratio: a } = target;
  if (l === void 0 && a === void 0) {
    return problem("target_required", "CONVERT_TARGET_REQUIRED", "language", "Give language, aspect_ratio, or both.");
  }
  if (l !== void 0 && !has(LANGUAGES, l)) {
    return problem("invalid_language", "INVALID_LANGUAGE", "language", `language ${JSON.stringify(l)} is not a supported language code.`, LANGUAGES);
  }
  if (a !== void 0 && !has(ASPECT_RATIOS, a)) {
    return problem("invalid_aspect_ratio", "INVALID_ASPECT_RATIO", "aspect_ratio", `aspect_ratio ${JSON.stringify(a)} is not a supported aspect ratio.`, ASPECT_RATIOS);
  }
  if (!source)
    return void 0;
  if (source.notConvertibleReason === "real_avatar") {
    return problem("heavy_avatar", "UNSUPPORTED_HEAVY_AVATAR", "video_id", "The source video contains a real avatar and cannot be converted.");
  }
  if (!source.is_convertible) {
    return source.notConvertibleReason === "no_video_data" ? problem("source_not_convertible", "SOURCE_VIDEO_NOT_CONVERTIBLE", "video_id", "The source video has no generated video data (or is not completed) and cannot be converted.") : problem("not_convertible", void 0, "video_id", "The source video cannot be converted (is_convertible is false; the service says why).");
  }
  const changesLanguage = l !== void 0 && l !== source.current_language;
  const changesRatio = a !== void 0 && a !== source.current_aspect_ratio;
  if (!changesLanguage && !changesRatio) {
    return problem("no_change", "CONVERT_NO_CHANGE", l !== void 0 ? "language" : "aspect_ratio", `The source video already has language "${source.current_language}" and aspect ratio "${source.current_aspect_ratio}".`);
  }
  if (changesLanguage && !source.available_languages.includes(l)) {
    return problem("language_not_available", "LANGUAGE_NOT_SUPPORTED_BY_VOICES", "language", `language "${l}" is not in the available_languages of the source video.`, source.available_languages);
  }
  return void 0;
}

// ../../openapi/dist/rules/form.js
var list = (fields) => fields.join(" + ");
var combos = /* @__PURE__ */ VALID_COMBINATIONS.map(([req, opt]) => ({ req, opt }));
var allCombos = /* @__PURE__ */ combos.map(({ req, opt }) => [...req, ...opt]);
function formProblem(fields, requestFields) {
  const given = [...new Set(fields.filter((f) => f !== "video_setting_id"))];
  if (!given.length) {
    return { kind: "no_input", message: `Give an input: one of ${allCombos.map(list).join("; ")}.`, allowed: allCombos };
  }
  const fits = combos.find(({ req, opt }) => req.every((f) => given.includes(f)) && given.every((f) => req.includes(f) || opt.includes(f)));
  if (!fits) {
    return {
      kind: "invalid_combination",
      message: `${list(given)} is not a valid combination: use one of ${allCombos.map(list).join("; ")}.`,
      allowed: allCombos
    };
  }
  if (!requestFields)
    return void 0;
  const extra = given.find((f) => !requestFields.includes(f));
  if (extra) {
    return {
      kind: "field_not_in_setting",
      field: extra,
      message: `The video setting is not used with ${extra}: it takes ${list(requestFields)}.`,
      allowed: [requestFields]
    };
  }
  const missing = requestFields.find((f) => f !== "video_setting_id" && !given.includes(f) && !fits.opt.includes(f));
  if (missing) {
    return {
      kind: "setting_field_missing",
      field: missing,
      message: `The video setting is used with ${list(requestFields)}: ${missing} is missing.`,
      allowed: [requestFields]
    };
  }
  return void 0;
}

// ../../openapi/dist/rules/headers.js
var MAX_RETRY_AFTER_MS = 60 * 60 * 1e3;
function headerValue(h, name) {
  if (typeof h.get === "function")
    return h.get(name) ?? void 0;
  const wanted = name.toLowerCase();
  for (const [k, v] of Object.entries(h)) {
    if (k.toLowerCase() !== wanted || v == null)
      continue;
    return Array.isArray(v) ? v.join(", ") : String(v);
  }
  return void 0;
}
var SECONDS = /^\d+(?:\.\d+)?$/;
var HTTP_DATE = /^(?:[A-Za-z]{3,9}, \d{2}[ -][A-Za-z]{3}[ -]\d{2,4} \d{2}:\d{2}:\d{2} GMT|[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4})$/;
function retryAfterMs(value, nowMs = Date.now()) {
  const v = value?.trim();
  if (!v)
    return void 0;
  let ms;
  if (SECONDS.test(v))
    ms = Number(v) * 1e3;
  else if (HTTP_DATE.test(v))
    ms = Date.parse(v) - nowMs;
  else
    return void 0;
  if (Number.isNaN(ms))
    return void 0;
  return Math.max(0, Math.ceil(ms));
}
function parseRetryAfter(value, nowMs = Date.now()) {
  const ms = retryAfterMs(value, nowMs);
  return ms === void 0 ? void 0 : Math.min(ms, MAX_RETRY_AFTER_MS);
}
function items(value) {
  return value.split(",").map((part) => part.trim()).filter(Boolean).map((part) => {
    const [head, ...params] = part.split(";").map((s) => s.trim());
    const map = {};
    for (const p of params) {
      const eq = p.indexOf("=");
      if (eq > 0)
        map[p.slice(0, eq).trim().toLowerCase()] = p.slice(eq + 1).trim().replace(/^"(.*)"$/, "$1");
    }
    return [head, map];
  });
}
var number = (s) => s !== void 0 && SECONDS.test(s.trim()) ? Number(s) : void 0;
function parseRateLimitHeaders(headers) {
  const info = { policies: [] };
  const policy = headerValue(headers, "ratelimit-policy");
  if (policy) {
    for (const [head, params] of items(policy)) {
      const limit2 = number(params.q) ?? number(head);
      const window = number(params.w);
      if (limit2 === void 0 || window === void 0 || window <= 0)
        continue;
      const name = number(head) === void 0 ? head.replace(/^"(.*)"$/, "$1") : void 0;
      info.policies.push({ ...name && { name }, limit: limit2, windowMs: window * 1e3 });
    }
  }
  const first = (name) => {
    const v = headerValue(headers, name);
    return v === void 0 ? void 0 : number(items(v)[0]?.[0]);
  };
  const limit = first("ratelimit-limit");
  const remaining = first("ratelimit-remaining");
  const reset = first("ratelimit-reset");
  const combined = headerValue(headers, "ratelimit");
  const c = combined ? items(combined)[0]?.[1] : void 0;
  const l = limit ?? number(c?.q) ?? info.policies[0]?.limit;
  const r = remaining ?? number(c?.r);
  const t = reset ?? number(c?.t);
  if (l !== void 0)
    info.limit = l;
  if (r !== void 0)
    info.remaining = r;
  if (t !== void 0)
    info.resetMs = Math.min(Math.ceil(t * 1e3), MAX_RETRY_AFTER_MS);
  return info;
}

// ../../openapi/dist/rules/errors.js
var noRetry = (status, code) => code !== void 0 && RETRY_POLICY.noRetry.some(([s, c]) => s === status && c === code);
function classifyError(status, error_code) {
  const code = error_code ?? void 0;
  const kind = kindOf(status, code);
  if (noRetry(status, code))
    return { kind, retryable: false, wait: "none" };
  if (status === 429)
    return { kind, retryable: true, wait: "rate-limit" };
  if (status === 503)
    return { kind, retryable: true, wait: "server-load" };
  if (status >= 500 && status <= 599)
    return { kind, retryable: true, wait: "backoff" };
  return { kind, retryable: false, wait: "none" };
}
function kindOf(status, code) {
  if (code === "INSUFFICIENT_CREDIT" && (status === 429 || status === 403))
    return "insufficient_credit";
  if (status === 429)
    return "rate_limit";
  if (status === 401 || status === 403)
    return "auth";
  if (status === 404)
    return "not_found";
  if (code === "SIMULTANEOUS_GENERATE_LIMIT")
    return "concurrency";
  if (status === 503)
    return "unavailable";
  if (status >= 500 && status <= 599)
    return "server";
  if (status === 400 || status === 413 || status === 422)
    return "validation";
  return "api";
}

// ../../openapi/dist/rules/sleep.js
var MAX_TIMER_MS = 2 ** 31 - 1;
async function sleep(ms, signal) {
  for (let left = ms; left > MAX_TIMER_MS; left -= MAX_TIMER_MS)
    await sleepOnce(MAX_TIMER_MS, signal);
  await sleepOnce(ms % MAX_TIMER_MS || (ms > 0 ? MAX_TIMER_MS : 0), signal);
}
function sleepOnce(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted)
      return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener("abort", abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(signal.reason);
    }
    signal?.addEventListener("abort", abort, { once: true });
  });
}

// ../../openapi/dist/rules/pacer.js
var PacerWaitError = class extends Error {
  rateClass;
  waitMs;
  maxWaitMs;
  retryAfterMs;
  retryAfter;
  constructor(rateClass, waitMs, maxWaitMs, retryAfterMs2, retryAfter) {
    super(`waiting ${Math.ceil(waitMs / 1e3)} s for a class ${rateClass} request exceeds the ceiling of ${Math.ceil(maxWaitMs / 1e3)} s`);
    this.rateClass = rateClass;
    this.waitMs = waitMs;
    this.maxWaitMs = maxWaitMs;
    this.retryAfterMs = retryAfterMs2;
    this.retryAfter = retryAfter;
    this.name = "PacerWaitError";
  }
};
var Pacer = class {
  now;
  sleep;
  margin;
  maxWaitMs;
  /** Target time per real time: 1 for the real service, 1/60 for a sandbox at 60×. */
  scale;
  accounts = /* @__PURE__ */ new Map();
  sleepers = /* @__PURE__ */ new Set();
  /** Off for targets without limits (a stateless mock). */
  enabled = true;
  stats = { waitedMs: 0, limited: { A: 0, B: 0 }, full: 0 };
  constructor(options = {}) {
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? sleep;
    this.margin = options.margin ?? 0.01;
    this.maxWaitMs = options.maxWaitMs ?? 15 * 6e4;
    if (options.timeScale && options.timeScale > 0)
      this.scale = 1 / options.timeScale;
  }
  /** The class's window and limit in force: the server's statement, else the spec's (scaled). */
  limitOf(rateClass, account = "") {
    const learned = this.account(account).classes[rateClass].learned;
    if (learned)
      return learned;
    const nominal = RATE_LIMITS[rateClass];
    return { limit: nominal.requests, windowMs: nominal.windowMs * (this.scale ?? 1) };
  }
  /** Time between two requests of the class, margin and slowdown included. */
  intervalOf(rateClass, account = "") {
    const { limit, windowMs } = this.limitOf(rateClass, account);
    const base = windowMs / limit * this.account(account).classes[rateClass].slowdown;
    return base * (1 + this.margin) + 1;
  }
  /** Waits until the request may go, then holds its place until `settle`. */
  async acquire(options) {
    const { account = "", rateClass, startsVideo = false, signal } = options;
    const state = this.account(account);
    const cls = state.classes[rateClass];
    for (let checked2 = false; this.enabled; ) {
      signal?.throwIfAborted();
      let wait = this.rateWait(cls, rateClass, account);
      if (wait === 0 && startsVideo) {
        wait = Math.max(0, state.fullUntil - this.now());
        if (wait === 0 && this.isFull(state)) {
          const [oldest] = state.running;
          if (!checked2 && oldest && options.checkRunning) {
            checked2 = true;
            await options.checkRunning(oldest).catch(() => {
            });
            continue;
          }
          wait = POLLING.intervalMs * (this.scale ?? 1);
          checked2 = false;
        }
      }
      if (wait === 0)
        break;
      if (wait > this.maxWaitMs)
        throw new PacerWaitError(rateClass, wait, this.maxWaitMs, cls.retryAfterMs, cls.retryAfter);
      await this.pause(wait, signal);
    }
    cls.inFlight++;
    if (startsVideo)
      state.starting++;
    let settled = false;
    return {
      settle: (outcome = {}) => {
        if (settled)
          return;
        settled = true;
        cls.inFlight--;
        cls.lastAt = this.now();
        if (startsVideo)
          state.starting--;
        this.learn(state, rateClass, options, outcome);
        for (const wake of this.sleepers)
          wake();
      }
    };
  }
  /** Videos of the account already running, learned elsewhere (another process, an earlier run). */
  noteRunning(videoIds, account = "") {
    for (const id of videoIds)
      this.account(account).running.add(id);
  }
  /** How many videos the pacer believes the account runs. */
  runningCount(account = "") {
    const state = this.account(account);
    return state.running.size + state.starting;
  }
  /** A request sent without pacing (a deliberate burst): later requests wait a whole window after it. */
  record(rateClass, at = this.now(), account = "") {
    const cls = this.account(account).classes[rateClass];
    cls.lastAt = Math.max(cls.lastAt, at);
    cls.blockedUntil = Math.max(cls.blockedUntil, at + this.fullWindow(rateClass, account));
  }
  /** Waits until the class's window is empty on any limiter (before a deliberate burst). */
  async drain(rateClass, account = "", signal) {
    const cls = this.account(account).classes[rateClass];
    while (this.enabled) {
      const until = Math.max(cls.blockedUntil, cls.lastAt + this.fullWindow(rateClass, account));
      const wait = cls.inFlight > 0 ? this.intervalOf(rateClass, account) : until - this.now();
      if (wait <= 0)
        return;
      if (wait > this.maxWaitMs)
        throw new PacerWaitError(rateClass, wait, this.maxWaitMs, cls.retryAfterMs, cls.retryAfter);
      await this.pause(wait, signal);
    }
  }
  fullWindow(rateClass, account) {
    const { windowMs } = this.limitOf(rateClass, account);
    return windowMs * (1 + this.margin) + 1;
  }
  rateWait(cls, rateClass, account) {
    if (cls.inFlight > 0)
      return this.intervalOf(rateClass, account);
    const next = Math.max(cls.lastAt + this.intervalOf(rateClass, account), cls.blockedUntil);
    return Math.max(0, next - this.now());
  }
  isFull(state) {
    return state.running.size + state.starting >= MAX_RUNNING;
  }
  /** Sleeps at most `ms`; any settled request wakes the sleepers early, since it may change the answer. */
  async pause(ms, signal) {
    const started = this.now();
    let wake;
    const woken = new Promise((resolve) => wake = resolve);
    this.sleepers.add(wake);
    const stop = new AbortController();
    const both = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
    try {
      await Promise.race([this.sleep(Math.min(ms, MAX_TIMER_MS), both).catch((e) => signal?.aborted ? Promise.reject(e) : void 0), woken]);
    } finally {
      stop.abort();
      this.sleepers.delete(wake);
      this.stats.waitedMs += Math.max(0, this.now() - started);
    }
  }
  learn(state, rateClass, options, outcome) {
    const cls = state.classes[rateClass];
    const now = this.now();
    const { status, headers } = outcome;
    if (headers) {
      const info = parseRateLimitHeaders(headers);
      const policy = info.policies[0];
      if (policy && policy.limit > 0) {
        cls.learned = { limit: policy.limit, windowMs: policy.windowMs };
        this.scale ??= policy.windowMs / RATE_LIMITS[rateClass].windowMs;
      }
      if (info.remaining === 0 && info.resetMs !== void 0)
        cls.blockedUntil = Math.max(cls.blockedUntil, now + info.resetMs);
    }
    const retryAfter = headers ? headerValue(headers, "retry-after") : void 0;
    const waitMs = parseRetryAfter(retryAfter, now);
    const creditOnly = RETRY_POLICY.noRetry.some(([s, c]) => s === status && c === outcome.error_code);
    if (status === 429 && !creditOnly) {
      this.stats.limited[rateClass]++;
      cls.slowdown = Math.min(cls.slowdown * 1.5, 4);
      const resetMs = waitMs ?? (headers ? parseRateLimitHeaders(headers).resetMs : void 0);
      cls.retryAfterMs = retryAfterMs(retryAfter, now) ?? resetMs;
      cls.retryAfter = retryAfter;
      cls.blockedUntil = Math.max(cls.blockedUntil, now + (resetMs ?? this.fullWindow(rateClass, options.account ?? "")));
    }
    if (status === 503 && options.startsVideo) {
      this.stats.full++;
      const delay = waitMs ?? RETRY_POLICY.serviceUnavailableDelayMs[0] * (this.scale ?? 1);
      state.fullUntil = Math.max(state.fullUntil, now + delay);
    }
    if (status === 404 && options.videoId)
      state.running.delete(options.videoId);
    if (status === void 0 || status < 200 || status > 299)
      return;
    if (options.startsVideo && outcome.video_id)
      state.running.add(outcome.video_id);
    else if (options.videoId && outcome.videoStatus && outcome.videoStatus !== "running")
      state.running.delete(options.videoId);
  }
  account(name) {
    let state = this.accounts.get(name);
    if (!state) {
      const cls = () => ({ inFlight: 0, lastAt: -Infinity, blockedUntil: 0, slowdown: 1 });
      state = { classes: { A: cls(), B: cls() }, running: /* @__PURE__ */ new Set(), starting: 0, fullUntil: 0 };
      this.accounts.set(name, state);
    }
    return state;
  }
};

// src/api-promise.ts
var APIPromise = class _APIPromise extends Promise {
  #parsed;
  #response;
  #parse;
  /**
   * `response` resolves with the answer once it is known to be a success (errors reject it);
   * `parse` reads the data from it, only when the data is asked for.
   */
  constructor(response, parse) {
    super((resolve) => resolve(void 0));
    this.#response = response;
    this.#parse = parse;
  }
  /** A call made of several steps (waitForVideo, download): its data and last response, already known. */
  static from(result) {
    const response = result.then((r) => r.response);
    response.catch(() => {
    });
    return new _APIPromise(response, () => result.then((r) => r.data));
  }
  // Promise's own methods (then, catch, finally) build plain promises, not APIPromises.
  static get [Symbol.species]() {
    return Promise;
  }
  /** The raw Response; its body is not read (for calls made of several steps, the last answer, read). */
  asResponse() {
    return this.#response;
  }
  /** The data and the raw Response it came from. */
  async withResponse() {
    const [data, response] = await Promise.all([this.#data(), this.#response]);
    return { data, response };
  }
  #data() {
    return this.#parsed ??= this.#response.then(this.#parse);
  }
  then(onfulfilled, onrejected) {
    return this.#data().then(onfulfilled, onrejected);
  }
  catch(onrejected) {
    return this.#data().catch(onrejected);
  }
  finally(onfinally) {
    return this.#data().finally(onfinally);
  }
};

// src/clock.ts
var realClock = { now: () => Date.now(), sleep };

// src/errors.ts
var VideoApiError = class _VideoApiError extends Error {
  name = "VideoApiError";
  kind = "api";
  status;
  error_code;
  /** The human description: the server's `error`, or the client's own message. */
  error;
  retryable;
  field;
  limit;
  video;
  headers;
  retryAfter;
  retryAfterMs;
  constructor(message, init = {}) {
    super(message, init.cause === void 0 ? void 0 : { cause: init.cause });
    this.status = init.status;
    this.error_code = init.error_code;
    this.error = init.error ?? message;
    this.retryable = init.retryable ?? false;
    this.field = init.field;
    this.limit = init.limit;
    this.video = init.video;
    this.headers = init.headers;
    this.retryAfter = init.retryAfter;
    this.retryAfterMs = init.retryAfterMs;
  }
  /**
   * The error for an error answer of the API: `body` is its parsed body (the spec's `{error_code,
   * error}`, or text), already scrubbed of the key. The class is the kind the rules' classifier gives.
   */
  static generate(status, body, headers, now = Date.now()) {
    const b = body;
    const code = typeof b == "object" && typeof b?.error_code == "string" ? b.error_code : void 0;
    const error = typeof b == "string" ? b.slice(0, 200) : typeof b?.error == "string" ? b.error : "";
    const { kind, retryable } = classifyError(status, code);
    const init = { status, error_code: code, error, retryable, ...headers && { headers, ...retryAfterOf(headers, now) } };
    const message = `${status}${code ? " " + code : ""}${error ? ": " + error : ""}`;
    switch (kind) {
      case "auth":
        return new AuthenticationError(message, init);
      case "not_found":
        return new NotFoundError(message, init);
      case "rate_limit":
        return new RateLimitError(message, init);
      case "insufficient_credit":
        return new InsufficientCreditError(message, init);
      case "concurrency":
        return new ConcurrencyLimitError(message, init);
      case "validation":
        return new ValidationError(message, init);
      case "unavailable":
      case "server":
        return new ServerError(message, init);
      case "api":
        return new _VideoApiError(message, init);
      default:
        return unreachable(kind);
    }
  }
};
var unreachable = (kind) => {
  throw new Error(`unknown error kind ${kind}`);
};
var AuthenticationError = class extends VideoApiError {
  name = "AuthenticationError";
  kind = "auth";
};
var NotFoundError = class extends VideoApiError {
  name = "NotFoundError";
  kind = "not_found";
};
var RateLimitError = class extends VideoApiError {
  name = "RateLimitError";
  kind = "rate_limit";
};
var InsufficientCreditError = class extends VideoApiError {
  name = "InsufficientCreditError";
  kind = "insufficient_credit";
};
var ConcurrencyLimitError = class extends VideoApiError {
  name = "ConcurrencyLimitError";
  kind = "concurrency";
};
var ValidationError = class extends VideoApiError {
  name = "ValidationError";
  kind = "validation";
};
var ServerError = class extends VideoApiError {
  name = "ServerError";
  kind = "server";
};
var TimeoutError = class extends VideoApiError {
  name = "TimeoutError";
  kind = "timeout";
};
var NetworkError = class extends VideoApiError {
  name = "NetworkError";
  kind = "network";
};
var VideoFailedError = class extends VideoApiError {
  name = "VideoFailedError";
  kind = "video_failed";
};
var VideoExpiredError = class extends VideoApiError {
  name = "VideoExpiredError";
  kind = "video_expired";
};
var VideoNotReadyError = class extends VideoApiError {
  name = "VideoNotReadyError";
  kind = "not_ready";
};
var UnexpectedResponseError = class extends VideoApiError {
  name = "UnexpectedResponseError";
  kind = "unexpected_response";
};
var DownloadError = class extends VideoApiError {
  name = "DownloadError";
  kind = "download";
  /** The download host (no path, no query: the address is a temporary credential). */
  host;
  /** The first bytes of the host's answer, as text (an object store's XML error, say). */
  body;
  constructor(message, init) {
    super(message, init);
    this.host = init.host;
    this.body = init.body;
  }
};
var isVideoApiError = (e) => e instanceof VideoApiError;
var isRetryable = (status, code) => classifyError(status, typeof code == "string" ? code : void 0).retryable;
function retryAfterOf(headers, now) {
  const retryAfter = headers.get("retry-after") ?? void 0;
  if (retryAfter === void 0) return {};
  const ms = retryAfterMs(retryAfter, now);
  return { retryAfter, ...ms !== void 0 && Number.isFinite(ms) && { retryAfterMs: ms } };
}

// src/core.ts
function createCore(o) {
  const { baseUrl, key, send: send2 } = o;
  const auth = `Bearer ${key}`;
  const headers = (extra, type) => {
    const h = { Authorization: auth };
    if (type) h["Content-Type"] = type;
    return extra ? { ...h, ...extra } : h;
  };
  const errorOf = async (res) => {
    const text = await res.text().catch(() => "");
    let body = text;
    try {
      body = JSON.parse(text);
    } catch {
    }
    return VideoApiError.generate(res.status, scrub(body, key), res.headers, o.now());
  };
  const answer = async (out, so) => {
    const res = await send2(out, so);
    if (!res.ok) throw await errorOf(res);
    return res;
  };
  const json = async (res) => {
    const where = () => `${res.status} from ${new URL(res.url || baseUrl).pathname}`;
    let data;
    try {
      data = await res.json();
    } catch (e) {
      throw new UnexpectedResponseError(`${where()}: the body is not JSON: ${String(e.message).split(key).join("***")}`, { status: res.status, headers: res.headers });
    }
    if (data === null || typeof data != "object") throw new UnexpectedResponseError(`${where()}: the body is not a JSON object`, { status: res.status, headers: res.headers });
    return data;
  };
  return {
    baseUrl,
    send: send2,
    errorOf,
    now: o.now,
    get: (path, so = {}) => new APIPromise(answer({ method: "GET", url: baseUrl + path, headers: headers(so.headers) }, so), json),
    post: (path, { type, ...body }, so = {}, check) => new APIPromise(answer({ method: "POST", url: baseUrl + path, headers: headers(so.headers, type), ...body }, so), async (res) => check ? check(await json(res)) : json(res))
  };
}
function scrub(value, key) {
  if (typeof value == "string") return value.split(key).join("***");
  if (Array.isArray(value)) return value.map((v) => scrub(v, key));
  if (value && typeof value == "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [scrub(k, key), scrub(v, key)]));
  return value;
}

// src/runtime.ts
var proc = () => globalThis.process;
var env = () => proc()?.env ?? {};
var builtin = (id) => proc()?.getBuiltinModule?.(id);
var noFileSystem = (what) => `${what} needs a file system (node:fs), which this runtime does not have: pass a Blob, File or bytes instead of a path`;
var uploadRedirect = () => globalThis.navigator?.userAgent == "Cloudflare-Workers" ? "manual" : "error";

// src/download.ts
var BODY_BYTES = 512;
async function download(get, send2, id, path, { onProgress, signal, timeoutMs, ...o } = {}) {
  const fs = builtin("node:fs");
  const stream = builtin("node:stream/promises");
  if (!fs?.createWriteStream || !stream?.pipeline) throw new TypeError(`download(\u2026, path): ${noFileSystem("writing a file")} (or read video.download_url with fetch)`);
  const { createWriteStream, promises: { rename, rm } } = fs;
  const { pipeline } = stream;
  for (let fresh = false; ; fresh = true) {
    const video = await get(id, { signal, timeoutMs, ...o });
    const { status } = video;
    if (status != "completed")
      throw new (status == "failed" ? VideoFailedError : status == "expired" ? VideoExpiredError : VideoNotReadyError)(`Video ${id} is ${status}`, { video, retryable: status == "running" });
    const host = hostOf(video.download_url);
    const failed = (message, init = {}) => new DownloadError(`Download of video ${id} from ${host} failed: ${message}`, { ...init, host, retryable: init.status === void 0 || init.status >= 500 });
    let res;
    try {
      res = await send2({ method: "GET", url: video.download_url, headers: {}, secretUrl: true }, { pace: false, maxRetries: 0, signal, timeoutMs });
    } catch (cause) {
      signal?.throwIfAborted();
      if (!fresh) continue;
      throw failed(`no answer (${cause.message})`, { cause });
    }
    if (!res.ok || !res.body) {
      const body = await firstBytes(res);
      if (!fresh) continue;
      throw failed(`${res.status}${body ? `: ${body.replace(/\s+/g, " ").slice(0, 200)}` : ""}`, { status: res.status, body, headers: res.headers });
    }
    const total = Number(res.headers.get("content-length")) || void 0;
    const tmp = `${path}.${Date.now()}-${Math.random().toString(36).slice(2)}.part`;
    let loaded = 0;
    try {
      await pipeline(
        res.body,
        async function* (src) {
          for await (const c of src) {
            loaded += c.byteLength;
            onProgress?.({ loaded, total });
            yield c;
          }
        },
        createWriteStream(tmp),
        { signal }
      );
      await rename(tmp, path);
    } catch (cause) {
      await rm(tmp, { force: true });
      signal?.throwIfAborted();
      if (cause?.syscall) throw cause;
      if (!fresh) continue;
      throw failed(`the connection dropped after ${loaded} of ${total ?? "?"} bytes`, { status: res.status, cause, headers: res.headers });
    }
    return { data: { path, bytes: loaded }, response: res };
  }
}
var hostOf = (url) => {
  try {
    return new URL(url).host;
  } catch {
    return "(not a URL)";
  }
};
async function firstBytes(res) {
  if (!res.body) return void 0;
  const reader = res.body.getReader();
  const chunks = [];
  let n = 0;
  try {
    while (n < BODY_BYTES) {
      const { value, done } = await reader.read();
      if (done) break;
      chunks.push(value);
      n += value.byteLength;
    }
  } catch {
  } finally {
    reader.cancel().catch(() => {
    });
  }
  const bytes2 = new Uint8Array(n);
  let at = 0;
  for (const c of chunks) bytes2.set(c, at), at += c.byteLength;
  return new TextDecoder().decode(bytes2.subarray(0, BODY_BYTES)) || void 0;
}

// src/logger.ts
var LOG_LEVELS = ["debug", "info", "warn", "error", "off"];
var RANK = { debug: 10, info: 20, warn: 30, error: 40, off: 100 };
var parseLevel = (value) => {
  const v = value?.trim().toLowerCase();
  return v && LOG_LEVELS.includes(v) ? v : void 0;
};
function createLog(o) {
  const level = o.level ?? parseLevel(o.env) ?? (o.logger ? typeof o.logger == "function" ? "debug" : "info" : "off");
  const log = {};
  if (level == "off") return log;
  const sink = o.logger ?? ((line) => console.error(line));
  const clean = (v) => redact(v, o.key, JSON.stringify(o.key).slice(1, -1));
  for (const l of ["debug", "info", "warn", "error"]) {
    if (RANK[l] < RANK[level]) continue;
    log[l] = typeof sink == "function" ? (fields, msg) => sink(JSON.stringify(clean({ time: (/* @__PURE__ */ new Date()).toISOString(), level: l, msg, ...fields }))) : (fields, msg) => sink[l](clean(fields), clean(msg));
  }
  return log;
}
function redact(v, key, escaped) {
  if (typeof v == "string") return v.split(key).join("***").split(escaped).join("***");
  if (Array.isArray(v)) return v.map((x) => redact(x, key, escaped));
  if (v && typeof v == "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [redact(k, key, escaped), redact(x, key, escaped)]));
  return v;
}
var MAX_BODY = 64 * 1024;
var headersOf = (h) => Object.fromEntries((h instanceof Headers ? [...h.entries()] : Object.entries(h)).filter(([k]) => k.toLowerCase() != "authorization"));
var isText = (type) => !type || /json|text|xml/i.test(type);
async function exchangeRecord(req, body, hasBody, res, error) {
  const request = { method: req.method, url: req.url, headers: headersOf(req.headers), body: body?.slice(0, MAX_BODY) ?? (hasBody ? "[body not logged]" : void 0) };
  if (!res) {
    const message = String(error?.message ?? error);
    return { fields: { request, error: message }, msg: `${req.method} ${req.url}: no answer (${message})` };
  }
  const text = isText(res.headers.get("content-type")) ? (await res.clone().text().catch(() => "")).slice(0, MAX_BODY) : "[body not logged]";
  return {
    fields: { request, response: { status: res.status, headers: headersOf(res.headers), body: text } },
    msg: `${req.method} ${req.url} \u2192 ${res.status}`
  };
}

// src/pacer.ts
function route(req) {
  const path = new URL(req.url).pathname;
  const op = operationFor(req.method, path);
  const id = op?.path.includes("{video_id}") ? /\/videos\/([^/]+)\//.exec(path + "/")?.[1] : void 0;
  return { cls: op?.rateClass ?? "B", counts: !!op?.startsVideo, id: id && decodeURIComponent(id) };
}
var Pacer2 = class {
  inner;
  #clock;
  constructor(clock, config = {}) {
    this.#clock = clock;
    this.inner = new Pacer({ now: () => clock.now(), sleep: async (ms, s) => void await clock.sleep(ms, s), maxWaitMs: config.maxWaitMs });
  }
  /** Waits until the request may go; a wait beyond the ceiling throws a RateLimitError carrying the server's Retry-After. */
  async acquire(req, { signal, check, log } = {}) {
    const { cls, counts, id } = route(req);
    const started = this.#clock.now();
    try {
      const ticket = await this.inner.acquire({ rateClass: cls, startsVideo: counts, videoId: id, signal, checkRunning: check });
      const waited = Math.round(this.#clock.now() - started);
      if (waited > 0) log?.info?.({ call: `${req.method} ${new URL(req.url).pathname}`, rateClass: cls, waitedMs: waited }, `paced: waited ${waited} ms for a class ${cls} slot`);
      return ticket;
    } catch (e) {
      if (!(e instanceof PacerWaitError)) throw e;
      throw new RateLimitError(e.message, {
        status: 429,
        retryable: false,
        cause: e,
        error: e.message,
        retryAfter: e.retryAfter,
        retryAfterMs: e.retryAfterMs
      });
    }
  }
  /** Tells the pacer what the request met (no response: a network error). */
  async settle(req, ticket, res) {
    if (!res) return ticket.settle();
    const { counts, id } = route(req);
    const read = !res.ok || counts || id !== void 0;
    const body = read ? await res.clone().json().catch(() => void 0) : void 0;
    ticket.settle({
      status: res.status,
      headers: res.headers,
      error_code: typeof body?.error_code == "string" ? body.error_code : void 0,
      video_id: counts && typeof body?.video_id == "string" ? body.video_id : void 0,
      videoStatus: !counts && typeof body?.status == "string" ? body.status : void 0
    });
  }
};
var pacers = /* @__PURE__ */ new Map();
var pacerFor = (key, clock, config) => {
  let p = pacers.get(key);
  if (!p) pacers.set(key, p = new Pacer2(clock, config));
  return p;
};

// src/polling.ts
async function waitForVideo(get, clock, id, { intervalMs = POLLING.intervalMs, timeoutMs = POLLING.timeoutMs, onProgress, ...o } = {}) {
  const start = clock.now();
  for (; ; ) {
    const { data: video, response } = await get(id, o).withResponse();
    const elapsedMs = clock.now() - start;
    onProgress?.(video, { elapsedMs });
    const { status } = video;
    if (status == "completed") return { data: video, response };
    if (status == "failed" || status == "expired") throw new (status == "failed" ? VideoFailedError : VideoExpiredError)(`Video ${id} ${status}`, { video });
    if (status != "running") throw new UnexpectedResponseError(`Video ${id}: unknown status ${JSON.stringify(status)} (expected running, completed, failed or expired)`, { video });
    if (elapsedMs >= timeoutMs) throw new TimeoutError(`Video ${id} still running after ${elapsedMs} ms`, { video, retryable: true });
    await clock.sleep(Math.min(intervalMs, timeoutMs - elapsedMs), o.signal);
  }
}

// src/proxy.ts
var shared;
var isNode = () => {
  const g = globalThis;
  return g.Bun === void 0 && g.Deno === void 0 && g.process?.release?.name == "node";
};
function nodeReadsProxyEnv(env2) {
  const p = globalThis.process;
  const [major, minor] = (p?.versions?.node ?? "0.0").split(".").map(Number);
  const recent = major >= 24 || major == 22 && minor >= 21;
  return recent && (env2.NODE_USE_ENV_PROXY == "1" || !!p?.execArgv?.includes("--use-env-proxy"));
}
function envProxyDispatcher(env2) {
  const vars = ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy"].map((n) => env2[n] ?? "");
  if (!vars.slice(0, 4).some(Boolean) || !isNode() || nodeReadsProxyEnv(env2)) return void 0;
  const key = vars.join("\n");
  if (shared?.key == key) return shared.dispatcher;
  let undici;
  try {
    const { createRequire } = builtin("node:module");
    undici = createRequire(import.meta.url)("undici");
  } catch (e) {
    throw new Error(
      "HTTPS_PROXY or HTTP_PROXY is set, but the optional dependency undici (which Node needs to use a proxy) could not be loaded: install it (npm install undici), or on Node 22.21+ set NODE_USE_ENV_PROXY=1, or pass fetchOptions: { dispatcher }",
      { cause: e }
    );
  }
  shared = { key, dispatcher: new undici.EnvHttpProxyAgent() };
  return shared.dispatcher;
}

// src/pagination.ts
var Paginated = class {
  #first;
  #load;
  #page;
  constructor(load, { page } = {}) {
    this.#load = load;
    this.#page = page;
  }
  /** The envelopes, one per page, fetched lazily. */
  async *pages() {
    const from = this.#page ?? 1;
    let seen = 0, previous;
    for (let n = from; ; n++) {
      const p = checked(await this.#load(n), n);
      const fingerprint2 = JSON.stringify(p.results);
      if (n > from && fingerprint2 == previous) throw new UnexpectedResponseError(`Page ${n} repeats page ${n - 1}`);
      previous = fingerprint2;
      seen += p.results.length;
      if (p.has_next && typeof p.total_count == "number" && seen >= p.total_count)
        throw new UnexpectedResponseError(`Page ${n} says has_next, but its ${seen} items already reach total_count ${p.total_count}`);
      yield p;
      if (this.#page || !p.has_next || !p.results.length) return;
    }
  }
  async *[Symbol.asyncIterator]() {
    for await (const p of this.pages()) yield* p.results;
  }
  /** The first page (or the one asked for), fetched once however often it is awaited (iterating fetches afresh). */
  #one() {
    const n = this.#page ?? 1;
    return (this.#first ??= this.#load(n)).then((p) => checked(p, n));
  }
  then(onfulfilled, onrejected) {
    return this.#one().then(onfulfilled, onrejected);
  }
  catch(onrejected) {
    return this.#one().catch(onrejected);
  }
  finally(onfinally) {
    return this.#one().finally(onfinally);
  }
  /** One page (the first, or `{ page }`) and its raw Response. */
  async withResponse() {
    const { response } = await (this.#first ??= this.#load(this.#page ?? 1)).withResponse();
    return { data: await this.#one(), response };
  }
};
function checked(p, n) {
  if (!p || !Array.isArray(p.results) || typeof p.has_next != "boolean")
    throw new UnexpectedResponseError(`Page ${n} is not a paged list (results array, has_next boolean)`);
  if (typeof p.page == "number" && p.page != n) throw new UnexpectedResponseError(`Asked for page ${n}, the service answered page ${p.page}`);
  return p;
}

// src/uploads.ts
var baseName = (p) => p.slice(p.search(/[^\\/]*$/));
var extName = (f) => {
  const b = baseName(f);
  const i = b.lastIndexOf(".");
  return i > 0 ? b.slice(i) : "";
};
async function toPart(name, f) {
  if (typeof f == "string") {
    const fs = builtin("node:fs");
    if (!fs?.openAsBlob) throw new ValidationError(`${name}: ${noFileSystem(`the file path "${f}"`)}`, { field: name });
    const value = await fs.openAsBlob(f);
    return { name, value, filename: baseName(f), size: value.size };
  }
  const { data, filename, size } = f instanceof Blob || f instanceof Uint8Array ? { data: f, filename: f.name, size: void 0 } : f;
  if (!filename) throw new ValidationError(`${name}: a filename is needed ({ data, filename })`, { field: name });
  const known = data instanceof Blob ? data.size : data instanceof Uint8Array ? data.byteLength : size;
  return { name, value: data, filename, size: known };
}
async function prepare(input, plan, setting) {
  const given = checkForm(input, setting);
  const parts = [{ name: "video_setting_id", value: input.video_setting_id }];
  if (given.includes("text")) parts.push({ name: "text", value: input.text });
  const p = PLAN_LIMITS_AS[plan] ?? plan;
  for (const name of given.filter((f) => f != "text")) {
    const lim = UPLOAD_LIMITS[name];
    const files = [input[name]].flat();
    const fail = (message, limit) => {
      throw new ValidationError(message, { field: name, limit, error_code: "FILE_UPLOAD_ERROR" });
    };
    if ("maxItems" in lim && files.length > lim.maxItems) fail(`${name}: at most ${lim.maxItems} files`, lim.maxItems);
    for (const f of files) {
      const part = await toPart(name, f);
      const ext = extName(part.filename).toLowerCase();
      const exts = lim.extensions[p];
      if (!exts.includes(ext)) fail(`${name}: ${part.filename} is not ${exts.join(", ")} (${plan} plan)`, exts);
      if (part.size > lim.maxBytes[p]) fail(`${name}: ${part.filename} is over ${lim.maxBytes[p]} bytes (${plan} plan)`, lim.maxBytes[p]);
      parts.push(part);
    }
  }
  return parts;
}
function checkForm(input, setting) {
  const given = ["text", ...Object.keys(UPLOAD_LIMITS)].filter((f) => isGiven(input[f]));
  const problem2 = formProblem(given, setting?.request_fields);
  if (!problem2) return given;
  const bySetting = problem2.kind == "field_not_in_setting" || problem2.kind == "setting_field_missing";
  throw new ValidationError(problem2.message, {
    field: problem2.field ?? given[0] ?? "text",
    limit: bySetting ? problem2.allowed[0] : problem2.allowed,
    error_code: bySetting ? "INVALID_VIDEO_SETTING" : "INVALID_REQUEST"
  });
}
var isGiven = (v) => v != null && v !== "" && !(Array.isArray(v) && !v.length);
var enc = /* @__PURE__ */ new TextEncoder();
var bytes = (c) => typeof c == "string" ? enc.encode(c) : c;
function multipart(parts, onProgress) {
  const boundary = "----videogen" + Math.random().toString(36).slice(2);
  const heads = parts.map(({ name, filename, value }) => bytes(`--${boundary}\r
Content-Disposition: form-data; name="${name}"` + (filename == null ? "" : `; filename="${filename.replace(/["\r\n]/g, "_")}"\r
Content-Type: ${UPLOAD_LIMITS[name].contentType}`) + "\r\n\r\n" + (typeof value == "string" ? value : "")));
  const tail = bytes(`--${boundary}--\r
`);
  let total = tail.length;
  parts.forEach((p, i) => total = typeof p.value == "string" ? total + heads[i].length + 2 : p.size == null || total == null ? void 0 : total + heads[i].length + p.size + 2);
  async function* chunks() {
    for (const [i, { value }] of parts.entries()) {
      yield heads[i];
      if (typeof value != "string") yield* value instanceof Uint8Array ? [value] : value instanceof Blob ? value.stream() : value;
      yield bytes("\r\n");
    }
    yield tail;
  }
  return {
    type: `multipart/form-data; boundary=${boundary}`,
    /** Sent once only when a part is a stream. */
    once: parts.some((p) => typeof p.value != "string" && !(p.value instanceof Blob || p.value instanceof Uint8Array)),
    stream() {
      let loaded = 0;
      return (async function* () {
        for await (const c of chunks()) {
          const b = bytes(c);
          loaded += b.byteLength;
          onProgress?.({ loaded, total });
          yield b;
        }
      })();
    }
  };
}

// src/resources/videos.ts
var videoPath = (id) => `/videos/${encodeURIComponent(id)}/`;
var Videos = class {
  constructor(core, settings, plan) {
    this.core = core;
    this.settings = settings;
    this.plan = plan;
  }
  /** The caller's videos, page by page; await it for one page. */
  list({ page, ...o } = {}) {
    return new Paginated((n) => this.core.get(`/videos/?page=${n}`, o), { page });
  }
  /** A video's status view (status, download_url). */
  get(videoId, o) {
    return this.core.get(videoPath(videoId), o);
  }
  /**
   * Checks the form (combination, the setting's fields, extensions and sizes for the plan), then
   * streams it. A retry re-reads every file from its source; a stream input is sent once.
   */
  generate(input, o = {}) {
    return APIPromise.from(this.#generate(input, o));
  }
  async #generate(input, { onUploadProgress, setting, uploadTimeoutMs, ...o }) {
    const parts = await prepare(input, this.plan, setting);
    if (!setting) checkForm(input, await this.#setting(input.video_setting_id, o));
    const form = multipart(parts, onUploadProgress);
    try {
      return await this.core.post(
        "/videos/generate/",
        { type: form.type, upload: form, redirect: uploadRedirect() },
        {
          ...o,
          // An upload has no timeout unless one is given: 180 MB take a while on a slow line.
          timeoutMs: o.timeoutMs ?? uploadTimeoutMs ?? 0,
          beforeResend: (since) => this.#findCreated(input.text, since, o.signal)
        },
        created
      ).withResponse();
    } catch (e) {
      noteNotResent(e);
      if (form.once && e.retryable) e.message += " (not retried: a stream input is sent once; pass a path, Blob or Buffer to allow retries)";
      throw e;
    }
  }
  async #setting(id, o) {
    const s = await this.settings.find(id, o);
    if (!s) throw new ValidationError(`Unknown video setting ${id}`, { field: "video_setting_id", error_code: "INVALID_VIDEO_SETTING" });
    return s;
  }
  /**
   * The video a generate attempt may have created: one of the caller's videos with the same prompt,
   * created since the first attempt (less a minute of clock skew). Without a text it cannot tell.
   */
  async #findCreated(text, since, signal) {
    if (typeof text != "string") return "unknown";
    try {
      const first = await this.list({ page: 1, signal });
      const pages = [first];
      const last = Math.ceil(first.total_count / (first.items_per_page || PAGE_SIZE));
      if (last > 1) pages.push(await this.list({ page: last, signal }));
      const hit = pages.flatMap((p) => p.results).find((v) => v.prompt === text && Date.parse(v.created_at) >= since - 6e4);
      if (!hit) return "absent";
      return new Response(JSON.stringify({ video_id: hit.video_id }), { status: 200, headers: { "content-type": "application/json", "x-videogen-recovered": "true" } });
    } catch {
      return "unknown";
    }
  }
};
var created = (body) => {
  const id = body?.video_id;
  if (typeof id != "string" || !id) throw new UnexpectedResponseError(`The create answer has no video_id: ${JSON.stringify(body).slice(0, 200)}`);
  return body;
};
var noteNotResent = (e) => {
  if (e?.headers?.get("x-videogen-not-resent"))
    e.message += " (not re-sent: the first attempt may have created the video; look at videos.list() before trying again)";
};

// src/resources/conversions.ts
var Conversions = class {
  constructor(core) {
    this.core = core;
  }
  /** Whether the video can be converted, and to what. */
  get(videoId, o) {
    return this.core.get(`${videoPath(videoId)}conversions/`, o);
  }
  /**
   * Converts a video after checking the target against its conversion options: a target that cannot
   * succeed throws the ValidationError the service would answer, and nothing is sent.
   */
  create(videoId, target, { conversionOptions, ...o } = {}) {
    const options = Promise.resolve().then(() => {
      checkConversion(target);
      return conversionOptions ?? this.get(videoId, o);
    });
    const sent = options.then((options2) => {
      checkConversion(target, options2);
      return this.core.post(`${videoPath(videoId)}conversions/`, { type: "application/json", body: JSON.stringify(target) }, { ...o, beforeResend: async () => "unknown" }, created).withResponse();
    });
    return APIPromise.from(
      sent.catch((e) => {
        noteNotResent(e);
        throw e;
      })
    );
  }
};
function checkConversion(t, o) {
  const p = conversionProblem(t, o);
  if (!p?.error_code) return;
  const allowed = p.allowed ? ` Allowed: ${p.allowed.join(",")}.` : "";
  throw new ValidationError(`${p.error_code}: ${p.message}${allowed}`, {
    status: p.status,
    error_code: p.error_code,
    error: p.message,
    field: p.field,
    limit: p.allowed
  });
}

// src/resources/settings.ts
var Settings = class {
  constructor(core) {
    this.core = core;
  }
  /** Settings seen in any list so far, by id: generate looks a setting's request_fields up here. */
  #seen = /* @__PURE__ */ new Map();
  /** Every setting, page by page; await it for one page. */
  list({ page, ...o } = {}) {
    return new Paginated((n) => {
      const p = this.core.get(`/video-settings/?page=${n}`, o);
      void p.then((pg) => Array.isArray(pg.results) && pg.results.forEach((s) => this.#seen.set(s.video_setting_id, s)), () => {
      });
      return p;
    }, { page });
  }
  /** A setting by id, from the lists read so far, else read from the list (once per client). */
  async find(id, o = {}) {
    if (!this.#seen.has(id)) {
      for await (const s of this.list(o)) if (s.video_setting_id == id) break;
    }
    return this.#seen.get(id);
  }
};

// src/transport.ts
var retryOptions = (o = {}) => ({
  maxRetries: RETRY_POLICY.maxRetries,
  baseDelayMs: 1e3,
  maxDelayMs: 3e4,
  serviceUnavailableDelayMs: RETRY_POLICY.serviceUnavailableDelayMs,
  maxWaitMs: 15 * 6e4,
  ...o
});
function createTransport(c) {
  return (out, o = {}) => send(c, out, o);
}
async function send(c, out, o) {
  const { clock, log } = c;
  const retry = o.maxRetries === void 0 ? c.retry : { ...c.retry, maxRetries: o.maxRetries };
  const pacer = o.pace === false ? void 0 : c.pacer;
  const { signal } = o;
  const idempotent = out.method == "GET" || out.method == "HEAD";
  const timeoutMs = o.timeoutMs ?? c.timeoutMs;
  const resendable = !out.upload?.once;
  const call = `${out.method} ${out.secretUrl ? out.url.split("?")[0] : out.url}`;
  let firstSentAt = 0;
  for (let attempt = 0; ; attempt++) {
    signal?.throwIfAborted();
    const ticket = pacer && await pacer.acquire(out, { signal, check: c.check, log });
    if (attempt == 0) firstSentAt = clock.now();
    const { res, cause, timedOut } = await sendOnce(c, out, signal, timeoutMs);
    if (log.debug) await logExchange(log.debug, out, res, cause);
    if (ticket) await pacer.settle(out, ticket, res);
    const canRetry = attempt < retry.maxRetries && resendable;
    if (!res) {
      signal?.throwIfAborted();
      const failure = timedOut ? new TimeoutError(`No response in ${timeoutMs} ms`, { cause, retryable: idempotent }) : new NetworkError(`Network error: ${cause?.cause ?? cause}`, { cause, retryable: idempotent });
      if (!idempotent && o.beforeResend) {
        const found = await o.beforeResend(firstSentAt);
        if (found instanceof Response) return found;
      }
      if (!shouldRetry("no answer", idempotent) || !canRetry) {
        log.error?.({ call, attempts: attempt + 1 }, `${call}: ${failure.message}`);
        throw failure;
      }
      const wait2 = backoff(retry, attempt);
      log.info?.({ call, attempt: attempt + 1, waitMs: Math.round(wait2) }, `${call}: ${failure.message}; retry ${attempt + 1} of ${retry.maxRetries} in ${Math.round(wait2)} ms`);
      await clock.sleep(wait2, signal);
      continue;
    }
    if (res.ok || !canRetry || !shouldRetry({ status: res.status, error_code: await errorCodeOf(res) }, idempotent)) {
      if (!res.ok && attempt > 0) log.error?.({ call, status: res.status, attempts: attempt + 1 }, `${call} \u2192 ${res.status} after ${attempt + 1} attempts`);
      return res;
    }
    const wait = retryDelay(res, { attempt, retry, now: clock.now(), rateClass: route(out).cls, paced: !!pacer });
    if (wait === void 0) {
      log.warn?.({ call, status: res.status, retryAfter: res.headers.get("retry-after") }, `${call} \u2192 ${res.status}: the server asks for a wait beyond maxWaitMs (${retry.maxWaitMs} ms); not retried`);
      return res;
    }
    const level = res.status == 429 || res.status == 503 ? log.warn : log.info;
    level?.({ call, status: res.status, attempt: attempt + 1, waitMs: Math.round(wait) }, `${call} \u2192 ${res.status}: retry ${attempt + 1} of ${retry.maxRetries} in ${Math.round(wait)} ms`);
    const checkFirst = !idempotent && o.beforeResend !== void 0 && mayHaveCreated(res.status);
    const kept = checkFirst ? await res.text().catch(() => "") : await res.body?.cancel();
    if (wait > 0) await clock.sleep(wait, signal);
    if (checkFirst) {
      const found = await o.beforeResend(firstSentAt);
      if (found instanceof Response) return found;
      if (found == "unknown") {
        log.warn?.({ call, status: res.status }, `${call} \u2192 ${res.status}: not re-sent (the first attempt may have created the video)`);
        return notResent(res, kept);
      }
    }
  }
}
async function sendOnce(c, out, signal, timeoutMs) {
  const ac = timeoutMs ? new AbortController() : void 0;
  const stop = () => ac.abort(signal.reason);
  const timer = ac && setTimeout(() => ac.abort(), timeoutMs);
  if (ac && signal) signal.addEventListener("abort", stop);
  try {
    const init = { method: out.method, headers: out.headers, signal: ac ? ac.signal : signal };
    if (out.body !== void 0) init.body = out.body;
    if (out.upload) init.body = out.upload.stream(), init.duplex = "half";
    if (out.redirect) init.redirect = out.redirect;
    if (c.fetchOptions) Object.assign(init, c.fetchOptions);
    const res = c.fetch ? await c.fetch(new Request(out.url, { ...init, signal }), { ...c.fetchOptions, signal: init.signal }) : await fetch(out.url, init);
    return { res };
  } catch (cause) {
    return { cause, timedOut: !!ac?.signal.aborted && !signal?.aborted };
  } finally {
    clearTimeout(timer);
    if (ac && signal) signal.removeEventListener("abort", stop);
  }
}
async function logExchange(debug, out, res, cause) {
  const url = out.secretUrl ? out.url.split("?")[0] + (out.url.includes("?") ? "?[redacted]" : "") : out.url;
  const text = typeof out.body == "string" ? out.body : out.body ? new TextDecoder().decode(out.body) : void 0;
  try {
    const { fields, msg } = await exchangeRecord({ ...out, url }, text, !!out.upload, res, cause);
    debug(fields, msg);
  } catch {
  }
}
function shouldRetry(answer, idempotent) {
  if (answer == "no answer") return idempotent;
  return isRetryable(answer.status, answer.error_code);
}
function retryDelay(res, { attempt, retry, now, rateClass, paced }) {
  const after = retryAfterOf(res.headers, now).retryAfterMs;
  if (after !== void 0 && after > retry.maxWaitMs) return void 0;
  if (res.status == 429) {
    if (paced) return 0;
    return after ?? parseRateLimitHeaders(res.headers).resetMs ?? RATE_LIMITS[rateClass].windowMs;
  }
  return after ?? (res.status == 503 ? between(retry.serviceUnavailableDelayMs) : backoff(retry, attempt));
}
var mayHaveCreated = (status) => status >= 500 && status != 503;
var between = ([a, b]) => a + Math.random() * (b - a);
var backoff = (r, attempt) => between([0.5, 1]) * Math.min(r.maxDelayMs, r.baseDelayMs * 2 ** attempt);
var errorCodeOf = async (res) => {
  const body = await res.clone().json().catch(() => void 0);
  return typeof body?.error_code == "string" ? body.error_code : void 0;
};
var notResent = (res, body) => {
  const h = new Headers(res.headers);
  h.set("x-videogen-not-resent", "the first attempt may have created the video");
  return new Response(body, { status: res.status, statusText: res.statusText, headers: h });
};
async function fromRequest(req) {
  const out = { method: req.method, url: req.url, headers: Object.fromEntries(req.headers), redirect: req.redirect };
  if (!req.body) return out;
  if (/multipart/i.test(req.headers.get("content-type") ?? "")) out.upload = { stream: () => req.body, once: true };
  else out.body = new Uint8Array(await req.arrayBuffer());
  return out;
}

// src/client.ts
function fingerprint(key) {
  const crypto = builtin("node:crypto");
  if (crypto?.createHash) return crypto.createHash("sha256").update(key).digest("hex");
  let h1 = 3735928559, h2 = 1103547991;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ h1 >>> 16, 2246822507) ^ Math.imul(h2 ^ h2 >>> 13, 3266489909);
  h2 = Math.imul(h2 ^ h2 >>> 16, 2246822507) ^ Math.imul(h1 ^ h1 >>> 13, 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16);
}
var LOOPBACK = /^(localhost|127(\.\d+){3}|\[::1\])$/;
function createClient(options = {}) {
  const env2 = env();
  const key = options.apiKey ?? env2.VIDEO_API_KEY;
  if (!key) throw new AuthenticationError("No API key: pass apiKey or set VIDEO_API_KEY");
  const baseUrl = (options.baseUrl ?? env2.VIDEO_API_BASE_URL ?? PRODUCTION_BASE_URL).replace(/\/+$/, "");
  const { protocol, hostname } = new URL(baseUrl);
  if (protocol != "https:" && !(protocol == "http:" && LOOPBACK.test(hostname)))
    throw new TypeError(`Refusing base URL ${protocol}//${hostname}: use https (http only on loopback)`);
  const clock = options.clock ?? realClock;
  const plan = options.plan ?? "personal";
  const retry = retryOptions({ ...options.maxRetries != null && { maxRetries: options.maxRetries }, ...options.retry });
  const dispatcher = options.fetchOptions?.dispatcher ?? envProxyDispatcher(env2);
  const fetchOptions = dispatcher ? { ...options.fetchOptions, dispatcher } : options.fetchOptions;
  const send2 = createTransport({
    fetch: options.fetch,
    fetchOptions,
    clock,
    retry,
    timeoutMs: options.timeoutMs ?? 6e4,
    pacer: options.pacing === false ? void 0 : pacerFor(`${baseUrl} ${options.account ?? fingerprint(key)}`, clock, { maxWaitMs: retry.maxWaitMs }),
    check: (id) => videos.get(id),
    log: createLog({ logger: options.logger, level: options.logLevel, env: env2.VIDEO_API_LOG, key })
  });
  const core = createCore({ baseUrl, key, send: send2, now: () => clock.now() });
  const settings = new Settings(core);
  const videos = new Videos(core, settings, plan);
  const conversions = new Conversions(core);
  const client = {
    /** The typed openapi-fetch client: paced and retried like the helpers, errors returned, not thrown. */
    api: createFetchClient({ baseUrl, headers: { Authorization: `Bearer ${key}` }, fetch: async (req) => send2(await fromRequest(req), { signal: req.signal }) }),
    baseUrl,
    plan,
    videos,
    settings,
    conversions,
    /** Converts a video after checking the target against its conversion options (= conversions.create). */
    convert: (id, target, o) => conversions.create(id, target, o),
    /** Polls until completed (x-polling: every 10 s, 600 s at most by default). */
    waitForVideo: (id, o) => APIPromise.from(waitForVideo((i, ro) => videos.get(i, ro), clock, id, o)),
    generateAndWait: (input, o = {}) => APIPromise.from(videos.generate(input, { ...o, timeoutMs: void 0 }).then(({ video_id }) => waitForVideo((i, ro) => videos.get(i, ro), clock, video_id, o))),
    convertAndWait: (id, target, o = {}) => APIPromise.from(conversions.create(id, target, { ...o, timeoutMs: void 0 }).then(({ video_id }) => waitForVideo((i, ro) => videos.get(i, ro), clock, video_id, o))),
    /** Streams a completed video to a file; the download host never gets the key. */
    download: (id, path, o) => APIPromise.from(download((i, ro) => videos.get(i, ro), send2, id, path, o))
  };
  return client;
}
export {
  APIPromise,
  ASPECT_RATIOS,
  AuthenticationError,
  ConcurrencyLimitError,
  Conversions,
  DownloadError,
  InsufficientCreditError,
  LANGUAGES,
  LANGUAGE_NAMES,
  NetworkError,
  NotFoundError,
  Paginated,
  RateLimitError,
  ServerError,
  Settings,
  TimeoutError,
  UnexpectedResponseError,
  ValidationError,
  VideoApiError,
  VideoExpiredError,
  VideoFailedError,
  VideoNotReadyError,
  Videos,
  createClient,
  isVideoApiError
};
