// The "Try it" console: one panel beside the reference, opened from any operation. It builds the form of
// the operation from the document (path and query parameters, the JSON body of a conversion, the
// multipart form of a generation with its valid combinations as choices and real files), sends it with
// Send, and shows the answer (status, headers, body, in words) and the request as curl.
import {
  BODY_LIMITS,
  conversionProblem,
  formProblem,
  INPUT_MODES,
  LANGUAGE_NAMES,
  type ConversionTarget,
} from '@videogen/openapi/rules';
import { fill, h, uid } from './dom.ts';
import { explainAnswer } from './explain.ts';
import { acceptOf, FILE_FIELDS, fileProblem, type Plan } from './plans.ts';
import { buildRequest, curlOf, send, type Answer, type FormPart, type RequestInput } from './request.ts';
import type { OpenApiDocument } from '@videogen/openapi';
import { enumOf, errorCodeDescriptions, type Operation } from './spec.ts';
import type { SandboxAccount, TargetState } from './target.ts';
import { targetView } from './target-view.ts';

/** One valid combination of 4.1 (INPUT_MODES), or "other": every field, to see a refusal on purpose. */
interface Mode {
  label: string;
  fields: readonly string[];
  optional: readonly string[];
}

const MODES: Mode[] = [
  ...INPUT_MODES.map((m) => ({ label: `${m.fields.join(' + ')} (${m.mode})`, fields: m.fields, optional: m.optional })),
];
const ALL_FIELDS = [...new Set(INPUT_MODES.flatMap((m) => [...m.fields, ...m.optional]))];
const OTHER: Mode = {
  label: 'Other fields (to see how the service refuses a combination)',
  fields: ALL_FIELDS,
  optional: [],
};

/** What the page learned of one account (Target.identity): ids belong to their account. */
interface Known {
  /** Videos seen on this page (created, listed), newest first, with a note. */
  videos: Map<string, string>;
  settings: Map<string, Setting>;
}

interface Setting {
  title: string;
  request_fields: string[];
}

interface OpState {
  params: Record<string, string>;
  json: string;
  mode: number;
  /** The video_setting_id of the form, per account (Target.identity): another account's is never sent. */
  setting: Map<string, string>;
  text: string;
  files: Record<string, File[]>;
}

/** At most this many characters of a body are shown; the whole body read can be saved as a file. */
const SHOWN_CHARACTERS = 200_000;

export interface Console {
  open(operationId: string, params?: Record<string, string>): void;
  close(): void;
  element: HTMLElement;
}

/** What the console reads of an answer it learns ids from (any operation's: each value still to check). */
interface Learned {
  video_id?: unknown;
  results?: unknown;
}
interface ListedItem {
  video_setting_id?: unknown;
  title?: unknown;
  request_fields?: unknown;
  video_id?: unknown;
  prompt?: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function createConsole(spec: OpenApiDocument, operations: Operation[], state: TargetState): Console {
  const descriptions = errorCodeDescriptions(spec);
  const conversion = spec.components.schemas.ConversionRequest?.properties;
  const languages = enumOf(spec, conversion?.language) ?? [];
  const ratios = enumOf(spec, conversion?.aspect_ratio) ?? [];
  const knowledge = new Map<string, Known>();
  const states = new Map<string, OpState>();
  let current: Operation | undefined;
  let controller: AbortController | undefined;
  /** The account the form was built for: another one rebuilds it (its ids, its plan). */
  let builtFor = '';
  /** Where the focus was when the console opened: it goes back there when the console closes. */
  let opener: HTMLElement | undefined;
  /** The address of the last body offered for saving (released when another answer comes). */
  let saved: string | undefined;

  // The heading takes the focus when the console opens (tabindex -1: reachable by script, not by Tab),
  // so that a screen reader announces the operation and Tab goes on into the panel.
  const title = h('h2', { id: 'vg-console-title', tabindex: -1 }, 'Try it');
  const route = h('p', { class: 'vg-route' });
  const form = h('div', { class: 'vg-form' });
  const hint = h('div', { class: 'vg-hint', role: 'note', 'aria-label': 'Before sending', hidden: true });
  const sendButton = h('button', { type: 'button', class: 'vg-button vg-send', onclick: () => void sendNow() }, 'Send');
  const sendNote = h('span', { class: 'vg-note' });
  const answer = h('section', { class: 'vg-answer', 'aria-label': 'Response', 'aria-live': 'polite' });
  const curl = h('pre', { class: 'vg-code', 'aria-label': 'Request as curl', tabindex: 0 });
  const copied = h('span', { class: 'vg-note', role: 'status' });
  const copy = h(
    'button',
    {
      type: 'button',
      class: 'vg-button vg-secondary',
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(curl.textContent ?? '');
          copied.textContent = 'Copied';
        } catch {
          getSelection()?.selectAllChildren(curl);
          copied.textContent = 'Selected: press Ctrl+C';
        }
      },
    },
    'Copy curl',
  );
  const closeButton = h(
    'button',
    { type: 'button', class: 'vg-close', 'aria-label': 'Close the console', onclick: () => api.close() },
    '×',
  );

  // A non-modal dialog beside the reference: the page stays usable, Escape closes it. Its head is a div,
  // not a header: inside a dialog a header would be a second banner landmark of the page.
  const element = h(
    'div',
    {
      id: 'vg-console',
      class: 'vg-console',
      role: 'dialog',
      'aria-modal': 'false',
      'aria-labelledby': 'vg-console-title',
      hidden: true,
    },
    h('div', { class: 'vg-console-head' }, h('div', {}, title, route), closeButton),
    h(
      'div',
      { class: 'vg-console-body' },
      targetView(state, () => known().videos.clear()),
      form,
      hint,
      h('div', { class: 'vg-row vg-actions' }, sendButton, sendNote),
      answer,
      h('section', { class: 'vg-curl' }, h('h3', {}, 'Request as curl ', copy, ' ', copied), curl),
    ),
  );
  element.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') api.close();
  });
  // Another account rebuilds the form (its settings, its videos, its plan's formats); any other change
  // (a base URL or key being typed) only updates the hints, Send and the curl: nothing under the
  // reader's focus is replaced.
  state.onChange(() => {
    if (!current) return;
    if (state.target.identity !== builtFor) render();
    else refresh();
  });

  const account = (): SandboxAccount | undefined => state.target.account;
  const plan = (): Plan | undefined => account()?.plan;

  /** What the page learned of the current account. */
  function known(): Known {
    const id = state.target.identity;
    let k = knowledge.get(id);
    if (!k) {
      k = { videos: new Map(), settings: new Map() };
      knowledge.set(id, k);
    }
    return k;
  }

  function stateOf(op: Operation): OpState {
    let s = states.get(op.operationId);
    if (!s) {
      s = {
        params: {},
        json: '',
        mode: 0,
        setting: new Map(),
        text: 'Explain photosynthesis to a ten-year-old.',
        files: {},
      };
      for (const p of op.parameters)
        if (p.in === 'query' && p.example !== undefined) s.params[p.name] = String(p.example);
      const first = op.bodyExamples[0];
      if (op.body === 'application/json') s.json = JSON.stringify(first?.value ?? {}, null, 2);
      states.set(op.operationId, s);
    }
    return s;
  }

  const settingOf = (s: OpState) => s.setting.get(state.target.identity) ?? '';
  const chooseSetting = (s: OpState, id: string) => s.setting.set(state.target.identity, id);

  /** Videos to offer for a video_id: those seen on this page for this account, then its seeded ones. */
  function videoChoices(): [string, string][] {
    const seeded = (account()?.videos ?? []).map((v): [string, string] => [
      v.video_id,
      `seeded: ${v.status}${v.convertible ? ', convertible' : ', not convertible'}${
        v.real_avatar ? ', real avatar' : ''
      }${Array.isArray(v.voices) ? `, voices ${v.voices.join(' ')}` : ''}${v.unknown_error ? ', conversion → 500' : ''} — ${v.prompt}`,
    ]);
    return [...known().videos, ...seeded];
  }

  /** The settings of this account: the sandbox's seeded ones, and those listed on this page with its key. */
  function settingChoices(): [string, Setting][] {
    const seeded = (account()?.settings ?? []).map((s): [string, Setting] => [s.video_setting_id, s]);
    return [...new Map([...seeded, ...known().settings])];
  }

  function render() {
    const op = current;
    if (!op) return;
    builtFor = state.target.identity;
    const s = stateOf(op);
    title.textContent = `Try it: ${op.summary}`;
    fill(
      route,
      h('span', { class: `vg-method vg-${op.method.toLowerCase()}` }, op.method),
      ' ',
      h('code', {}, op.path),
    );
    const parts: HTMLElement[] = [];
    const paramInputs = op.parameters.map((p) => paramField(p.name, p.in, p.required, p.description, s));
    if (paramInputs.length) parts.push(h('fieldset', {}, h('legend', {}, 'Parameters'), paramInputs));
    if (op.body === 'application/json') parts.push(conversionBody(s));
    if (op.body === 'multipart/form-data') parts.push(generationBody(s));
    fill(form, parts);
    refresh();
  }

  function paramField(name: string, where: string, required: boolean, description: string, s: OpState) {
    const id = uid('vg-param');
    const listId = uid('vg-list');
    const isVideo = name === 'video_id';
    const input = h('input', {
      id,
      name,
      type: where === 'query' ? 'number' : 'text',
      min: where === 'query' ? 1 : undefined,
      value: s.params[name] ?? '',
      required,
      spellcheck: 'false',
      list: isVideo ? listId : undefined,
      placeholder: isVideo ? 'a video id (pick one from the list)' : undefined,
      oninput: (e: Event) => {
        s.params[name] = (e.target as HTMLInputElement).value;
        refresh();
      },
    });
    return h(
      'div',
      { class: 'vg-field' },
      h('label', { for: id }, h('code', {}, name), ` (${where}${required ? ', required' : ''})`),
      input,
      isVideo &&
        h(
          'datalist',
          { id: listId },
          videoChoices().map(([value, note]) => h('option', { value }, note)),
        ),
      h('small', {}, description),
    );
  }

  function conversionBody(s: OpState) {
    const id = uid('vg-json');
    const parsed = (): Record<string, unknown> => {
      try {
        const v = JSON.parse(s.json);
        return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
      } catch {
        return {};
      }
    };
    const textarea = h('textarea', {
      id,
      rows: 4,
      spellcheck: 'false',
      class: 'vg-json',
      oninput: (e: Event) => {
        s.json = (e.target as HTMLTextAreaElement).value;
        refresh();
      },
    });
    textarea.value = s.json;
    const pick = (field: 'language' | 'aspect_ratio', values: string[], names?: Record<string, string>) => {
      const selectId = uid('vg-pick');
      const now = parsed()[field];
      return h(
        'div',
        { class: 'vg-field vg-inline' },
        h('label', { for: selectId }, h('code', {}, field)),
        h(
          'select',
          {
            id: selectId,
            onchange: (e: Event) => {
              const body = parsed();
              const value = (e.target as HTMLSelectElement).value;
              if (value) body[field] = value;
              else delete body[field];
              s.json = JSON.stringify(body, null, 2);
              textarea.value = s.json;
              refresh();
            },
          },
          h('option', { value: '' }, '(not sent)'),
          values.map((v) => h('option', { value: v, selected: v === now }, names?.[v] ? `${v} — ${names[v]}` : v)),
        ),
      );
    };
    return h(
      'fieldset',
      {},
      h('legend', {}, 'JSON body'),
      h(
        'div',
        { class: 'vg-row' },
        pick('language', languages, LANGUAGE_NAMES as Record<string, string>),
        pick('aspect_ratio', ratios),
      ),
      h('label', { for: id }, 'Sent as typed (edit it to see the service refuse a body):'),
      textarea,
    );
  }

  function generationBody(s: OpState) {
    const modes = [...MODES, OTHER];
    const mode = modes[s.mode] ?? modes[0];
    const fields = [...mode.fields, ...mode.optional];
    // The setting of this account that fits the chosen combination, when the reader has not typed one.
    const fitting = settingChoices().find(([, v]) => !formProblem(mode.fields, v.request_fields));
    if (!settingOf(s) && fitting) chooseSetting(s, fitting[0]);
    const choiceName = uid('vg-mode');
    const settingId = uid('vg-setting');
    const settingList = uid('vg-list');
    const choices = h(
      'fieldset',
      { class: 'vg-modes' },
      h('legend', {}, 'Input (the combinations the service accepts, 4.1)'),
      modes.map((m, i) => {
        const id = uid('vg-mode');
        return h(
          'div',
          { class: 'vg-radio' },
          h('input', {
            type: 'radio',
            id,
            name: choiceName,
            checked: i === s.mode,
            onchange: () => {
              s.mode = i;
              const fit = settingChoices().find(([, v]) => !formProblem(m.fields, v.request_fields));
              if (fit && i < MODES.length) chooseSetting(s, fit[0]);
              render();
              // The radios were rebuilt: the focus goes back to the one chosen (arrow keys go on from it).
              form.querySelector<HTMLInputElement>('.vg-modes input:checked')?.focus();
            },
          }),
          h('label', { for: id }, m.label, m.optional.length ? `, optionally + ${m.optional.join(', ')}` : ''),
        );
      }),
    );
    const listButton =
      state.target.mode === 'hosted' && settingChoices().length === 0
        ? h(
            'button',
            { type: 'button', class: 'vg-button vg-secondary', onclick: () => void listSettings() },
            "List this account's settings",
          )
        : undefined;
    const setting = h(
      'div',
      { class: 'vg-field' },
      h('label', { for: settingId }, h('code', {}, 'video_setting_id'), ' (required)'),
      h('input', {
        id: settingId,
        name: 'video_setting_id',
        list: settingList,
        value: settingOf(s),
        spellcheck: 'false',
        oninput: (e: Event) => {
          chooseSetting(s, (e.target as HTMLInputElement).value);
          refresh();
        },
      }),
      h(
        'datalist',
        { id: settingList },
        settingChoices().map(([value, v]) => h('option', { value }, `${v.title} — ${v.request_fields.join(', ')}`)),
      ),
      h(
        'small',
        {},
        'Setting ids belong to one account: ',
        state.target.mode === 'sandbox'
          ? `those offered are ${account()?.name ?? 'this account'}'s.`
          : 'those offered were listed with the key above.',
        listButton ? ' ' : '',
        listButton,
      ),
    );
    const inputs = fields.map((field) => {
      const id = uid('vg-field');
      const optional = mode.optional.includes(field);
      if (!FILE_FIELDS.includes(field)) {
        const area = h('textarea', {
          id,
          name: field,
          rows: 2,
          placeholder: 'Explain photosynthesis to a ten-year-old.',
          oninput: (e: Event) => {
            s.text = (e.target as HTMLTextAreaElement).value;
            refresh();
          },
        });
        area.value = s.text;
        return h(
          'div',
          { class: 'vg-field' },
          h('label', { for: id }, h('code', {}, field), optional ? ' (optional)' : ''),
          area,
        );
      }
      const multiple = field === 'image_files';
      // The files chosen, said beside the picker: a picker rebuilt for another account shows none of them.
      const chosenNames = () => (s.files[field] ?? []).map((f) => f.name).join(', ');
      const chosen = h('small', {}, chosenNames() && `Chosen: ${chosenNames()}`);
      return h(
        'div',
        { class: 'vg-field' },
        h(
          'label',
          { for: id },
          h('code', {}, field),
          optional ? ' (optional)' : '',
          multiple ? ' (one or more files)' : '',
        ),
        h('input', {
          id,
          name: field,
          type: 'file',
          multiple,
          accept: acceptOf(field, plan()),
          onchange: (e: Event) => {
            s.files[field] = [...((e.target as HTMLInputElement).files ?? [])];
            chosen.textContent = chosenNames() && `Chosen: ${chosenNames()}`;
            refresh();
          },
        }),
        chosen,
      );
    });
    return h('fieldset', {}, h('legend', {}, 'Multipart form'), choices, setting, inputs);
  }

  /** Hosted: the account's settings are unknown until listed with its key; one request lists them. */
  async function listSettings() {
    const op = operations.find((o) => o.operationId === 'listVideoSettings');
    if (!op) return;
    const stateBefore = state.target.identity;
    const request = buildRequest(op, { params: {} }, state.target);
    controller?.abort();
    controller = new AbortController();
    try {
      const res = await send(request, controller.signal);
      if (state.target.identity !== stateBefore) return;
      learn(op, res);
      if (res.status >= 300 || settingChoices().length === 0) showAnswer(op, res);
    } catch (error) {
      if ((error as Error).name === 'AbortError') return;
      noAnswer(error);
    }
    render();
  }

  /** The request as the form stands. */
  function input(op: Operation): RequestInput {
    const s = stateOf(op);
    if (op.body === 'application/json') return { params: s.params, json: s.json };
    if (op.body === 'multipart/form-data') {
      const modes = [...MODES, OTHER];
      const mode = modes[s.mode] ?? modes[0];
      const form: FormPart[] = [{ name: 'video_setting_id', value: settingOf(s) }];
      for (const field of [...mode.fields, ...mode.optional]) {
        if (FILE_FIELDS.includes(field))
          for (const file of s.files[field] ?? []) form.push({ name: field, value: file });
        else if (s.text !== '' || !mode.optional.includes(field)) form.push({ name: field, value: s.text });
      }
      return { params: s.params, form };
    }
    return { params: s.params };
  }

  /** Hints before sending: what the service would refuse (the shared rules), and a missing target. */
  function problems(op: Operation, req: RequestInput): string[] {
    const out: string[] = [];
    const target = state.target;
    if (!target.baseUrl) out.push('Type the base URL of the service (with /v1) above.');
    if (!target.key) out.push('Type an API key above.');
    for (const p of op.parameters)
      if (p.required && !(req.params[p.name] ?? '').trim()) out.push(`${p.name} is required.`);
    if (req.form) {
      const given = req.form.filter((f) => f.name !== 'video_setting_id').map((f) => f.name);
      const chosen = settingOf(stateOf(op));
      const choices = settingChoices();
      const setting = choices.find(([id]) => id === chosen)?.[1];
      if (chosen && !setting && choices.length)
        out.push(
          `video_setting_id ${chosen} is not one of this account's settings: setting ids belong to one account, and the service refuses another's.`,
        );
      const problem = formProblem(given, setting?.request_fields);
      if (problem) out.push(`The service will refuse this form: ${problem.message}`);
      for (const part of req.form)
        if (typeof part.value !== 'string') {
          const p = fileProblem(part.name, part.value, plan());
          if (p) out.push(`The service will refuse this file: ${p}`);
        }
    }
    if (req.json !== undefined) {
      let body: unknown;
      try {
        body = JSON.parse(req.json);
      } catch {
        out.push('The body is not valid JSON: the service will answer 400.');
      }
      if (body && typeof body === 'object') {
        const problem = conversionProblem(body as ConversionTarget);
        if (problem) out.push(`The service will refuse this body: ${problem.error_code} — ${problem.message}`);
      }
    }
    return out;
  }

  function refresh() {
    const op = current;
    if (!op) return;
    const req = input(op);
    const target = state.target;
    const listed = problems(op, req);
    hint.hidden = listed.length === 0;
    fill(
      hint,
      listed.length
        ? h(
            'ul',
            {},
            listed.map((p) => h('li', {}, p)),
          )
        : undefined,
    );
    sendButton.disabled = !target.baseUrl || !target.key;
    const method = op.method === 'GET' ? 'get' : 'post';
    const cls = spec.paths[op.path]?.[method]?.['x-rate-limit'];
    sendNote.textContent = cls
      ? `Rate-limit class ${cls.class}: ${cls.requests} requests per ${cls.window_seconds} s per account.`
      : '';
    curl.textContent = curlOf(
      buildRequest(op, req, { ...target, baseUrl: target.baseUrl || '$VIDEO_API_BASE_URL' }),
      target.mode === 'sandbox',
    );
    copied.textContent = '';
  }

  async function sendNow() {
    const op = current;
    if (!op) return;
    controller?.abort();
    controller = new AbortController();
    const request = buildRequest(op, input(op), state.target);
    // Disabled while sending (one request at a time); a focused button that is disabled drops the focus
    // to the page, so it is given back when the answer comes.
    const hadFocus = document.activeElement === sendButton;
    sendButton.disabled = true;
    fill(answer, h('p', { class: 'vg-note' }, 'Sending…'));
    let res: Answer;
    try {
      res = await send(request, controller.signal);
    } catch (error) {
      if ((error as Error).name !== 'AbortError') noAnswer(error);
      return;
    } finally {
      sendButton.disabled = false;
      const lost = !document.activeElement || document.activeElement === document.body;
      if (hadFocus && lost && !element.hidden) sendButton.focus({ preventScroll: true });
    }
    learn(op, res);
    showAnswer(op, res);
  }

  /** No answer at all came: the request failed before any status (network, CORS). */
  function noAnswer(error: unknown) {
    fill(
      answer,
      h(
        'p',
        { class: 'vg-error' },
        `No answer: ${(error as Error).message}. The server may be down or unreachable, or (for another origin) not allow cross-origin requests (CORS).`,
      ),
    );
  }

  /** Ids seen in answers become choices of the video_id and video_setting_id fields, for this account. */
  function learn(op: Operation, res: Answer) {
    const body = res.json as Learned | undefined;
    if (!isObject(body) || res.status >= 300) return;
    const k = known();
    if (op.method === 'POST' && typeof body.video_id === 'string') {
      k.videos = new Map([[body.video_id, `created here by ${op.operationId}`], ...k.videos]);
    }
    if (!Array.isArray(body.results)) return;
    for (const item of body.results as unknown[]) {
      // Only what can be read is learned: an item that is not an object (null, a string) is skipped.
      if (!isObject(item)) continue;
      const listed = item as ListedItem;
      if (typeof listed.video_setting_id === 'string')
        k.settings.set(listed.video_setting_id, {
          title: typeof listed.title === 'string' ? listed.title : listed.video_setting_id,
          request_fields: Array.isArray(listed.request_fields)
            ? listed.request_fields.filter((f): f is string => typeof f === 'string')
            : [],
        });
      else if (typeof listed.video_id === 'string' && !k.videos.has(listed.video_id))
        k.videos.set(listed.video_id, `listed — ${typeof listed.prompt === 'string' ? listed.prompt : ''}`);
    }
  }

  /** What the console could not read in an answer: every fact said, the body shown as it came. */
  function bodyNotes(res: Answer): string[] {
    const notes: string[] = [];
    if (res.redirectedTo) {
      const crossOrigin = new URL(res.redirectedTo).origin !== new URL(res.url).origin;
      notes.push(
        `The browser followed a redirect: this is the answer of ${res.redirectedTo}${
          crossOrigin
            ? ', another origin, to which a browser does not send the Authorization header (so the key did not reach it)'
            : ''
        }.`,
      );
    }
    if (res.bodyError)
      notes.push(
        `The body was not read whole: ${res.bodyError}. The console reads an answer as the client does, at most ${mib(
          BODY_LIMITS.maxBytes,
        )} within ${BODY_LIMITS.totalMs / 1000} s, and gives up on a body that brings less than ${
          BODY_LIMITS.progressBytes
        } bytes in ${BODY_LIMITS.idleMs / 1000} s (the toolkit's transport limits); the status and headers above are the server's.`,
      );
    else if (res.notJson) notes.push(res.notJson);
    const results = isObject(res.json) ? res.json.results : undefined;
    if (Array.isArray(results)) {
      const unread = results.flatMap((item, i) => (isObject(item) ? [] : [`results[${i}] is ${kindOf(item)}`]));
      if (unread.length)
        notes.push(
          `${unread.slice(0, 3).join(', ')}${unread.length > 3 ? `, and ${unread.length - 3} more` : ''}: not an object, so the console took no id from ${
            unread.length > 1 ? 'them' : 'it'
          }.`,
        );
    }
    return notes;
  }

  function showAnswer(op: Operation, res: Answer) {
    const why = explainAnswer(res.status, res.json, res.headers, descriptions);
    const interesting = (name: string) => /^(ratelimit|retry-after)/i.test(name);
    const created = isObject(res.json) ? res.json.video_id : undefined;
    const next =
      op.method === 'POST' && res.status < 300 && typeof created === 'string'
        ? h(
            'button',
            {
              type: 'button',
              class: 'vg-button vg-secondary',
              onclick: () => api.open('getVideo', { video_id: created }),
            },
            'Poll this video',
          )
        : undefined;
    const { shown, whole, note } = bodyText(res);
    const notes = [...bodyNotes(res), ...(note ? [note] : [])];
    if (saved) URL.revokeObjectURL(saved);
    saved = undefined;
    let saveLink: HTMLAnchorElement | undefined;
    if (shown.length < whole.length || res.bodyError) {
      saved = URL.createObjectURL(new Blob([res.bytes]));
      saveLink = h(
        'a',
        { href: saved, download: `answer-${res.status}.${res.json !== undefined ? 'json' : 'txt'}` },
        `Save the body read (${res.bytes.byteLength} bytes)`,
      );
    }
    fill(
      answer,
      h('h3', {}, 'Response'),
      h(
        'p',
        { class: 'vg-status-line' },
        h(
          'strong',
          { class: `vg-status vg-status-${String(res.status)[0]}xx`, 'data-status': res.status },
          `${res.status} ${res.statusText}`,
        ),
        ` · ${res.ms} ms · ${res.bytes.byteLength} bytes`,
      ),
      notes.length > 0 &&
        h(
          'div',
          { class: 'vg-hint vg-answer-notes', role: 'note', 'aria-label': 'About this answer' },
          h(
            'ul',
            {},
            notes.map((n) => h('li', {}, n)),
          ),
        ),
      h(
        'div',
        { class: 'vg-explain' },
        h('p', {}, why.summary),
        why.next && h('p', {}, why.next),
        why.retryAfter && h('p', {}, why.retryAfter),
        why.rateLimit && h('p', {}, why.rateLimit),
        next,
      ),
      h(
        'details',
        { class: 'vg-headers', open: true },
        h('summary', {}, `Headers (${res.headers.length})`),
        h(
          'table',
          {},
          h(
            'tbody',
            {},
            res.headers.map(([name, value]) =>
              h(
                'tr',
                { class: interesting(name) ? 'vg-rate' : undefined },
                h('th', { scope: 'row' }, name),
                h('td', {}, value),
              ),
            ),
          ),
        ),
      ),
      h('h4', {}, 'Body'),
      shown.length < whole.length &&
        h(
          'p',
          { class: 'vg-note' },
          `Shown: the first ${SHOWN_CHARACTERS.toLocaleString('en')} characters of ${whole.length.toLocaleString('en')}. `,
          saveLink,
        ),
      shown.length >= whole.length && saveLink && h('p', { class: 'vg-note' }, saveLink),
      h('pre', { class: 'vg-code vg-body', tabindex: 0, 'aria-label': 'Body' }, shown),
    );
  }

  const api: Console = {
    element,
    open(operationId, params) {
      const op = operations.find((o) => o.operationId === operationId);
      if (!op) return;
      if (current !== op) fill(answer);
      current = op;
      if (params) Object.assign(stateOf(op).params, params);
      render();
      const focused = document.activeElement;
      if (focused instanceof HTMLElement && !element.contains(focused)) opener = focused;
      element.hidden = false;
      document.documentElement.classList.add('vg-console-open');
      title.focus({ preventScroll: true });
    },
    close() {
      element.hidden = true;
      document.documentElement.classList.remove('vg-console-open');
      controller?.abort();
      if (opener?.isConnected) opener.focus({ preventScroll: true });
      opener = undefined;
    },
  };
  return api;
}

/** The body as shown: indented JSON when it is JSON and can be indented, else the text as it came. */
function bodyText(res: Answer): { shown: string; whole: string; note?: string } {
  let whole = res.text;
  let note: string | undefined;
  if (res.json !== undefined && !res.bodyError) {
    try {
      whole = JSON.stringify(res.json, null, 2);
    } catch {
      note = 'The body is JSON nested too deeply to indent: shown as it came.';
    }
  }
  return { shown: whole.length > SHOWN_CHARACTERS ? whole.slice(0, SHOWN_CHARACTERS) : whole, whole, note };
}

/** What a JSON value is, in a word (never the value itself: it may be nested deeper than the stack). */
const kindOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`);

const mib = (bytes: number) => `${bytes / 1_048_576} MiB`;
