// The game page's view: board, players, whose turn, the move list, the result in words, the
// Ice Age's account, offers and their answers, and the tools (flip, sound, copy, download,
// keyboard entry). A function of the controller's state; snabbdom patches the page with it.

import { api, type Color, type GameView } from '../../api';
import { afterButtons, offers, playButtons } from '../../game/actions';
import { controlLabel } from '../../game/clock';
import { countdownBox, countdownText, icePanel } from '../../game/iceage';
import { actionsOf, myColors, other, waitingForFriend } from '../../game/model';
import { browseBar, moveList } from '../../game/movelist';
import { promotionPicker } from '../../game/promotion';
import { ratingBadge, unratedNote } from '../../game/ratings';
import { waitingRoom } from '../../game/waiting';
import { moveLabel, seatName, speakerIcon } from '../../game/words';
import { colorName, dateTime, resultHeadline, resultReason, t } from '../../i18n';
import { prefs } from '../../prefs';
import * as sound from '../../sound';
import { h, keep, type VNode } from '../../snabbdom';
import { variantOf } from '../../variants';
import type { GameCtrl } from './ctrl';

export const gameName = (g: GameView) => t(variantOf(g.variant).nameKey);

export function view(ctrl: GameCtrl): VNode {
  const g = ctrl.game;
  if (!g) return h('section.card', [h('p', t('page.loading'))]);
  const iceMove = ctrl.iceShown();
  const kbd = ctrl.keyboard();
  // Zen mode (issue 41): prefs.css hides the chat, names, ratings and tools while the page's
  // root says `data-zen="on"` (the preference, applied wherever it changes); the leave
  // button (shown then) and the "z" key bring them back.
  return h('section.game', [
    h('button#zen-leave.zen-leave', { attrs: { type: 'button' }, on: { click: () => ctrl.toggleZen() } }, t('prefs.zen_leave')),
    h('div.board-col', [
      player(ctrl, g, 'top'),
      h('div.board-box', { class: { 'ice-age': !!iceMove } }, [
        h('div.cg-wrap', {
          key: 'board',
          attrs: { role: 'region', 'aria-label': t('game.board_label', { game: gameName(g), color: colorName(ctrl.ground.orientation()) }) },
          hook: { insert: v => ctrl.ground.mount(v.elm as HTMLElement), destroy: () => ctrl.ground.destroy() },
        }),
        promotionPicker(ctrl.promotion),
      ]),
      player(ctrl, g, 'bottom'),
      keep('div.kbd-box', kbd?.element ?? null, { attrs: { hidden: !ctrl.playing() } }),
    ]),
    h('aside.panel', [
      h('div.panel-head', [
        h('h1#game-title', gameName(g)),
        h('span.head-tools', [live(ctrl), soundButton(ctrl)]),
      ]),
      controlLine(g),
      // Offers and the end before the Ice Age's account: on a phone they must not fall below
      // the fold. The page's message (a move that could not be sent) beside the status: at
      // the end of the panel it fell below a phone's screen.
      status(ctrl, g),
      h('p#message.error', { attrs: { role: 'alert' } }, ctrl.message),
      keep('div.first-move-box', ctrl.clocks.firstMove),
      h('div#notice.notice', {
        attrs: { role: 'status', hidden: !ctrl.notice, ...(ctrl.notice ? { 'data-code': ctrl.notice.code } : {}) },
      }, ctrl.notice?.words ?? ''),
      h('div#hint.hint', { attrs: { role: 'status', hidden: !ctrl.hint } }, ctrl.hint ?? ''),
      ctrl.premoves.length
        ? h('button#premove-cancel.premove-cancel', { attrs: { type: 'button' }, on: { click: () => ctrl.cancelPremoves() } }, t('game.premove_cancel'))
        : null,
      jumpBox(ctrl),
      confirmBox(ctrl),
      h('div.wait-box', waitingForFriend(g) && g.invite_url
        ? [waitingRoom(g, { cancel: ctrl.actionEvents().abort, copied: ctrl.inviteCopied, setCopied: ok => ctrl.copiedInvite(ok) }, ctrl.actionEvents())]
        : []),
      h('div.offers', offers(g, actionsOf(g), ctrl.actionEvents())),
      ctrl.gone.view(g),
      ctrl.cond.view(g),
      overBox(ctrl, g),
      countdown(ctrl, g),
      h('div#ice-panel.ice-panel', { attrs: { hidden: !iceMove } },
        iceMove ? icePanel(iceMove, iceMove.ply === g.ply ? g.result : null, ctrl.beforeIceAge && ctrl.shownPly() === iceMove.ply, { before: show => ctrl.showBeforeIceAge(show) }) : []),
      h('h2', t('game.moves')),
      moveList(g, ctrl.shownPly(), { go: ply => ctrl.browse(ply) }),
      browseBar(g, ctrl.shownPly(), { go: ply => ctrl.browse(ply) }),
      h('div.actions.game-actions', g.status === 'ongoing' && !waitingForFriend(g) ? playButtons(g, actionsOf(g), ctrl.actionEvents()) : []),
      tools(ctrl, g),
      keep('div.chat-wrap', ctrl.chat.el),
    ]),
  ]);
}

/** A seat's line: colour, name, the turn's mark, rating and clock; the bottom one is the
 * board's near side. */
function player(ctrl: GameCtrl, g: GameView, where: 'top' | 'bottom'): VNode {
  const bottom = ctrl.ground.orientation();
  const c: Color = where === 'bottom' ? bottom : other(bottom);
  const name = seatName(g, c);
  return h(`div.player.${where}`, [
    h('span.seat', { attrs: { 'data-color': c } }, [
      h(`span.dot.${c}`), ' ', colorName(c), ': ',
      nameOf(g, c, name),
      g.status === 'ongoing' && g.turn === c && !waitingForFriend(g) ? h('span.turn-mark', { attrs: { 'aria-hidden': 'true' } }, ' ◀') : null,
      ratingBadge(g, c),
      keep('span.clock-box', ctrl.clocks.faces[c]),
    ]),
  ]);
}

/** A seat's name: an account's links to its profile (a BOT account's marked "BOT", issue
 * 44); the viewer's own is strong. */
function nameOf(g: GameView, c: Color, name: string): VNode | string {
  const seat = g[c];
  const link = seat.kind === 'human' && seat.username
    ? h('a.seat-name', { attrs: { href: `/@/${encodeURIComponent(seat.username)}` } }, name)
    : name;
  const text = seat.bot ? h('span', [h('span.bot-title', { attrs: { title: t('game.bot_title') } }, 'BOT'), ' ', link]) : link;
  return g.you === c || (g.you === 'both' && seat.kind === 'human') ? h('strong', [text]) : text;
}

function live(ctrl: GameCtrl): VNode {
  if (ctrl.live === null) return h('span.live');
  // A finished game is not "live": the badge says it is over (issue 38).
  if (ctrl.game && ctrl.game.status !== 'ongoing') return h('span.live.over', `■ ${t('game.over_badge')}`);
  return h('span.live', { class: { on: ctrl.live, off: !ctrl.live } }, ctrl.live ? `● ${t('game.live')}` : `○ ${t('game.offline')}`);
}

function soundButton(ctrl: GameCtrl): VNode {
  const on = sound.enabled();
  return h('button#sound.icon', {
    attrs: { type: 'button', title: on ? t('game.sound_on') : t('game.sound_off'), 'aria-label': t('game.sound_toggle'), 'aria-pressed': on ? 'true' : 'false' },
    on: { click: () => ctrl.toggleSound() },
  }, [speakerIcon(on)]);
}

function controlLine(g: GameView): VNode {
  // A phone has no hover: the correspondence deadline is written out, not only a tooltip.
  const due = g.status === 'ongoing' && g.clock?.kind === 'correspondence' && g.clock.deadline_ms !== null
    ? ` · ${t('clock.deadline', { when: dateTime(g.clock.deadline_ms) })}` : '';
  return h('p#time-control.control', { attrs: { hidden: !g.clock && !g.rated } },
    `${controlLabel(g.clock)} · ${t(g.rated ? 'clock.rated' : 'clock.casual')}${due}`);
}

function status(ctrl: GameCtrl, g: GameView): VNode {
  const browsing = ctrl.browsing;
  return h('div#status.status', {
    class: { over: g.status !== 'ongoing' && browsing === null, browsing: browsing !== null },
    attrs: { 'aria-live': 'polite', 'data-status': g.status, ...(browsing !== null ? { 'data-browsing': String(browsing) } : {}) },
  }, statusLines(ctrl, g));
}

function statusLines(ctrl: GameCtrl, g: GameView): (string | VNode)[] {
  const browsing = ctrl.browsing;
  if (browsing !== null) {
    return [
      h('span.viewing', browsing === 0 || !g.moves[browsing - 1]
        ? t('game.viewing_start') : t('game.viewing', { move: moveLabel(g.moves[browsing - 1]) })),
      h('button#back-to-game', { attrs: { type: 'button' }, on: { click: () => ctrl.browse(g.ply) } }, t('game.back_to_game')),
    ];
  }
  if (g.status === 'aborted') return [h('strong', t('result.aborted'))];
  if (g.result) return [h('strong', resultHeadline(g.result, myColors(g)))];
  if (waitingForFriend(g)) return [t(g.you === null ? 'status.watching_waiting' : 'status.waiting_friend')];
  const mine = myColors(g);
  const seat = g[g.turn];
  if (g.engine_thinking || seat.kind === 'engine') return [t('turn.engine')];
  if (g.you === null) return [`${t(g.turn === 'white' ? 'turn.white' : 'turn.black')} · ${t('game.watching')}`];
  if (g.you === 'both') return [t(g.turn === 'white' ? 'turn.white' : 'turn.black')];
  return [mine.includes(g.turn) ? t('turn.you') : t('turn.waiting')];
}

function jumpBox(ctrl: GameCtrl): VNode {
  const squares = ctrl.jump;
  return h('div.jump', { attrs: { hidden: squares.length < 2 } }, squares.length < 2 ? [] : [
    h('span', t('game.jump_progress', { path: squares.join('x') })),
    h('button#cancel-jump', { attrs: { type: 'button' }, on: { click: () => ctrl.ground.board?.reset() } }, t('game.cancel_jump')),
  ]);
}

function overBox(ctrl: GameCtrl, g: GameView): VNode {
  const over = g.status !== 'ongoing';
  // Brought into view once, when the game has just ended.
  const reveal = (v: VNode) => {
    if (!ctrl.endedNow) return;
    ctrl.endedNow = false;
    const box = (v.elm as HTMLElement).getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) (v.elm as HTMLElement).scrollIntoView({ block: 'nearest' });
  };
  return h('div#game-over.game-over', { attrs: { hidden: !over }, hook: { insert: reveal, postpatch: (_, v) => reveal(v) } }, over ? [
    h('p.over-reason', g.result ? resultReason(g.result, myColors(g)) : t('result.aborted_words')),
    unratedNote(g),
    h('div.actions', afterButtons(g, actionsOf(g), ctrl.actionEvents())),
  ] : []);
}

/** A move held for confirmation (the `confirm_move` preference in a correspondence game). */
function confirmBox(ctrl: GameCtrl): VNode | null {
  if (!ctrl.pendingMove) return null;
  return h('div#confirm-move.confirm-move', { attrs: { role: 'group', 'aria-label': t('prefs.confirm_title') } }, [
    h('p', t('prefs.confirm_title')),
    h('div.actions', [
      h('button#confirm-move-yes.primary', { attrs: { type: 'button' }, on: { click: () => ctrl.confirmMove() } }, t('prefs.confirm_yes')),
      h('button#confirm-move-no', { attrs: { type: 'button' }, on: { click: () => ctrl.cancelMove() } }, t('prefs.confirm_no')),
    ]),
  ]);
}

function countdown(ctrl: GameCtrl, g: GameView): VNode {
  return countdownBox(countdownText(g), ctrl.browsing !== null);
}

function tools(ctrl: GameCtrl, g: GameView): VNode {
  const v = variantOf(g.variant);
  return h('div.actions.tools', [
    h('button#flip', { attrs: { type: 'button' }, on: { click: () => ctrl.flip() } }, t('game.flip')),
    h('button#copy-fen', { attrs: { type: 'button' }, on: { click: () => void ctrl.copyFen() } }, ctrl.fenCopied ?? t('game.copy_fen')),
    h('a#download.button', { attrs: { href: api.recordUrl(g.id), download: `icebound-${g.id}.${v.recordExt}` } }, t(v.downloadKey)),
    h('a#rules-link.button', { attrs: { href: `/rules/${g.variant}` } }, t('game.rules_link', { game: gameName(g) })),
    h('button#zen-toggle', { attrs: { type: 'button', 'aria-pressed': String(prefs().zen) }, on: { click: () => ctrl.toggleZen() } }, t('prefs.zen_on')),
  ]);
}
