// The window's title: what the page shows, then the site's name ("Your move · Antarctos · icebound").

import { t } from './i18n';

export function setTitle(what: string): void {
  document.title = `${what} · ${t('site.name')}`;
}
