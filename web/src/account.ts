// Who the browser is logged in as (`GET /api/me`, issue 13), for the header and the account
// pages: `undefined` until the server answered, `null` for an anonymous player.

import { api, ApiError } from './api';
import { isOffline, onConnectivity } from './online';

/** How soon `/api/me` is asked again after a server error, ms. */
const ME_RETRY_MS = 5000;

let me: string | null | undefined;
let asked: Promise<void> | null = null;

/** The account's name, `null` when anonymous, `undefined` while unknown. */
export function currentUser(): string | null | undefined {
  return me;
}

/**
 * Asks the server once. Its answer is announced as `icebound:me`, not as a navigation: the
 * header's account link changes with it, but a page the player may already be working in (the
 * board editor, a game) must not be drawn again and lose what was done before the answer came.
 */
export function loadMe(): Promise<void> {
  asked ??= api.me().then(
    r => learnMe(r.username),
    err => {
      // The server answers with an error of its own (its database is out: hostile finding 6
      // of round 6): who the player is stays unknown, asked again in a few seconds, not
      // taken as "logged out" for the life of the page.
      if (err instanceof ApiError && err.status >= 500) {
        asked = null;
        window.setTimeout(() => void loadMe(), ME_RETRY_MS);
        return;
      }
      // The server cannot be reached: who the player is stays unknown, and is asked again
      // once it can (online.ts).
      if (err instanceof ApiError && err.code === 'network') {
        asked = null;
        const off = onConnectivity(() => {
          if (isOffline()) return;
          off();
          void loadMe();
        });
      } else {
        learnMe(null);
      }
    },
  );
  return asked;
}

function learnMe(name: string | null): void {
  const changed = me !== name;
  me = name;
  if (changed) window.dispatchEvent(new Event('icebound:me'));
}

/** The server ended this browser's log-in (a log-out in another tab, a new password, a
 * moderator's close: docs/api.md, the `ended` event and the 1008 close): asks again who the
 * player is, so the header offers the log-in. */
export function forgetMe(): Promise<void> {
  asked = null;
  return loadMe();
}

/** Records a log-in, log-out or registration and redraws the page. */
export function setMe(name: string | null): void {
  const changed = me !== name;
  me = name;
  if (changed) window.dispatchEvent(new Event('icebound:navigate'));
}

/** The log-in page's address that comes back here after the log-in (`/login?next=<path>`).
 * On the log-in or registration page itself, the log-in page with the `next` it was given;
 * from the home page, the log-in page alone. */
export function loginHref(): string {
  if (location.pathname === '/login' || location.pathname === '/register') {
    const next = new URLSearchParams(location.search).get('next');
    return next === null ? '/login' : `/login?next=${encodeURIComponent(next)}`;
  }
  // From the home page a log-in goes to the player's games, as it always did.
  if (location.pathname === '/') return '/login';
  return `/login?next=${encodeURIComponent(location.pathname + location.search)}`;
}

/** Where a log-in goes: the page it came from (`next`, a path of this site only, never an
 * address elsewhere), else the player's games. The path is resolved as the browser would
 * (it drops tabs and newlines and folds `..`: `/%09/x` and `/..//x` become `//x`, another
 * host; hostile finding 4 of round 6), and kept only if it stays on this site. */
export function afterLogin(search: string): string {
  const next = new URLSearchParams(search).get('next') ?? '';
  if (!next.startsWith('/')) return '/my';
  let url: URL;
  try {
    url = new URL(next, location.origin);
  } catch {
    return '/my';
  }
  const path = url.pathname;
  if (url.origin !== location.origin || path.startsWith('//') || path.startsWith('/\\') || path.startsWith('/login') || path.startsWith('/api/')) return '/my';
  return path + url.search + url.hash;
}
