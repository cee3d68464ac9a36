// The "Try it" console: one panel beside the reference, opened from any operation. It builds the form of
// the operation from the document (path and query parameters, the JSON body of a conversion, the
// multipart form of a generation with its valid combinations as choices and real files), sends it with
// Send, and shows the answer (status, headers, body, in words) and the request as curl.
import {
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

interface Known {
  /** Videos seen on this page (created, listed), newest first, with a note. */
  videos: Map<string, string>;
  settings: Map<string, { title: string; request_fields: string[] }>;
}

interface OpState {
  params: Record<string, string>;
  json: string;
  mode: number;
  setting: string;
  text: string;
  files: Record<string, File[]>;
}

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

export function createConsole(spec: OpenApiDocument, operations: Operation[], state: TargetState): Console {
  const descriptions = errorCodeDescriptions(spec);
  const conversion = spec.components.schemas.ConversionRequest?.properties;
  const languages = enumOf(spec, conversion?.language) ?? [];
  const ratios = enumOf(spec, conversion?.aspect_ratio) ?? [];
  const known: Known = { videos: new Map(), settings: new Map() };
  const states = new Map<string, OpState>();
  let current: Operation | undefined;
  let controller: AbortController | undefined;

  const title = h('h2', { id: 'vg-console-title' }, 'Try it');
  const route = h('p', { class: 'vg-route' });
  const form = h('div', { class: 'vg-form' });
  const hint = h('p', { class: 'vg-hint', role: 'note', hidden: true });
  const sendButton = h('button', { type: 'button', class: 'vg-button vg-send', onclick: () => void sendNow() }, 'Send');
  const sendNote = h('span', { class: 'vg-note' });
  const answer = h('section', { class: 'vg-answer', 'aria-label': 'Response', 'aria-live': 'polite' });
  const curl = h('pre', { class: 'vg-code', 'aria-label': 'Request as curl' });
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

  const element = h(
    'aside',
    { id: 'vg-console', class: 'vg-console', role: 'dialog', 'aria-labelledby': 'vg-console-title', hidden: true },
    h('header', { class: 'vg-console-head' }, h('div', {}, title, route), closeButton),
    h(
      'div',
      { class: 'vg-console-body' },
      targetView(state, (account) => {
        for (const [id, note] of known.videos) if (note.startsWith(`${account}:`)) known.videos.delete(id);
      }),
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
  state.onChange(() => current && render());

  const account = (): SandboxAccount | undefined => state.target.account;
  const plan = (): Plan | undefined => account()?.plan;

  function stateOf(op: Operation): OpState {
    let s = states.get(op.operationId);
    if (!s) {
      s = { params: {}, json: '', mode: 0, setting: '', text: 'Explain photosynthesis to a ten-year-old.', files: {} };
      for (const p of op.parameters)
        if (p.in === 'query' && p.example !== undefined) s.params[p.name] = String(p.example);
      const first = op.bodyExamples[0];
      if (op.body === 'application/json') s.json = JSON.stringify(first?.value ?? {}, null, 2);
      states.set(op.operationId, s);
    }
    return s;
  }

  /** Videos to offer for a video_id: the sandbox account's seeded ones, then those seen on this page. */
  function videoChoices(): [string, string][] {
    const seeded = (account()?.videos ?? []).map((v): [string, string] => [
      v.video_id,
      `seeded: ${v.status}${v.convertible ? ', convertible' : ', not convertible'}${
        v.real_avatar ? ', real avatar' : ''
      }${Array.isArray(v.voices) ? `, voices ${v.voices.join(' ')}` : ''}${v.unknown_error ? ', conversion → 500' : ''} — ${v.prompt}`,
    ]);
    return [...known.videos, ...seeded];
  }

  function settingChoices(): [string, { title: string; request_fields: string[] }][] {
    const seeded = (account()?.settings ?? []).map((s): [string, { title: string; request_fields: string[] }] => [
      s.video_setting_id,
      s,
    ]);
    const all = new Map([...seeded, ...known.settings]);
    return [...all];
  }

  function render() {
    const op = current;
    if (!op) return;
    const s = stateOf(op);
    title.textContent = `Try it: ${op.summary}`;
    fill(
      route,
      h('span', { class: `vg-method vg-${op.method.toLowerCase()}` }, op.method),
      ' ',
      h('code', {}, op.path),
    );
    const parts: HTMLElement[] = [];
    const paramInputs = op.parameters.map((p) => paramField(op, p.name, p.in, p.required, p.description, s));
    if (paramInputs.length) parts.push(h('fieldset', {}, h('legend', {}, 'Parameters'), paramInputs));
    if (op.body === 'application/json') parts.push(conversionBody(s));
    if (op.body === 'multipart/form-data') parts.push(generationBody(s));
    fill(form, parts);
    refresh();
  }

  function paramField(op: Operation, name: string, where: string, required: boolean, description: string, s: OpState) {
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
      op && undefined,
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
    // The setting that fits the chosen combination, when the reader has not typed one.
    const fitting = settingChoices().find(([, v]) => !formProblem(mode.fields, v.request_fields));
    if (!s.setting && fitting) s.setting = fitting[0];
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
              if (fit && i < MODES.length) s.setting = fit[0];
              render();
            },
          }),
          h('label', { for: id }, m.label, m.optional.length ? `, optionally + ${m.optional.join(', ')}` : ''),
        );
      }),
    );
    const setting = h(
      'div',
      { class: 'vg-field' },
      h('label', { for: settingId }, h('code', {}, 'video_setting_id'), ' (required)'),
      h('input', {
        id: settingId,
        name: 'video_setting_id',
        list: settingList,
        value: s.setting,
        spellcheck: 'false',
        oninput: (e: Event) => {
          s.setting = (e.target as HTMLInputElement).value;
          refresh();
        },
      }),
      h(
        'datalist',
        { id: settingList },
        settingChoices().map(([value, v]) => h('option', { value }, `${v.title} — ${v.request_fields.join(', ')}`)),
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
            refresh();
          },
        }),
      );
    });
    return h('fieldset', {}, h('legend', {}, 'Multipart form'), choices, setting, inputs);
  }

  /** The request as the form stands. */
  function input(op: Operation): RequestInput {
    const s = stateOf(op);
    if (op.body === 'application/json') return { params: s.params, json: s.json };
    if (op.body === 'multipart/form-data') {
      const modes = [...MODES, OTHER];
      const mode = modes[s.mode] ?? modes[0];
      const form: FormPart[] = [{ name: 'video_setting_id', value: s.setting }];
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
      const setting = settingChoices().find(([id]) => id === stateOf(op).setting)?.[1];
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
    sendButton.disabled = true;
    fill(answer, h('p', { class: 'vg-note' }, 'Sending…'));
    try {
      const res = await send(request, controller.signal);
      learn(op, res);
      showAnswer(op, res);
    } catch (error) {
      if ((error as Error).name === 'AbortError') return;
      fill(
        answer,
        h(
          'p',
          { class: 'vg-error' },
          `No answer: ${(error as Error).message}. The server may be down or unreachable, or (for another origin) not allow cross-origin requests (CORS).`,
        ),
      );
    } finally {
      sendButton.disabled = false;
    }
  }

  /** Ids seen in answers become choices of the video_id and video_setting_id fields. */
  function learn(op: Operation, res: Answer) {
    const body = res.json as Learned | undefined;
    if (!body || res.status >= 300) return;
    const who = account()?.name ?? 'you';
    if (op.method === 'POST' && typeof body.video_id === 'string') {
      known.videos = new Map([[body.video_id, `${who}: created here by ${op.operationId}`], ...known.videos]);
    }
    if (Array.isArray(body.results)) {
      for (const item of body.results as ListedItem[]) {
        if (typeof item.video_setting_id === 'string')
          known.settings.set(item.video_setting_id, {
            title: String(item.title),
            request_fields: Array.isArray(item.request_fields) ? item.request_fields : [],
          });
        else if (typeof item.video_id === 'string' && !known.videos.has(item.video_id))
          known.videos.set(item.video_id, `${who}: listed — ${item.prompt ?? ''}`);
      }
    }
  }

  function showAnswer(op: Operation, res: Answer) {
    const why = explainAnswer(res.status, res.json, res.headers, descriptions);
    const interesting = (name: string) => /^(ratelimit|retry-after)/i.test(name);
    const created = (res.json as Learned | undefined)?.video_id;
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
        ` · ${res.ms} ms`,
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
      h('pre', { class: 'vg-code vg-body' }, res.json !== undefined ? JSON.stringify(res.json, null, 2) : res.text),
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
      element.hidden = false;
      document.documentElement.classList.add('vg-console-open');
      sendButton.focus({ preventScroll: true });
    },
    close() {
      element.hidden = true;
      document.documentElement.classList.remove('vg-console-open');
      controller?.abort();
    },
  };
  return api;
}
