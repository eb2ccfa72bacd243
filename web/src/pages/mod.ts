// `/mod` (issue 41): the moderators' page: open and closed reports (texts shown as text, never
// HTML), paged as the API pages them (50), actions on a reported player (mute, unmute, mark,
// unmark, close, reopen), and the mod log. Others see the server's 403 in words.

import { h, mount } from '../dom';
import { dateTime, errorWords, has, t, type Key } from '../i18n';
import { REPORTS_PAGE, socialApi, type AroundLine, type Mark, type ModAction, type ReportView } from '../social/api';
import { setTitle } from '../title';

/** What a reported chat message's room key names: a game (`game:<id>:<room>`) or a tournament
 * (`tournament:<id>`); the lobby names nothing. */
function roomPlace(room: string): { game?: string; tournament?: string } {
  const [kind, id] = room.split(':');
  if (kind === 'game' && id) return { game: id };
  if (kind === 'tournament' && id) return { tournament: id };
  return {};
}

/** A mod log's action code in words (unknown codes as they are). */
function actionWords(code: string): string {
  const key = `mod.action.${code}`;
  return has(key) ? t(key) : code;
}

/** The actions on a reported player: those its standing allows (browser finding 8 of round 4:
 * every button showed whatever the standing, so an unmute of nobody muted was logged), or all
 * when the standing is not known. */
function actions(name: string, after: () => void, standing: ReportView['standing'], message?: string, tournament?: string): HTMLElement {
  const reason = h('input.mod-reason', { type: 'text', maxlength: 500, required: true, placeholder: t('mod.reason'), 'aria-label': t('mod.reason') }) as HTMLInputElement;
  const note = h('span.small.mod-note', { role: 'status' });
  // Every action is logged with its reason: asked for here, before sending (finding 13).
  const reasoned = (then: (why: string) => void) => {
    const why = reason.value.trim();
    if (!why) {
      mount(note, h('span.error', t('mod.reason_first')));
      reason.focus();
      return;
    }
    then(why);
  };
  const act = (action: ModAction, extra: { minutes?: number; mark?: Mark } = {}) => () => reasoned(why =>
    socialApi.act(name, action, { reason: why, ...extra }).then(() => { mount(note, t('mod.done')); after(); }, err => mount(note, h('span.error', errorWords(err)))));
  const button = (label: string, onclick: () => void) => h('button', { type: 'button', onclick }, label);
  // A mark and a close are grave: asked once more, naming the player and saying what this one
  // does (a tester marked one by a single click; another read one sentence for all three).
  const graveButton = (label: string, what: 'booster' | 'cheater' | 'close', then: () => void) =>
    h('button.mod-grave', { type: 'button', onclick: () => { if (window.confirm(t(`mod.confirm_${what}`, { name }))) then(); } }, label);
  // The reported chat message leaves every history and open page (hostile finding 7).
  const remove = message
    ? h('button.mod-grave.mod-remove-message', {
      type: 'button',
      onclick: () => {
        reasoned(why => {
          if (!window.confirm(t('mod.confirm_remove', { name }))) return;
          socialApi.removeMessage(message, why).then(() => { mount(note, t('mod.removed')); after(); }, err => mount(note, h('span.error', errorWords(err))));
        });
      },
    }, t('mod.remove_message'))
    : null;
  // An event named to carry a message (hostile finding 2): its kind's default name instead.
  const rename = tournament
    ? h('button.mod-rename', {
      type: 'button',
      onclick: () => reasoned(why => socialApi.renameTournament(tournament, why).then(
        r => { mount(note, t('mod.renamed', { name: r.name })); after(); },
        err => mount(note, h('span.error', errorWords(err))))),
    }, t('mod.rename_event'))
    : null;
  const known = standing !== undefined;
  const muted = known && standing.muted_until !== null && standing.muted_until > Date.now();
  const mark = standing?.mark ?? null;
  const closed = known && standing.closed_at !== null;
  return h('div.actions.wrap', reason, remove, rename,
    !known || !muted ? button(t('mod.mute'), act('mute', { minutes: 60 })) : null,
    !known || muted ? button(t('mod.unmute'), act('unmute')) : null,
    !known || mark === null ? graveButton(t('mod.mark_booster'), 'booster', act('mark', { mark: 'booster' })) : null,
    !known || mark !== 'cheater' ? graveButton(t('mod.mark_cheater'), 'cheater', act('mark', { mark: 'cheater' })) : null,
    !known || mark !== null ? button(t('mod.unmark'), act('unmark')) : null,
    !known || !closed ? graveButton(t('mod.close_account'), 'close', act('close')) : null,
    !known || closed ? button(t('mod.reopen'), act('reopen')) : null,
    note);
}

/** What is in force on the reported account (browser finding 14): a mute and its end, a
 * mark, a close, and how many of its reports are open. */
function standing(s: NonNullable<ReportView['standing']>): HTMLElement {
  const parts = [
    s.muted_until !== null ? t('mod.standing_muted', { when: dateTime(s.muted_until) }) : null,
    s.mark !== null ? t(`mod.standing_mark.${s.mark}` as 'mod.standing_mark.booster') : null,
    s.closed_at !== null ? t('mod.standing_closed', { when: dateTime(s.closed_at) }) : null,
  ].filter((p): p is string => p !== null);
  const reports = s.open_reports > 1 ? t('mod.standing_reports', { n: s.open_reports }) : null;
  return h('p.small.mod-standing', { class: parts.length ? 'in-force' : undefined, 'data-muted': String(s.muted_until !== null), 'data-mark': s.mark ?? '', 'data-closed': String(s.closed_at !== null) },
    parts.length ? parts.join(' · ') : t('mod.standing_none'), reports ? ` · ${reports}` : '');
}

/** A chat line's words: its text, or its canned phrase in the reader's language. */
function lineWords(l: { text: string | null; phrase: string | null }): string {
  return l.text ?? (l.phrase ? t(`chat.phrase.${l.phrase}` as Key) : '');
}

/** The room's messages around a reported one, the reported one marked (browser finding 14):
 * a moderator reads what was said before and after, removed lines included. */
function around(lines: AroundLine[]): HTMLElement {
  return h('div.mod-around', h('p.small.muted', t('mod.around')),
    h('ol', lines.map(l => h('li', {
      class: [l.reported ? 'reported' : '', l.removed ? 'removed' : ''].filter(Boolean).join(' ') || undefined,
      'data-message': l.id,
    }, h('span.small.muted', `${dateTime(l.at)} `), h('strong', l.author ?? t('chat.anonymous')), ': ', lineWords(l),
    l.removed ? h('span.small.muted', ` (${t('mod.around_removed')})`) : null))));
}

/** Where a reported message was written, as a link: its game or its event. */
function messagePlace(room: string): HTMLElement | null {
  const at = roomPlace(room);
  if (at.game) return h('p.small.report-place', h('a.report-game', { href: `/game/${encodeURIComponent(at.game)}` }, t('mod.message_game')));
  if (at.tournament) return h('p.small.report-place', h('a.report-tournament', { href: `/tournament/${encodeURIComponent(at.tournament)}` }, t('mod.message_tournament')));
  return h('p.small.report-place', t('mod.message_lobby'));
}

export function modPage(root: HTMLElement): void {
  setTitle(t('mod.title'));
  let status: 'open' | 'closed' = 'open';
  let page = 1;
  const reports = h('div#mod-reports');
  const pager = h('div.actions#mod-pager');
  const log = h('div#mod-log');
  const row = (r: ReportView): HTMLElement => h('li.mod-report', { 'data-id': r.id },
    h('strong', h('a', { href: `/@/${encodeURIComponent(r.username)}` }, r.username)), ' · ',
    t(`social.reason.${r.reason}` as 'social.reason.other'), ' · ', t('mod.by', { name: r.reporter }), ' · ', dateTime(r.created_at),
    r.game ? [' · ', h('a', { href: `/game/${encodeURIComponent(r.game)}` }, t('social.watch'))] : null,
    r.standing ? standing(r.standing) : null,
    r.text ? h('p.report-text', r.text) : null,
    // The reported chat message, as text, with where it was written (finding 14).
    r.message ? h('blockquote.report-message', { 'data-message': r.message.id }, lineWords(r.message)) : null,
    r.message ? messagePlace(r.message.room) : null,
    r.message?.around && r.message.around.length > 1 ? around(r.message.around) : null,
    r.status === 'open'
      ? h('div', actions(r.username, load, r.standing, r.message?.id, r.message ? roomPlace(r.message.room).tournament : undefined), h('button.close-report', { type: 'button', onclick: () => socialApi.closeReport(r.id).then(load, err => mount(reports, h('p.error', errorWords(err)))) }, t('mod.close_report')))
      : h('p.muted.small', t('mod.closed_by', { name: r.closed_by ?? '?' })));
  const turn = (to: number) => () => { page = to; load(); };
  function load(): void {
    socialApi.reports(status, page).then(list => {
      mount(reports, list.length ? h('ul', list.map(row)) : h('p.muted', t('mod.no_reports')));
      // 50 a page (docs/api.md): a full page may have a next one; past the last, [].
      mount(pager,
        h('button#mod-prev', { type: 'button', disabled: page <= 1, onclick: turn(page - 1) }, t('mod.prev')),
        h('span.small#mod-page', t('mod.page', { n: page })),
        h('button#mod-next', { type: 'button', disabled: list.length < REPORTS_PAGE, onclick: turn(page + 1) }, t('mod.next')));
    }, err => mount(reports, h('p.error#mod-error', errorWords(err))));
    socialApi.log().then(lines => mount(log, h('ul', lines.map(l => h('li.small',
      dateTime(l.at), ' · ', l.moderator, ' · ', h('span.mod-action', { 'data-action': l.action }, actionWords(l.action)), ' · ', l.target, l.details ? [' · ', l.details] : null)))), () => mount(log, ''));
  }
  const tabs = h('div.tabs', (['open', 'closed'] as const).map(s => h('button', {
    type: 'button', 'aria-pressed': String(s === status),
    onclick: () => { status = s; page = 1; load(); },
  }, t(`mod.${s}` as 'mod.open'))));
  mount(root, h('section.card#mod', h('h1', t('mod.title')), tabs, reports, pager, h('h2', t('mod.log')), log));
  load();
}
