// The target panel, shared by the console and the flow page: the sandbox's accounts (plans and credits,
// the plans' differences, a reset) when a sandbox served the page; a base URL and a key otherwise.
import { PRODUCTION_BASE_URL } from '@videogen/openapi/rules';
import { fill, h, uid } from './dom.ts';
import { planName, planTable, type Plan } from './plans.ts';
import type { TargetState } from './target.ts';

export function targetView(state: TargetState, onReset?: (account: string) => void): HTMLElement {
  const sandbox = state.sandbox;
  // The mode switch stays, and each panel is built once per mode: typing in a field or choosing a key
  // only updates the state, so no element under the reader's focus is ever replaced (a rebuilt field
  // lost its focus, and with it the key being typed and the next Tab).
  const modeSwitch = sandbox
    ? h(
        'div',
        { class: 'vg-mode', role: 'radiogroup', 'aria-label': 'Send requests to' },
        radio('vg-target-mode', 'sandbox', 'This sandbox', state.mode === 'sandbox', () =>
          state.update({ mode: 'sandbox' }),
        ),
        radio('vg-target-mode', 'hosted', 'Another server', state.mode === 'hosted', () =>
          state.update({ mode: 'hosted' }),
        ),
      )
    : undefined;
  const panels = new Map<string, HTMLElement>();
  const panel = h('div');
  const show = () => {
    const mode = state.mode === 'sandbox' && sandbox ? 'sandbox' : 'hosted';
    let shown = panels.get(mode);
    if (!shown) {
      shown = mode === 'sandbox' && sandbox ? sandboxPanel(state, sandbox, onReset) : hostedPanel(state);
      panels.set(mode, shown);
    }
    if (panel.firstElementChild !== shown) fill(panel, shown);
  };
  state.onChange(show);
  show();
  return h('section', { class: 'vg-target', 'aria-label': 'Where requests go' }, modeSwitch, panel);
}

function radio(name: string, value: string, label: string, checked: boolean, onChange: () => void) {
  const id = uid('vg-radio');
  return h(
    'span',
    { class: 'vg-radio' },
    h('input', { type: 'radio', id, name, value, checked, onchange: onChange }),
    h('label', { for: id }, label),
  );
}

function sandboxPanel(
  state: TargetState,
  sandbox: NonNullable<TargetState['sandbox']>,
  onReset?: (account: string) => void,
) {
  const target = state.target;
  const id = uid('vg-key');
  const status = h('p', { class: 'vg-note', role: 'status' });
  const plans = h(
    'details',
    { class: 'vg-plan-details' },
    h('summary', {}, 'Plans and their differences'),
    planTable(target.account?.plan as Plan),
  );
  const select = h(
    'select',
    {
      id,
      onchange: (e: Event) => {
        state.update({ sandboxKey: (e.target as HTMLSelectElement).value });
        status.textContent = '';
        // The table in place: the select keeps the focus (arrow keys change the key one step at a time).
        plans.lastElementChild?.replaceWith(planTable(state.target.account?.plan as Plan));
      },
    },
    sandbox.accounts.flatMap((a) =>
      a.keys.map((key) =>
        h(
          'option',
          { value: key, selected: key === state.sandboxKey },
          `${key} — ${a.name}, ${planName(a.plan)} plan, ${a.credits} credits`,
        ),
      ),
    ),
  );
  const reset = h(
    'button',
    {
      type: 'button',
      class: 'vg-button vg-secondary',
      onclick: async () => {
        status.textContent = 'Resetting…';
        try {
          const res = await fetch(`${location.origin}/_sandbox/reset`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${state.sandboxKey}` },
            credentials: 'omit',
          });
          const body = await res.json();
          status.textContent = res.ok
            ? `Account ${body.account} is back to its seed: generated videos removed, ${body.credits} credits, rate windows and clock reset.`
            : `Reset refused: ${res.status} ${body.error_code ?? ''} ${body.error ?? ''}`;
          if (res.ok) onReset?.(body.account);
        } catch (error) {
          status.textContent = `Reset failed: ${(error as Error).message}`;
        }
      },
    },
    'Reset account',
  );
  const scale = sandbox.time_scale;
  return h(
    'div',
    { class: 'vg-sandbox' },
    h(
      'p',
      { class: 'vg-note' },
      'Requests go to ',
      h('code', {}, target.baseUrl),
      `, the sandbox that serves this page (time scale ${scale}: a ${sandbox.generation_seconds} s generation takes ${
        sandbox.generation_seconds / scale
      } s; rate limiter "${sandbox.rate_limiter}"; personality "${sandbox.personality}").`,
    ),
    h('div', { class: 'vg-row' }, h('label', { for: id }, 'Sandbox key'), select, reset),
    status,
    plans,
  );
}

function hostedPanel(state: TargetState) {
  const urlId = uid('vg-base');
  const keyId = uid('vg-apikey');
  const keepId = uid('vg-keep');
  return h(
    'div',
    { class: 'vg-hosted' },
    h(
      'div',
      { class: 'vg-row' },
      h('label', { for: urlId }, 'Base URL'),
      h('input', {
        id: urlId,
        type: 'url',
        value: state.hostedBaseUrl,
        placeholder: PRODUCTION_BASE_URL,
        spellcheck: 'false',
        autocomplete: 'url',
        oninput: (e: Event) => state.update({ hostedBaseUrl: (e.target as HTMLInputElement).value }),
      }),
    ),
    h(
      'div',
      { class: 'vg-row' },
      h('label', { for: keyId }, 'API key'),
      h('input', {
        id: keyId,
        type: 'password',
        value: state.hostedKey,
        autocomplete: 'off',
        spellcheck: 'false',
        oninput: (e: Event) => state.update({ hostedKey: (e.target as HTMLInputElement).value }),
      }),
    ),
    h(
      'div',
      { class: 'vg-row' },
      h('input', {
        id: keepId,
        type: 'checkbox',
        checked: state.keepKey,
        onchange: (e: Event) => state.update({ keepKey: (e.target as HTMLInputElement).checked }),
      }),
      h('label', { for: keepId }, 'Keep the key in this browser (localStorage)'),
    ),
    h(
      'p',
      { class: 'vg-note' },
      'The key stays in this page\u2019s memory unless you tick the box, and is sent only in the Authorization header, never in a URL. A browser reaches another origin only if it allows CORS (the sandbox does).',
    ),
  );
}
