// Whether the server can be reached (issue 42), and what the online-only parts of the page show
// when it cannot: the lobby, seeks and challenges, my games, ratings, the leaderboard, profiles,
// statistics, log-in and the account say "offline" instead of an error or an endless "loading",
// and come back by themselves once the server answers again.
//
// The server counts as unreachable while the browser says it is offline (`navigator.onLine`)
// or after a request to the API failed at the network (api.ts calls `noteServer`). While it is
// unreachable, `GET /api/me` is tried every PROBE_MS; its first answer, of any status, brings
// the site back (as does any other API answer).

import { h, mount } from './dom';
import { t } from './i18n';

/** How often an unreachable server is tried again (ms). */
export const PROBE_MS = 5000;

let serverDown = false;
let probe: ReturnType<typeof setInterval> | undefined;
const listeners = new Set<() => void>();

/** True while the server cannot be reached. */
export function isOffline(): boolean {
  return !navigator.onLine || serverDown;
}

/** Calls `listener` whenever `isOffline()` may have changed; returns the unsubscription. */
export function onConnectivity(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function changed(): void {
  document.documentElement.classList.toggle('offline', isOffline());
  for (const listener of [...listeners]) listener();
}

/** What a request to the API found: an answer (`true`) or a network failure (`false`). */
export function noteServer(reachable: boolean): void {
  if (serverDown === !reachable) return;
  serverDown = !reachable;
  if (serverDown && probe === undefined) probe = setInterval(tryServer, PROBE_MS);
  if (!serverDown && probe !== undefined) {
    clearInterval(probe);
    probe = undefined;
  }
  changed();
}

async function tryServer(): Promise<void> {
  if (!navigator.onLine) return;
  try {
    await fetch('/api/me', { credentials: 'same-origin', cache: 'no-store' });
    noteServer(true);
  } catch {
    // Still unreachable: the next probe tries again.
  }
}

/** Asks the server now (`GET /api/me`) and notes whether it answered: for a live connection
 * that broke (the lobby's event stream), which may be the server gone. */
export async function checkServer(): Promise<void> {
  try {
    await fetch('/api/me', { credentials: 'same-origin', cache: 'no-store' });
    noteServer(true);
  } catch {
    noteServer(false);
  }
}

window.addEventListener('online', () => {
  changed();
  void tryServer();
});
window.addEventListener('offline', changed);

/** The offline notice: `what` says which part is missing, then what still works offline. */
export function offlineNotice(what: string): HTMLElement {
  return h('div.offline-notice', { role: 'status' },
    h('p.notice', what),
    h('p.muted', t('offline.still_works'),
      ' ', h('a', { href: '/rules' }, t('nav.rules')),
      ' · ', h('a', { href: '/analysis' }, t('nav.analysis')),
      ' · ', h('a', { href: '/editor' }, t('editor.title')),
      ' · ', h('a', { href: '/offline' }, t('nav.offline'))),
  );
}

type PageFn = (root: HTMLElement, ...params: string[]) => void | (() => void);

/** A page that needs the server: while it cannot be reached, an offline notice in its place;
 * drawn (again) once it can. The notice replaces the page also when it goes offline midway
 * (its requests failed). */
export function onlineOnly(page: PageFn): PageFn {
  return (root, ...params) => {
    let shown: 'page' | 'notice' | undefined;
    let cleanup: void | (() => void);
    const draw = () => {
      const want = isOffline() ? 'notice' : 'page';
      if (want === shown) return;
      if (typeof cleanup === 'function') cleanup();
      cleanup = undefined;
      shown = want;
      if (want === 'notice') {
        mount(root, h('section.card#offline', h('h1', t('offline.title')), offlineNotice(t('offline.page'))));
      } else {
        // The page draws into a part of its own: what it draws late (an answer that failed,
        // after the notice took its place) lands in the detached part, not over the notice.
        const part = h('div.online-page');
        mount(root, part);
        cleanup = page(part, ...params);
      }
    };
    draw();
    const off = onConnectivity(draw);
    return () => {
      off();
      if (typeof cleanup === 'function') cleanup();
    };
  };
}

/** A part of an offline-capable page that needs the server (the home page's lobby): the
 * notice `what` in its place while the server cannot be reached. */
export function onlineSection(part: () => { el: HTMLElement; destroy: () => void }, what: string): { el: HTMLElement; destroy: () => void } {
  const el = h('div.online-part');
  let current: { el: HTMLElement; destroy: () => void } | null = null;
  let shown: 'part' | 'notice' | undefined;
  const draw = () => {
    const want = isOffline() ? 'notice' : 'part';
    if (want === shown) return;
    shown = want;
    current?.destroy();
    current = null;
    if (want === 'notice') {
      mount(el, h('section.card#offline-part', offlineNotice(what)));
    } else {
      current = part();
      mount(el, current.el);
    }
  };
  draw();
  const off = onConnectivity(draw);
  return { el, destroy: () => { off(); current?.destroy(); } };
}

/** The header's mark, shown while the server cannot be reached. */
export function offlineBadge(): HTMLElement {
  const badge = h('span.offline-badge#offline-badge', { role: 'status', title: t('offline.page') }, t('offline.badge'));
  const draw = () => { badge.hidden = !isOffline(); };
  draw();
  const off = onConnectivity(() => {
    if (!badge.isConnected) off();
    else draw();
  });
  return badge;
}
