// Client-side navigation of the single page: pages call `navigate`, main.ts renders the route.

export function navigate(path: string, replace = false): void {
  // A second click on the same link (a double click) adds no history entry.
  const here = location.pathname + location.search + location.hash;
  if (replace || path === here) history.replaceState(null, '', path);
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
