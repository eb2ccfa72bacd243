// An incoming challenge, popped up on any page (issue 38: before, only the home page showed
// it): who, which game and clock, with Accept and Decline. It lives outside `#app`, so that a
// page change does not take it away; a challenge closed here is not shown again in this visit.

import { ApiError } from '../api';
import { h, mount } from '../dom';
import { t } from '../i18n';
import { lobbyApi, type ChallengeView } from '../lobby/api';
import { navigate } from '../nav';

const closed = new Set<string>();
/** How often the challenges are read again while the box shows, ms: a real-time challenge
 * lapses with no notification, and a change missed while offline has none either (browser
 * findings 2 and 5 of round 6). */
const REREAD_MS = 10_000;
let rereading = 0;

function box(): HTMLElement {
  let el = document.getElementById('challenge-popup');
  if (!el) {
    el = h('section.challenge-popup#challenge-popup', { role: 'alertdialog', 'aria-labelledby': 'challenge-popup-title', 'aria-live': 'assertive' });
    el.hidden = true;
    document.body.append(el);
  }
  return el;
}

function item(c: ChallengeView, redraw: () => void): HTMLElement {
  const done = () => { closed.add(c.id); redraw(); };
  const error = h('p.error', { role: 'alert' });
  const act = (run: () => Promise<void>) => async (e: Event) => {
    const b = e.currentTarget as HTMLButtonElement;
    b.disabled = true;
    try {
      await run();
    } catch (err) {
      error.textContent = err instanceof ApiError ? t('lobby.challenge_gone') : String(err);
      b.disabled = false;
    }
  };
  return h('div.challenge-popup-item', { dataset: { id: c.id } },
    h('p.challenge-popup-who', t('notify.challenge', { name: c.challenger })),
    h('p.challenge-popup-terms', `${t(c.variant === 'iceage' ? 'game.iceage' : 'game.antarctos')} · ${c.label} · ${t(c.rated ? 'lobby.rated' : 'lobby.casual')}`),
    h('div.actions',
      h('button.primary.popup-accept', { type: 'button', onclick: act(async () => { const g = await lobbyApi.acceptChallenge(c.id); done(); navigate(`/game/${g.id}`); }) }, t('notify.accept')),
      h('button.popup-decline', { type: 'button', onclick: act(async () => { await lobbyApi.declineChallenge(c.id); done(); }) }, t('notify.decline')),
      h('button.popup-close', { type: 'button', 'aria-label': t('notify.close'), onclick: done }, '×')),
    error);
}

/** A challenge answered elsewhere on this page (the lobby's own Accept or Decline): its box
 * goes (browser finding 5 of round 4: it stayed, and its Accept then failed). */
export function challengeAnswered(id: string): void {
  closed.add(id);
  const el = document.getElementById('challenge-popup');
  if (el && !el.hidden) void showChallenges();
}

// A page change while boxes show reads them again: one accepted or withdrawn meanwhile (in
// another tab, by its challenger) goes.
window.addEventListener('icebound:navigate', () => {
  const el = document.getElementById('challenge-popup');
  if (el && !el.hidden) void showChallenges();
});

/** Reads the open incoming challenges and shows those not closed in this visit. */
export async function showChallenges(): Promise<void> {
  let open: ChallengeView[];
  try {
    open = (await lobbyApi.challenges()).incoming.filter(c => c.status === 'open' && !closed.has(c.id));
  } catch {
    return;
  }
  const el = box();
  const redraw = () => {
    const left = open.filter(c => !closed.has(c.id));
    mount(el, h('h2#challenge-popup-title', t('notify.popup_title')), left.map(c => item(c, redraw)));
    el.hidden = left.length === 0;
    if (el.hidden) {
      window.clearInterval(rereading);
      rereading = 0;
    } else if (!rereading) {
      rereading = window.setInterval(() => void showChallenges(), REREAD_MS);
    }
  };
  redraw();
}
