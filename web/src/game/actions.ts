// The game's buttons, shown by what the server says the player may do (`actions`): resign and
// abort (each asks once more inline), draw and takeback offers and their answers, and after the
// game: New game, Rematch (an offer the opponent answers) and Analyse (when the server has an
// analysis board).

import type { Action, Answer, Color, GameView } from '../api';
import { colorName, t, type Key } from '../i18n';
import { h, type VNode } from '../snabbdom';
import { myColors } from './model';

export interface ActionEvents {
  resign: () => void;
  abort: () => void;
  draw: (a: Answer) => void;
  takeback: (a: Answer) => void;
  rematch: (a: Answer) => void;
  /** The button whose "Sure?" is showing, if any. */
  asking: string | null;
  ask: (id: string | null) => void;
  /** A request is on its way: every button waits for its answer (a double click sends once). */
  pending: boolean;
}

/** A button of the panel: disabled while a request is on its way. */
export function button(sel: string, ev: ActionEvents, click: () => void, label: string): VNode {
  return h(sel, { attrs: { type: 'button', disabled: ev.pending }, on: { click } }, label);
}

/** A button that asks "Sure? Yes / No" in place before it acts. */
export function confirmButton(id: string, label: string, question: string, act: () => void, ev: ActionEvents): VNode {
  if (ev.asking !== id) return h('span.confirm', { key: id }, [button(`button#${id}`, ev, () => ev.ask(id), label)]);
  return h('span.confirm', { key: id }, [
    h('span.confirm-q', question),
    button(`button#${id}-yes.danger`, ev, act, t('game.yes')),
    h(`button#${id}-no`, {
      attrs: { type: 'button', disabled: ev.pending },
      on: { click: () => ev.ask(null) },
      hook: { insert: v => (v.elm as HTMLElement).focus() },
    }, t('game.no')),
  ]);
}

/** How many plies a takeback by `side` removes: its last move and whatever followed it
 * (docs/api.md, takeback), so that the words say exactly what goes. */
export function takebackPlies(g: GameView, side: Color): number {
  for (let i = g.moves.length - 1; i >= 0; i--) if (g.moves[i].color === side) return g.ply - i;
  return 0;
}

/** The takeback button's words: the last move on one screen; one's own move, or one's move
 * and the reply, otherwise. */
function takebackLabel(g: GameView, offer: boolean): string {
  if (g.you === 'both' || g.you === null) return t('game.takeback_last');
  const two = takebackPlies(g, g.you) > 1;
  if (offer) return t(two ? 'game.offer_takeback_mine_reply' : 'game.offer_takeback_mine');
  return t(two ? 'game.takeback_mine_reply' : 'game.takeback_mine');
}

/** An offer to answer: the question and Accept / Decline. */
function offerBox(id: string, text: string, answer: (a: Answer) => void, ev: ActionEvents): VNode {
  return h(`div#${id}.offer`, { key: id, attrs: { role: 'group', 'aria-label': text } }, [
    h('span', text),
    button(`button#${id}-accept.primary`, ev, () => answer('accept'), t('game.accept')),
    button(`button#${id}-decline`, ev, () => answer('decline'), t('game.decline')),
  ]);
}

/** The offers standing in the game, as boxes to answer or notes of one's own offer. */
export function offers(g: GameView, can: Set<Action>, ev: ActionEvents): VNode[] {
  const mine = myColors(g);
  const out: VNode[] = [];
  const from = (key: Key, by: GameView['draw_offer']) =>
    g.you === 'both' && by ? t('game.draw_offered_by', { color: colorName(by) }) : t(key);
  if (can.has('accept_draw')) out.push(offerBox('draw-offer', from('game.draw_offered_you', g.draw_offer), ev.draw, ev));
  else if (g.draw_offer && mine.includes(g.draw_offer) && g.status === 'ongoing') out.push(h('p#draw-sent.offer-note', t('game.draw_sent')));
  if (can.has('accept_takeback')) {
    const two = !!g.takeback_offer && takebackPlies(g, g.takeback_offer) > 1;
    out.push(offerBox('takeback-offer', t(two ? 'game.takeback_offered_reply' : 'game.takeback_offered_last'), ev.takeback, ev));
  }
  else if (g.takeback_offer && mine.includes(g.takeback_offer) && g.status === 'ongoing') out.push(h('p#takeback-sent.offer-note', t('game.takeback_sent')));
  if (can.has('accept_rematch')) out.push(offerBox('rematch-offer', t('game.rematch_offered_you'), ev.rematch, ev));
  else if (g.rematch_offer && mine.includes(g.rematch_offer) && !g.rematch) out.push(h('p#rematch-sent.offer-note', t('game.rematch_sent')));
  return out;
}

/** The buttons of a game in progress. */
export function playButtons(g: GameView, can: Set<Action>, ev: ActionEvents): VNode[] {
  const out: VNode[] = [];
  // In a tournament, calling a game off forfeits it (the pairing is lost): say so.
  const abortWords = g.tournament ? t('game.abort_forfeit_confirm') : t('game.abort_confirm');
  if (can.has('abort')) out.push(confirmButton('abort', t('game.abort'), abortWords, ev.abort, ev));
  if (can.has('resign')) out.push(confirmButton('resign', t('game.resign'), t('game.resign_confirm'), ev.resign, ev));
  if (can.has('offer_draw')) out.push(button('button#offer-draw', ev, () => ev.draw('offer'), t('game.offer_draw')));
  if (can.has('takeback') || can.has('offer_takeback')) {
    out.push(button('button#takeback', ev, () => ev.takeback('offer'), takebackLabel(g, !can.has('takeback'))));
  }
  if (g.tournament) out.push(tournamentLink(g.tournament, false));
  return out;
}

/** The way back to the tournament that paired the game. */
function tournamentLink(id: string, primary: boolean): VNode {
  return h(primary ? 'a#to-tournament.button.primary' : 'a#to-tournament.button', { attrs: { href: `/tournament/${id}` } }, t('game.to_tournament'));
}

/** After the game: New game (the same setting, from the home page), Rematch, Analyse. */
export function afterButtons(g: GameView, can: Set<Action>, ev: ActionEvents): VNode[] {
  const out: VNode[] = [];
  if (g.tournament) {
    // The tournament pairs the next game: no rematch, no new game here.
    out.push(tournamentLink(g.tournament, true));
    if (g.analysis_url) out.push(h('a#analyse.button', { attrs: { href: g.analysis_url } }, t('game.analyse')));
    return out;
  }
  const mine = myColors(g);
  const bot = mine.length === 1 ? g[mine[0] === 'white' ? 'black' : 'white'] : null;
  if (g.rematch) out.push(h('a#to-rematch.button.primary', { attrs: { href: `/game/${g.rematch}` } }, t('game.to_rematch')));
  else if (bot?.bot && bot.username) {
    // A BOT answers challenges, not rematch offers (issue 44): its profile challenges it.
    out.push(h('a#challenge-bot.button.primary', { attrs: { href: `/@/${encodeURIComponent(bot.username)}` } }, t('game.challenge_again')));
  } else if (can.has('rematch') && !(g.rematch_offer && mine.includes(g.rematch_offer))) {
    out.push(button('button#rematch.primary', ev, () => ev.rematch('offer'), t('game.rematch')));
  }
  out.push(h('a#new-game.button', { attrs: { href: newGameHref(g) } }, t('game.new_game')));
  if (g.analysis_url) out.push(h('a#analyse.button', { attrs: { href: g.analysis_url } }, t('game.analyse')));
  return out;
}

/** The home page, set for a game like `g` (same game, opponent, level and side). */
function newGameHref(g: GameView): string {
  const q = new URLSearchParams({ variant: g.variant });
  const engine = g.white.kind === 'engine' ? g.white : g.black.kind === 'engine' ? g.black : null;
  if (g.you === 'both') q.set('opponent', 'local');
  else if (engine) {
    q.set('opponent', 'engine');
    if (engine.level) q.set('level', String(engine.level));
  } else q.set('opponent', 'friend');
  if (g.you === 'white' || g.you === 'black') q.set('color', g.you);
  return `/?${q}`;
}
