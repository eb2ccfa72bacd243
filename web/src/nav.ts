// Client-side navigation of the single page: pages call `navigate`, main.ts renders the route.

export function navigate(path: string, replace = false): void {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  window.dispatchEvent(new Event('icebound:navigate'));
}

/** A link that navigates inside the page without reloading it. */
export function linkHandler(e: MouseEvent): void {
  const a = (e.target as HTMLElement).closest('a');
  if (!a || a.target || a.hasAttribute('download') || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
  const href = a.getAttribute('href');
  if (!href || !href.startsWith('/') || href.startsWith('/api/')) return;
  e.preventDefault();
  navigate(href);
}
