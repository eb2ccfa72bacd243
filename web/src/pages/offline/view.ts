// The offline game's view: the board with the players' lines, whose turn, the game page's move
// list, Ice Age countdown and game-over box, resign, and the upload of a finished game; and the
// list page's form and kept games. Functions of the controller's state (snabbdom).

import type { Color } from '../../api';
import { countdownText } from '../../game/iceage';
import { moveList } from '../../game/movelist';
import { promotionPicker } from '../../game/promotion';
import { colorName, resultHeadline, resultReason, t } from '../../i18n';
import { h, type VNode } from '../../snabbdom';
import { variantOf } from '../../variants';
import type { OfflineCtrl } from './ctrl';

export const gameName = (v: OfflineCtrl['game']['variant']) => t(variantOf(v).nameKey);

/** The resign button's "Sure?" state, kept across redraws. */
let asking = false;

export function view(ctrl: OfflineCtrl): VNode {
  const g = ctrl.game;
  const gv = ctrl.view();
  const over = !!g.result;
  const seat = (c: Color) => h(`div.player.${c === g.color ? 'bottom' : 'top'}`, [
    h('span.seat', { attrs: { 'data-color': c } }, [
      h(`span.dot.${c}`), ' ', colorName(c), ': ',
      c === g.color ? h('strong', t('solo.seat_you')) : t('solo.seat_engine', { level: g.level }),
      !over && gv.turn === c ? h('span.turn-mark', { attrs: { 'aria-hidden': 'true' } }, ' ◀') : null,
    ]),
  ]);
  const cd = countdownText(gv);
  return h('section.game.offline', [
    h('div.board-col', [
      seat(g.color === 'white' ? 'black' : 'white'),
      h('div.board-box', [
        h('div.cg-wrap', { key: 'board', hook: { insert: v => ctrl.mountBoard(v.elm as HTMLElement) } }),
        promotionPicker(ctrl.promotion),
      ]),
      seat(g.color),
    ]),
    h('aside.panel', [
      h('div.panel-head', [h('h1#game-title', `${gameName(g.variant)} · ${t('local.in_browser')}`)]),
      h('div#status.status', { class: { over }, attrs: { 'aria-live': 'polite', 'data-status': over ? 'finished' : 'ongoing' } }, statusLine(ctrl)),
      h('p#message.error', { attrs: { role: 'alert' } }, ctrl.message),
      overBox(ctrl),
      h('div#ice-countdown.countdown', { attrs: { hidden: !cd } }, cd ? `❄ ${cd}` : ''),
      h('h2', t('game.moves')),
      moveList(gv, gv.ply, { go: () => undefined }),
      h('div.actions.game-actions', over ? [] : [resignButton(ctrl)]),
      h('div.actions.tools', [
        h('button#flip', { attrs: { type: 'button' }, on: { click: () => ctrl.flip() } }, t('game.flip')),
        h('a#offline-list.button', { attrs: { href: '/offline' } }, t('solo.saved')),
        h('a#rules-link.button', { attrs: { href: `/rules/${g.variant}` } }, t('game.rules_link', { game: gameName(g.variant) })),
      ]),
    ]),
  ]);
}

function statusLine(ctrl: OfflineCtrl): (string | VNode)[] {
  const g = ctrl.game;
  if (g.result) return [h('strong', resultHeadline(g.result, [g.color]))];
  if (!ctrl.pos) return [t('solo.loading')];
  if (ctrl.thinking || ctrl.pos.turn !== g.color) return [t('turn.engine')];
  return [t('turn.you')];
}

function resignButton(ctrl: OfflineCtrl): VNode {
  if (ctrl.abortable) return abortButton(ctrl);
  if (!asking) {
    return h('span.confirm', { key: 'resign' }, [
      h('button#resign', { attrs: { type: 'button' }, on: { click: () => { asking = true; ctrl.redraw(); } } }, t('game.resign')),
    ]);
  }
  return h('span.confirm', { key: 'resign' }, [
    h('span.confirm-q', t('game.resign_confirm')),
    h('button#resign-yes.danger', { attrs: { type: 'button' }, on: { click: () => { asking = false; ctrl.resign(); } } }, t('game.yes')),
    h('button#resign-no', { attrs: { type: 'button' }, on: { click: () => { asking = false; ctrl.redraw(); } } }, t('game.no')),
  ]);
}

/** Abort, before the second move: the game goes without a result (nothing to upload). */
function abortButton(ctrl: OfflineCtrl): VNode {
  if (!asking) {
    return h('span.confirm', { key: 'abort' }, [
      h('button#abort', { attrs: { type: 'button' }, on: { click: () => { asking = true; ctrl.redraw(); } } }, t('game.abort')),
    ]);
  }
  return h('span.confirm', { key: 'abort' }, [
    h('span.confirm-q', t('game.abort_confirm')),
    h('button#abort-yes.danger', { attrs: { type: 'button' }, on: { click: () => { asking = false; ctrl.abort(); } } }, t('game.yes')),
    h('button#abort-no', { attrs: { type: 'button' }, on: { click: () => { asking = false; ctrl.redraw(); } } }, t('game.no')),
  ]);
}

/** The normal game-over box (`#game-over`, as on the game page), with a new game and the
 * upload of the finished game. */
function overBox(ctrl: OfflineCtrl): VNode {
  const g = ctrl.game;
  const reveal = (v: VNode) => {
    if (!ctrl.endedNow) return;
    ctrl.endedNow = false;
    (v.elm as HTMLElement).scrollIntoView({ block: 'nearest' });
  };
  const up = ctrl.upload;
  const uploaded = g.uploaded ?? (up?.kind === 'done' ? up.id : undefined);
  return h('div#game-over.game-over', { attrs: { hidden: !g.result }, hook: { insert: reveal, postpatch: (_, v) => reveal(v) } }, g.result ? [
    h('p.over-reason', resultReason(g.result)),
    h('div.actions', [
      h('a#new-offline.button.primary', { attrs: { href: `/offline?variant=${g.variant}&level=${g.level}&color=${g.color}` } }, t('solo.new')),
      uploaded
        ? h('a#uploaded.button', { attrs: { href: `/game/${uploaded}` } }, t('solo.uploaded'))
        : h('button#upload', { attrs: { type: 'button', disabled: up?.kind === 'sending' }, on: { click: () => void ctrl.uploadGame() } },
          up?.kind === 'sending' ? t('solo.uploading') : up?.kind === 'waiting' ? t('solo.upload_now') : t('solo.upload')),
    ]),
    up?.kind === 'error' ? h('p#upload-error.error', { attrs: { role: 'alert' } }, t('solo.upload_failed', { why: up.words })) : null,
    up?.kind === 'waiting' ? h('p#upload-error.notice', { attrs: { role: 'status' } }, t('solo.upload_waiting')) : null,
  ] : []);
}
