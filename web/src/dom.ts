// A small element builder: h('button.primary', {onclick}, 'Play') instead of hand-written DOM calls.

type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, unknown>;

/** `tag` is an element name, optionally followed by `#id` and `.class` parts in any order
 * (`div.board#main`). */
export function h(tag: string, attrs?: Attrs | Child | Child[], ...children: (Child | Child[])[]): HTMLElement {
  const name = /^[a-z0-9-]*/i.exec(tag)?.[0] || 'div';
  const el = document.createElement(name);
  const classes: string[] = [];
  for (const [, sign, word] of tag.slice(name.length).matchAll(/([#.])([\w-]+)/g)) {
    if (sign === '#') el.id = word;
    else classes.push(word);
  }
  if (classes.length) el.className = classes.join(' ');
  if (attrs !== undefined && (attrs === null || typeof attrs !== 'object' || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs as Child | Child[]);
  } else if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (k.startsWith('on') && typeof v === 'function') {
        el.addEventListener(k.slice(2), v as EventListener);
      } else if (k === 'class') {
        el.className = [el.className, String(v)].filter(Boolean).join(' ');
      } else if (k === 'style') {
        // Through the CSSOM, which a Content-Security-Policy without 'unsafe-inline' allows.
        el.style.cssText = String(v);
      } else if (k === 'dataset') {
        Object.assign(el.dataset, v);
      } else if (k === 'value' || k === 'checked' || k === 'selected') {
        (el as unknown as Record<string, unknown>)[k] = v;
      } else {
        el.setAttribute(k, v === true ? '' : String(v));
      }
    }
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

/**
 * A one-path icon drawn in SVG on a 24×24 view box (no emoji font is needed), in the text's
 * colour. `label` names it to screen readers; without one it is hidden from them, for an icon
 * beside words or inside a named button.
 */
export function svgIcon(d: string, size: number, opts: { label?: string; classes?: string[] } = {}): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', String(size));
  svg.setAttribute('height', String(size));
  if (opts.label) svg.setAttribute('aria-label', opts.label);
  else svg.setAttribute('aria-hidden', 'true');
  if (opts.classes) svg.classList.add(...opts.classes);
  const path = document.createElementNS(ns, 'path');
  path.setAttribute('d', d);
  path.setAttribute('fill', 'currentColor');
  svg.append(path);
  return svg;
}

/** Replaces the children of `el`. */
export function mount(el: HTMLElement, ...children: (Child | Child[])[]): void {
  el.replaceChildren();
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
}

/** Copies text to the clipboard; falls back to a selected textarea where the API is missing. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const ta = h('textarea', { style: 'position:fixed;left:-9999px' }) as HTMLTextAreaElement;
    ta.value = text;
    document.body.append(ta);
    ta.select();
    const ok = document.execCommand('copy');
    ta.remove();
    return ok;
  }
}

/** Tells the boards on the page that they moved without a scroll or a resize (a band put in
 * above them, or taken away): chessground measures its squares once and clears the measure
 * only on a scroll or a resize, so taps landed on the squares shown before (browser finding 0
 * of round 7). A scroll event on the document clears it. */
export function boardsMoved(): void {
  document.dispatchEvent(new Event('scroll'));
}
