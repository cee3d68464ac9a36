// "Try the flow": the sample flow of the interface (4.7) in the browser, with the typed client itself
// (@videogen/client, bundled into the page): pick a setting, give an input, generate, poll at the
// interface's pace (x-polling, scaled by the sandbox's time scale), play the finished video, convert it,
// play the conversion. Every error met on the way is explained in words.
// The generation itself is sent as the console sends it (a FormData body): the client streams its
// multipart body as an async iterable, which Node, Bun and Deno send but a browser's fetch does not
// (it would send the text "[object AsyncGenerator]"), and Chromium streams request bodies over HTTP/2 only.
import {
  type AspectRatio,
  type ConversionTarget,
  createClient,
  type Language,
  LANGUAGE_NAMES,
  type VideoApiError,
  type VideoClient,
} from '@videogen/client';
import { POLLING } from '@videogen/openapi/rules';
import { byId, fill, h, uid } from './dom.ts';
import { CONVERSION_ADVICE, explainAnswer } from './explain.ts';
import { acceptOf, FILE_FIELDS, type Plan } from './plans.ts';
import { buildRequest, send, type FormPart } from './request.ts';
import { errorCodeDescriptions, operationsOf, readDocument } from './spec.ts';
import { TargetState } from './target.ts';
import { targetView } from './target-view.ts';

interface Setting {
  video_setting_id: string;
  title: string;
  request_fields: string[];
}

const spec = readDocument();
const descriptions = errorCodeDescriptions(spec);
const state = new TargetState();
const generateVideo = operationsOf(spec).find((o) => o.operationId === 'generateVideo');
if (!generateVideo) throw new Error('the embedded document has no generateVideo operation');
const main = byId('vg-flow');

/** The sandbox's time scale (1 elsewhere): the service's seconds pass this many times faster. */
const timeScale = () => (state.target.mode === 'sandbox' ? (state.sandbox?.time_scale ?? 1) : 1);

function client(): VideoClient {
  const t = state.target;
  return createClient({
    apiKey: t.key,
    baseUrl: t.baseUrl,
    plan: (t.account?.plan as Plan | undefined) ?? 'personal',
    // The client paces itself by the interface's limits in real seconds; a faster sandbox shrinks its
    // windows, so there the polling pace below is all the pacing needed.
    pacing: timeScale() === 1,
  });
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

// ---- errors, in words ------------------------------------------------------------------------------
const errorList = h('ul', { class: 'vg-log' });
const errors = h(
  'section',
  { class: 'vg-errors', 'aria-label': 'Errors met on the way', hidden: true },
  h('h3', {}, 'Errors met on the way'),
  errorList,
);

/** Shows an error of the client (thrown before sending, or the service's answer) in words. */
function explain(where: string, error: unknown): string {
  const e = error as VideoApiError & { error?: string };
  const code = e.error_code;
  let text: string;
  if (typeof e.status === 'number' && e.status > 0) {
    const why = explainAnswer(e.status, code ? { error_code: code } : undefined, [], descriptions);
    const advice = code ? CONVERSION_ADVICE[code] : undefined;
    const sentBy = e.name === 'ValidationError' && !e.headers ? ' (the client refused it before sending)' : '';
    text = `${where}: ${e.status}${sentBy} — ${why.summary} ${advice ?? why.next ?? ''} (${e.error ?? e.message})`;
  } else {
    text = `${where}: ${code ? `${code} — ${descriptions[code] ?? ''} ` : ''}${e.message ?? String(error)}`;
  }
  errors.hidden = false;
  errorList.append(h('li', { 'data-code': code ?? '' }, text));
  return text;
}

// ---- 1. setting --------------------------------------------------------------------------------------
let settings: Setting[] = [];
const settingSelect = h('select', { id: uid('vg-setting'), 'aria-label': 'Video setting' });
const settingNote = h('p', { class: 'vg-note', role: 'status' });
const loadSettings = async () => {
  settingNote.textContent = 'Loading your video settings…';
  const forWhom = state.target.identity;
  try {
    const list: Setting[] = [];
    for await (const s of client().settings.list()) list.push(s as Setting);
    // Another account was chosen meanwhile: these are not its settings.
    if (state.target.identity !== forWhom) return;
    settings = list;
    fill(
      settingSelect,
      settings.map((s) => h('option', { value: s.video_setting_id }, `${s.title} — ${s.request_fields.join(' + ')}`)),
    );
    settingNote.textContent = `${settings.length} settings. Each takes the fields it lists.`;
    renderInput();
  } catch (error) {
    settingNote.textContent = explain('Listing the settings', error);
  }
};
settingSelect.addEventListener('change', () => renderInput());

// ---- 2. input ------------------------------------------------------------------------------------
const inputArea = h('div');
const values: { text: string; files: Record<string, File[]> } = {
  text: 'Explain photosynthesis to a ten-year-old.',
  files: {},
};
const selected = () => settings.find((s) => s.video_setting_id === settingSelect.value);

function renderInput() {
  const s = selected();
  if (!s) return fill(inputArea, h('p', { class: 'vg-note' }, 'Load the settings first.'));
  const plan = state.target.account?.plan as Plan | undefined;
  fill(
    inputArea,
    s.request_fields.map((field) => {
      const id = uid('vg-input');
      if (!FILE_FIELDS.includes(field)) {
        const area = h('textarea', {
          id,
          rows: 2,
          oninput: (e: Event) => {
            values.text = (e.target as HTMLTextAreaElement).value;
          },
        });
        area.value = values.text;
        return h('div', { class: 'vg-field' }, h('label', { for: id }, 'Prompt (', h('code', {}, field), ')'), area);
      }
      return h(
        'div',
        { class: 'vg-field' },
        h('label', { for: id }, 'File (', h('code', {}, field), ')'),
        h('input', {
          id,
          type: 'file',
          multiple: field === 'image_files',
          accept: acceptOf(field, plan),
          onchange: (e: Event) => {
            values.files[field] = [...((e.target as HTMLInputElement).files ?? [])];
          },
        }),
      );
    }),
    state.target.mode === 'sandbox' &&
      h(
        'p',
        { class: 'vg-note' },
        'In the sandbox, a token in the prompt or a file name chooses the outcome: ',
        h('code', {}, '[sandbox:fail]'),
        ' makes the video fail, ',
        h('code', {}, '[sandbox:voices=ja,en]'),
        ' limits its languages.',
      ),
  );
}

// ---- 3. generate and poll ----------------------------------------------------------------------------
const generateButton = h('button', { type: 'button', class: 'vg-button' }, 'Generate');
const pace = h('p', { class: 'vg-note' });
const log = h('ol', { class: 'vg-log', 'aria-label': 'Status' });
const renderPace = () => {
  const scale = timeScale();
  pace.textContent =
    `The client polls every ${POLLING.intervalMs / 1000} s of service time and gives up after ${POLLING.timeoutMs / 1000} s (x-polling)` +
    (scale === 1
      ? '.'
      : `; this sandbox runs ${scale}× faster, so a poll every ${seconds(POLLING.intervalMs / scale)}.`);
};

/** Polls a video at the interface's pace until completed or failed, logging each status; resolves it. */
async function follow(id: string, into: HTMLElement) {
  const scale = timeScale();
  const started = performance.now();
  return client().waitForVideo(id, {
    intervalMs: POLLING.intervalMs / scale,
    timeoutMs: POLLING.timeoutMs / scale,
    onProgress: (video, { elapsedMs }) => {
      into.append(
        h(
          'li',
          { 'data-status': video.status },
          `${video.status} after ${seconds(elapsedMs * scale)} of service time (${seconds(performance.now() - started)} here)`,
        ),
      );
    },
  });
}

function player(url: string, label: string) {
  const video = h('video', {
    class: 'vg-player',
    controls: true,
    muted: true,
    autoplay: true,
    playsinline: true,
    preload: 'auto',
    'aria-label': label,
  });
  video.muted = true;
  const note = h('p', { class: 'vg-note', role: 'status' }, 'Playing…');
  video.addEventListener('ended', () => {
    video.dataset.ended = 'true';
    note.textContent = 'Played to the end. The address is temporary: download it soon.';
  });
  video.addEventListener('error', () => {
    note.textContent = 'The browser could not play this video (its address may have expired: poll it again).';
  });
  video.src = url;
  // autoplay alone started the first video only: play() is asked for as well (muted, so allowed).
  video.play().catch(() => {
    note.textContent = 'Press play to watch it.';
  });
  return h('div', {}, video, note);
}

const videoArea = h('div');
let videoId: string | undefined;

generateButton.addEventListener('click', async () => {
  const s = selected();
  if (!s) return;
  generateButton.disabled = true;
  fill(log);
  fill(videoArea);
  conversionStep.setAttribute('aria-disabled', 'true');
  try {
    const form: FormPart[] = [{ name: 'video_setting_id', value: s.video_setting_id }];
    for (const field of s.request_fields) {
      if (!FILE_FIELDS.includes(field)) form.push({ name: field, value: values.text });
      else for (const file of values.files[field] ?? []) form.push({ name: field, value: file });
    }
    const answer = await send(buildRequest(generateVideo, { params: {}, form }, state.target));
    const body = answer.json as { video_id?: string; error_code?: string; error?: string } | undefined;
    if (answer.status >= 300 || !body?.video_id) {
      throw Object.assign(new Error(answer.bodyError ?? body?.error ?? answer.notJson ?? `HTTP ${answer.status}`), {
        status: answer.status,
        error_code: body?.error_code,
        error: body?.error,
        headers: answer.headers,
      });
    }
    const video_id = body.video_id;
    const forWhom = state.target.identity;
    videoId = video_id;
    log.append(h('li', {}, `generation accepted: video ${video_id}`));
    const video = await follow(video_id, log);
    // Another account was chosen meanwhile: this video is not its to show or convert.
    if (state.target.identity !== forWhom) return;
    fill(videoArea, player(video.download_url, 'The generated video'));
    await loadConversionOptions(video_id);
  } catch (error) {
    const text = explain('Generation', error);
    log.append(h('li', { class: 'vg-error' }, text));
  } finally {
    generateButton.disabled = false;
  }
});

// ---- 4. convert -----------------------------------------------------------------------------------
const languageSelect = h('select', { 'aria-label': 'Target language' });
const ratioSelect = h('select', { 'aria-label': 'Target aspect ratio' });
const optionsNote = h('p', { class: 'vg-note' });
const convertButton = h('button', { type: 'button', class: 'vg-button' }, 'Convert');
const conversionLog = h('ol', { class: 'vg-log', 'aria-label': 'Conversion status' });
const conversionArea = h('div');
const conversionStep = h(
  'section',
  { class: 'vg-step', 'aria-disabled': 'true', 'aria-labelledby': 'vg-step-convert' },
  h('h2', { id: 'vg-step-convert' }, '4. Convert it and play the conversion'),
  optionsNote,
  h('div', { class: 'vg-row' }, languageSelect, ratioSelect, convertButton),
  conversionLog,
  conversionArea,
);

async function loadConversionOptions(id: string) {
  try {
    const o = await client().conversions.get(id);
    const languages = Object.keys(LANGUAGE_NAMES);
    const name = (code: string) => `${code} — ${(LANGUAGE_NAMES as Record<string, string>)[code] ?? code}`;
    fill(
      languageSelect,
      h('option', { value: '' }, `keep ${name(o.current_language)}`),
      h(
        'optgroup',
        { label: 'Available for this video' },
        o.available_languages.map((l) => h('option', { value: l }, name(l))),
      ),
      h(
        'optgroup',
        { label: 'Not available (to see the refusal)' },
        languages
          .filter((l) => !o.available_languages.includes(l as never))
          .map((l) => h('option', { value: l }, name(l))),
      ),
    );
    fill(
      ratioSelect,
      h('option', { value: '' }, `keep ${o.current_aspect_ratio}`),
      o.available_aspect_ratios.map((r) => h('option', { value: r }, r)),
    );
    const first = o.available_languages.find((l) => l !== o.current_language);
    if (first) languageSelect.value = first;
    optionsNote.textContent = o.is_convertible
      ? `The video is in ${name(o.current_language)}, ${o.current_aspect_ratio}; it can be converted to ${o.available_languages.length} languages and ${o.available_aspect_ratios.length} aspect ratios.`
      : 'This video cannot be converted (is_convertible is false); converting it shows the refusal.';
    conversionStep.setAttribute('aria-disabled', 'false');
  } catch (error) {
    optionsNote.textContent = explain('Reading the conversion options', error);
  }
}

convertButton.addEventListener('click', async () => {
  if (!videoId) return;
  convertButton.disabled = true;
  fill(conversionLog);
  fill(conversionArea);
  try {
    // The selects offer only the document's values (its enums, read from the page's document).
    const target: ConversionTarget = {};
    if (languageSelect.value) target.language = languageSelect.value as Language;
    if (ratioSelect.value) target.aspect_ratio = ratioSelect.value as AspectRatio;
    const { video_id } = await client().convert(videoId, target);
    conversionLog.append(h('li', {}, `conversion accepted: new video ${video_id} (the source is unchanged)`));
    const video = await follow(video_id, conversionLog);
    fill(conversionArea, player(video.download_url, 'The converted video'));
  } catch (error) {
    const text = explain('Conversion', error);
    conversionLog.append(h('li', { class: 'vg-error' }, text));
  } finally {
    convertButton.disabled = false;
  }
});

// ---- the page ----------------------------------------------------------------------------------------
function step(id: string, title: string, ...children: (Node | string | false | undefined)[]) {
  return h('section', { class: 'vg-step', 'aria-labelledby': id }, h('h2', { id }, title), ...children);
}

main.append(
  targetView(state),
  step(
    'vg-step-setting',
    '1. Pick a video setting',
    h(
      'div',
      { class: 'vg-row' },
      settingSelect,
      h(
        'button',
        { type: 'button', class: 'vg-button vg-secondary', onclick: () => void loadSettings() },
        'Load settings',
      ),
    ),
    settingNote,
  ),
  step('vg-step-input', '2. Give the input', inputArea),
  step('vg-step-generate', '3. Generate and watch the status', pace, generateButton, log, videoArea),
  conversionStep,
  errors,
);
for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-vg-site]')) {
  link.href = new URL(link.dataset.vgSite ?? '', location.href).pathname;
}
// Settings and videos belong to one account: another account (or key) starts the flow afresh, with
// its own settings, rather than offering the first account's ids to it.
let shownFor = state.target.identity;
state.onChange(() => {
  renderPace();
  if (state.target.identity !== shownFor) {
    shownFor = state.target.identity;
    settings = [];
    fill(settingSelect);
    videoId = undefined;
    fill(log);
    fill(videoArea);
    fill(conversionLog);
    fill(conversionArea);
    conversionStep.setAttribute('aria-disabled', 'true');
    settingNote.textContent = 'Load the settings of this account.';
    if (state.target.mode === 'sandbox') void loadSettings();
  }
  renderInput();
});
renderPace();
renderInput();
if (state.target.mode === 'sandbox') void loadSettings();

// The colour-mode toggle: the reference's key, so both pages agree.
const toggle = byId('vg-theme-toggle');
const renderToggle = () => {
  toggle.textContent = document.documentElement.classList.contains('dark') ? 'Light' : 'Dark';
};
toggle.addEventListener('click', () => {
  const next = document.documentElement.classList.contains('dark') ? 'light' : 'dark';
  document.documentElement.classList.remove('light', 'dark');
  document.documentElement.classList.add(next);
  try {
    localStorage.setItem('redoc.colorMode', next);
    localStorage.setItem('videogen.docs.colorModeChosen', '1');
  } catch {}
  renderToggle();
});
renderToggle();
