// The window's title: what the page shows, then the site's name ("Your move · Antarctos · icebound").

import { t } from './i18n';

let shown = '';
let unread = 0;

function apply(): void {
  document.title = `${unread > 0 ? `(${unread}) ` : ''}${shown} · ${t('site.name')}`;
}

export function setTitle(what: string): void {
  shown = what;
  apply();
}

/** The unread notifications, shown first in the title as "(2) ..." (notify/live.ts). */
export function setUnread(n: number): void {
  if (n === unread) return;
  unread = n;
  if (shown) apply();
}
