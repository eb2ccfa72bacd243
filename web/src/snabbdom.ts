// The pages that redraw on every change (the game page, the analysis board) describe their DOM
// with snabbdom, as lichess's pages do, and patch it: an element that did not change is kept,
// and with it its focus, the text typed into it and the board inside it.

import { attributesModule, classModule, eventListenersModule, h, init, propsModule, type VNode, type VNodeData } from 'snabbdom';

export { h, type VNode };

export const patch = init([classModule, attributesModule, propsModule, eventListenersModule]);

/** A box holding `el`, an element made outside snabbdom that updates itself (a ticking clock
 * face, the keyboard entry): snabbdom leaves the children of a vnode without any alone. */
export function keep(sel: string, el: HTMLElement | null, data: VNodeData = {}): VNode {
  const place = (v: VNode) => {
    const box = v.elm as HTMLElement;
    if (el ? el.parentNode !== box : box.firstChild) box.replaceChildren(...(el ? [el] : []));
  };
  return h(sel, { ...data, hook: { insert: place, postpatch: (_, v) => place(v) } });
}

/** Draws `view()` into `root` and returns the redraw: each call patches what changed. */
export function mountView(root: HTMLElement, view: () => VNode): () => void {
  const el = document.createElement('div');
  root.replaceChildren(el);
  let vnode = patch(el, view());
  return () => {
    vnode = patch(vnode, view());
  };
}
