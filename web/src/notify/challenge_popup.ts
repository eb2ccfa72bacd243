// An incoming challenge, popped up on any page (issue 38: before, only the home page showed
// it): who, which game and clock, with Accept and Decline. It lives outside `#app`, so that a
// page change does not take it away; a challenge closed here is not shown again in this visit.

import { ApiError } from '../api';
import { boardsMoved, h, mount } from '../dom';
import { controlLabel } from '../lobby/time_control';
import { t } from '../i18n';
import { lobbyApi, type ChallengeView } from '../lobby/api';
import { navigate } from '../nav';

const closed = new Set<string>();
/** Whether the phone's band (below) shows its challenges or only their count. */
let bandOpen = false;
/** Where focus was before the box took it, to give it back when the box goes. */
let focusBefore: HTMLElement | null = null;

/** On a game page the box is a band in the page's flow above the game, closed to one line,
 * instead of a box over the board's bottom and the chat (browser finding 3 of round 6: on a
 * phone, taps on the chat landed on Decline; 8 of round 7: at 1024 and 1280 px too). */
function asBand(): boolean {
  return location.pathname.startsWith('/game/');
}

/** Puts the box where its form wants it: in the flow before `#app`, or at the body's end. */
function place(el: HTMLElement, band: boolean): void {
  el.classList.toggle('band', band);
  const app = document.getElementById('app');
  if (band && app && el.nextElementSibling !== app) app.before(el);
  if (!band && (el.parentElement !== document.body || el.nextElementSibling === app)) document.body.append(el);
}

/** Closes every challenge the box shows (Escape), and gives focus back. */
function closeAll(el: HTMLElement): void {
  for (const item of el.querySelectorAll<HTMLElement>('.challenge-popup-item')) {
    if (item.dataset.id) closed.add(item.dataset.id);
  }
  el.hidden = true;
  boardsMoved();
  window.clearInterval(rereading);
  rereading = 0;
  const back = focusBefore;
  focusBefore = null;
  if (back?.isConnected) back.focus();
}

// Escape closes the box when it holds the focus or nothing does (browser finding 6 of round
// 6: a keyboard player had to Tab through the page to reach it, and Escape did nothing).
document.addEventListener('keydown', e => {
  if (e.key !== 'Escape' || e.defaultPrevented) return;
  const el = document.getElementById('challenge-popup');
  if (!el || el.hidden) return;
  const at = document.activeElement;
  if (at && at !== document.body && !el.contains(at)) return;
  e.preventDefault();
  closeAll(el);
});
/** How often the challenges are read again while the box shows, ms: a real-time challenge
 * lapses with no notification, and a change missed while offline has none either (browser
 * findings 2 and 5 of round 6). */
const REREAD_MS = 10_000;
let rereading = 0;

function box(): HTMLElement {
  let el = document.getElementById('challenge-popup');
  if (!el) {
    el = h('section.challenge-popup#challenge-popup', { role: 'alertdialog', 'aria-labelledby': 'challenge-popup-title', 'aria-live': 'assertive', tabindex: '-1' });

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
    h('p.challenge-popup-who', t('notify.challenge', { name: c.bot ? `BOT ${c.challenger}` : c.challenger })),
    h('p.challenge-popup-terms', `${t(c.variant === 'iceage' ? 'game.iceage' : 'game.antarctos')} · ${controlLabel(c.time_control)} · ${t(c.rated ? 'lobby.rated' : 'lobby.casual')}`),
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
// Back and Forward too (browser finding 2 of round 7: the box stayed a corner box over a
// phone's game until the next re-read).
for (const event of ['icebound:navigate', 'popstate']) {
  window.addEventListener(event, () => {
    const el = document.getElementById('challenge-popup');
    if (el && !el.hidden) void showChallenges(true);
  });
}

/** The ids the box shows, in order: a re-read that finds the same leaves the box as it is
 * (browser finding 7 of round 7: each re-read rebuilt it, which dropped the focus and an
 * error line, and a screen reader would read it again). */
let shown = '';

/** Reads the open incoming challenges and shows those not closed in this visit; `moved`: the
 * page changed, so the box is drawn again where its form wants it. */
export async function showChallenges(moved = false): Promise<void> {
  let open: ChallengeView[];
  try {
    open = (await lobbyApi.challenges()).incoming.filter(c => c.status === 'open' && !closed.has(c.id));
  } catch {
    return;
  }
  const el = box();
  const ids = open.map(c => c.id).join(' ');
  if (!moved && !el.hidden && ids === shown && el.classList.contains('band') === asBand()) return;
  const redraw = () => {
    const left = open.filter(c => !closed.has(c.id));
    shown = left.map(c => c.id).join(' ');
    const wasHidden = el.hidden;
    const band = asBand();
    place(el, band);
    if (band && !bandOpen) {
      const toggle = h('button.challenge-band-toggle', { type: 'button', 'aria-expanded': 'false', onclick: () => { bandOpen = true; redraw(); } },
        t('notify.popup_band', { n: String(left.length) }));
      mount(el, h('h2#challenge-popup-title', toggle));
    } else {
      mount(el, h('h2#challenge-popup-title', t('notify.popup_title')), left.map(c => item(c, redraw)));
    }
    el.hidden = left.length === 0;
    if (band || wasHidden !== el.hidden) boardsMoved();
    if (el.hidden) {
      bandOpen = false;
      window.clearInterval(rereading);
      rereading = 0;
      const back = focusBefore;
      focusBefore = null;
      if (back?.isConnected && el.contains(document.activeElement)) back.focus();
    } else {
      if (!rereading) rereading = window.setInterval(() => void showChallenges(), REREAD_MS);
      // A box that appears takes the focus only from nobody, and on itself, not on Accept: a
      // key pressed for something else (Space to scroll) must not accept a game (browser
      // finding 1 of round 7). Never on a game page, where it is a band.
      const at = document.activeElement;
      if (wasHidden && !band && (at === null || at === document.body)) {
        focusBefore = at instanceof HTMLElement ? at : null;
        el.focus();
      }
    }
  };
  redraw();
}
