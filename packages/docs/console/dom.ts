// A few lines of DOM building, so that the console's views read as the markup they make.
type Child = Node | string | number | false | null | undefined;
type Attrs = Record<string, string | number | boolean | EventListener | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.replace(/^on/, ''), value);
    else if (value === true) el.setAttribute(name, '');
    else el.setAttribute(name, String(value));
  }
  append(el, children);
  return el;
}

export function append(el: Element, children: (Child | Child[])[]) {
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(typeof child === 'number' ? String(child) : child);
  }
}

/** Replaces an element's children. */
export function fill(el: Element, ...children: (Child | Child[])[]) {
  el.replaceChildren();
  append(el, children);
}

let ids = 0;
/** A fresh element id (labels point at their inputs). */
export const uid = (prefix: string) => `${prefix}-${++ids}`;

/** An element the page's markup holds (scripts/build.mjs writes it): a page without it is a build bug. */
export function byId(id: string): HTMLElement {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page has no #${id}`);
  return el;
}
