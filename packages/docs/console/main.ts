// The reference page's script (inlined by scripts/build.mjs before Redoc's own): the servers panel shows
// the origin the page is served from when a sandbox serves it, every operation gets a "Try it" button
// that opens the console, and the site bar links the flow page.
import type { OpenApiDocument } from '@videogen/openapi';
import { createConsole } from './console.ts';
import { h } from './dom.ts';
import { operationsOf, readDocument } from './spec.ts';
import { readSandbox, sandboxBaseUrl, TargetState } from './target.ts';

declare global {
  interface Window {
    /** Called by the page on Redoc's definition before it hydrates (scripts/build.mjs wires it). */
    vgPatchDefinition?: (definition: OpenApiDocument) => OpenApiDocument;
  }
}

const isLoopback = (url: string) => /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\//.test(url);

/**
 * Where these docs are, in one paragraph put first in the landing text: the origin they are served from
 * (a sandbox's, whose base URL Try it uses, or a static host's), not the default address of the text.
 */
export function servedFrom(definition: OpenApiDocument, sandbox: boolean, loc: Location = location): string {
  const local = (definition.servers ?? []).find((s) => isLoopback(s.url));
  const npmStart = local ? ` (\`npm start\` runs one that serves them at \`${new URL(local.url).origin}/docs/\`)` : '';
  if (sandbox)
    return `**Served by the sandbox at \`${loc.origin}\`:** its base URL is \`${sandboxBaseUrl(loc)}\`, and **Try it** sends there with a key you pick from its accounts.`;
  if (!/^https?:$/.test(loc.protocol))
    return `**Opened from a file:** no sandbox serves these docs${npmStart}, so **Try it** sends to the base URL and key you type.`;
  return `**Served from \`${loc.origin}\`**, not by a sandbox${npmStart}: **Try it** sends to the base URL and key you type.`;
}

/**
 * Before Redoc renders: the landing text says where the docs are served from, and, served by a sandbox,
 * the servers panel names its origin first, in place of the document's loopback entry.
 */
window.vgPatchDefinition = (definition) => {
  const sandbox = readSandbox() !== undefined;
  definition.info = {
    ...definition.info,
    description: `${servedFrom(definition, sandbox)}\n\n${definition.info.description ?? ''}`,
  };
  if (!sandbox) return definition;
  const servers = (definition.servers ?? []).filter((s) => !isLoopback(s.url));
  definition.servers = [
    { url: sandboxBaseUrl(), description: 'This sandbox: the server these docs are served from.' },
    ...servers,
  ];
  return definition;
};

/** A relative link to a page or file of the site (flow.html, llms.txt, openapi.json). */
const SITE_PAGE = /^[a-z0-9][a-z0-9_-]*\.(html|txt|json)$/i;

/** A file of the site beside this page, whatever its URL (/docs, /docs/, /docs/index.html). */
export function siteUrl(name: string): string {
  const path = location.pathname;
  const dir = path.endsWith('/') ? path : /\.[a-z]+$/i.test(path) ? path.replace(/[^/]*$/, '') : `${path}/`;
  return `${dir}${name}`;
}

function start() {
  const spec = readDocument();
  const operations = operationsOf(spec);
  const state = new TargetState();
  const tryIt = createConsole(spec, operations, state);
  document.body.append(tryIt.element);

  for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-vg-site]')) {
    link.href = siteUrl(link.dataset.vgSite ?? '');
  }
  // A guide's link to another page of the site ("flow.html") is relative: at /docs (no slash) the
  // browser would resolve it to /flow.html. Redoc renders those links, so they are resolved on click.
  document.addEventListener(
    'click',
    (event) => {
      const link = (event.target as Element | null)?.closest?.('a[href]');
      const href = link?.getAttribute('href') ?? '';
      const plain = event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
      if (!link || !SITE_PAGE.test(href) || event.defaultPrevented || !plain) return;
      event.preventDefault();
      location.assign(siteUrl(href));
    },
    true,
  );

  // Redoc renders an operation's heading as an h2 holding a link "#/<tag>/<operationid>", in a row with
  // its Copy button: each row gets a Try it button after the heading's box (Redoc renders sections
  // lazily, so new headings are watched for).
  const byAnchor = new Map(operations.map((o) => [o.operationId.toLowerCase(), o]));
  const decorate = () => {
    // Redoc's menu is a landmark (navigation) for readers who move by landmarks, and a table too wide
    // for its column scrolls in a box that the keyboard can reach (tabindex), named by its columns.
    for (const menu of document.querySelectorAll<HTMLElement>('#redoc .menu-content:not([role])')) {
      menu.setAttribute('role', 'navigation');
      menu.setAttribute('aria-label', 'Reference and guides');
    }
    for (const wrapper of document.querySelectorAll<HTMLElement>('#redoc .md-table-wrapper:not([tabindex])')) {
      const columns = [...wrapper.querySelectorAll('th')].map((th) => th.textContent?.trim()).filter(Boolean);
      wrapper.tabIndex = 0;
      wrapper.setAttribute('role', 'group');
      wrapper.setAttribute('aria-label', `Table: ${columns.join(', ')}`);
    }
    for (const anchor of document.querySelectorAll<HTMLAnchorElement>('#redoc h2 a[href^="#/"]')) {
      const box = anchor.closest('h2')?.parentElement;
      const op = byAnchor.get((anchor.getAttribute('href') ?? '').split('/').pop() ?? '');
      if (!box || !op || box.nextElementSibling?.classList.contains('vg-tryit')) continue;
      box.after(
        h(
          'button',
          {
            type: 'button',
            class: 'vg-tryit',
            'data-operation': op.operationId,
            'aria-label': `Try it: ${op.summary}`,
            onclick: () => tryIt.open(op.operationId),
          },
          h('span', { 'aria-hidden': 'true' }, '▶ '),
          'Try it',
        ),
      );
    }
  };
  let queued = false;
  new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      decorate();
    });
  }).observe(document.getElementById('redoc') ?? document.body, { childList: true, subtree: true });
  decorate();
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
