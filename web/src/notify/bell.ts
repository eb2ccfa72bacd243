// The bell of the header (issue 38): the unread count, live (live.ts), and on a click the list of
// the newest notifications, each worded in the page's language and linked to its game; opening
// the list marks them read.

import { h, mount, svgIcon } from '../dom';
import { locale, t, type Key } from '../i18n';
import { navigate } from '../nav';
import { notifyApi, type NotificationItem } from './api';
import { currentSubscription, pushSupported, subscribe, unsubscribe } from './push_offer';
import { current, onNotify, setCount } from './live';

const words: Record<NotificationItem['kind'], Key> = {
  your_move: 'notify.your_move',
  low_time: 'notify.low_time',
  game_over: 'notify.game_over',
  challenge: 'notify.challenge',
  challenge_accepted: 'notify.challenge_accepted',
  seek_accepted: 'notify.seek_accepted',
  tournament_started: 'notify.tournament_started',
  tournament_game: 'notify.tournament_game',
  sandbag_warning: 'notify.sandbag_warning',
};

/** A bell drawn in SVG (no emoji font is needed). */
function bellIcon(): SVGSVGElement {
  return svgIcon('M12 2a1.5 1.5 0 0 0-1.5 1.5v.7A6 6 0 0 0 6 10v4.5L4 17v1h16v-1l-2-2.5V10a6 6 0 0 0-4.5-5.8v-.7A1.5 1.5 0 0 0 12 2Zm-2 17a2 2 0 0 0 4 0Z', 20, { classes: ['notify-icon'] });
}

function ago(at: number): string {
  const s = Math.round((at - Date.now()) / 1000);
  const rtf = new Intl.RelativeTimeFormat(locale(), { numeric: 'auto' });
  const a = Math.abs(s);
  if (a < 60) return rtf.format(s, 'second');
  if (a < 3600) return rtf.format(Math.round(s / 60), 'minute');
  if (a < 86400) return rtf.format(Math.round(s / 3600), 'hour');
  return rtf.format(Math.round(s / 86400), 'day');
}

function entry(n: NotificationItem, close: () => void): HTMLElement {
  const text = t(words[n.kind], { name: n.by ?? t('lobby.anonymous') });
  const href = n.game ? `/game/${n.game}` : n.tournament ? `/tournament/${n.tournament}` : '/';
  return h('li.notify-item', { class: n.read ? undefined : 'unread', dataset: { kind: n.kind } },
    h('a', { href, onclick: (e: MouseEvent) => { e.preventDefault(); close(); navigate(href); } },
      h('span.notify-text', text), h('time.notify-at', { datetime: new Date(n.at).toISOString() }, ago(n.at))));
}

/** The list's switch of Web Push on this device (nothing where the browser has no push). */
async function pushSwitch(): Promise<HTMLElement | null> {
  if (!pushSupported()) return null;
  let on = false;
  try {
    on = (await currentSubscription()) !== null;
  } catch {
    return null;
  }
  const error = h('p.error', { role: 'alert' });
  const button = h('button.notify-push#notify-push', {
    type: 'button',
    'aria-pressed': String(on),
    onclick: async () => {
      button.setAttribute('disabled', '');
      try {
        if (on) await unsubscribe();
        else await subscribe();
        on = !on;
        button.setAttribute('aria-pressed', String(on));
        button.textContent = on ? t('notify.push_off') : t('notify.push_device');
      } catch (err) {
        error.textContent = err instanceof Error ? err.message : String(err);
      }
      button.removeAttribute('disabled');
    },
  }, on ? t('notify.push_off') : t('notify.push_device'));
  return h('div.notify-footer', button, error);
}

/** The bell: a button with the count, and its list. */
export function bell(): HTMLElement {
  const count = h('span.notify-count#notify-count', { 'aria-hidden': 'true' });
  const button = h('button.notify-bell#notify-bell', { type: 'button', 'aria-haspopup': 'true', 'aria-expanded': 'false', 'aria-controls': 'notify-panel' },
    bellIcon(), count) as HTMLButtonElement;
  // Screen readers hear the count change (the button's own name changes silently).
  const spoken = h('span.sr-only#notify-spoken', { 'aria-live': 'polite' });
  const panel = h('div.notify-panel#notify-panel', { role: 'region', 'aria-label': t('notify.bell') });
  panel.hidden = true;
  const wrap = h('span.notify', button, spoken, panel);
  const show = (unread: number) => {
    count.textContent = unread > 0 ? String(Math.min(unread, 99)) + (unread > 99 ? '+' : '') : '';
    count.hidden = unread === 0;
    const label = unread > 0 ? t('notify.bell_unread', { n: unread }) : t('notify.bell');
    button.setAttribute('aria-label', label);
    button.title = label;
    if (spoken.textContent !== label && unread > 0) spoken.textContent = label;
  };
  show(current().unread);
  const off = onNotify(v => {
    if (!wrap.isConnected) { off(); return; }
    show(v.unread);
  });
  const close = () => {
    panel.hidden = true;
    button.setAttribute('aria-expanded', 'false');
    document.removeEventListener('click', outside, true);
    document.removeEventListener('keydown', escape);
  };
  const outside = (e: Event) => { if (!wrap.contains(e.target as Node)) close(); };
  const escape = (e: KeyboardEvent) => { if (e.key === 'Escape') { close(); button.focus(); } };
  button.addEventListener('click', async () => {
    if (!panel.hidden) { close(); return; }
    panel.hidden = false;
    button.setAttribute('aria-expanded', 'true');
    document.addEventListener('click', outside, true);
    document.addEventListener('keydown', escape);
    mount(panel, h('p.hint', '…'));
    try {
      const list = await notifyApi.list();
      mount(panel, list.items.length === 0
        ? h('p.hint.notify-empty', t('notify.none'))
        : h('ul.notify-list', list.items.map(n => entry(n, close))), await pushSwitch());
      if (list.unread > 0) setCount((await notifyApi.readAll()).unread);
    } catch (err) {
      mount(panel, h('p.error', String(err)));
    }
  });
  return wrap;
}
