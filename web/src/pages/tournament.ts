// `/tournament/<id>` (issue 40): the standings live over the event's stream, the pairings by
// round with each game linked, a round robin's crosstable, "your game is ready" with a sound,
// join / withdraw / pause / start / berserk, the clock to the start or the end, a finished
// event's podium and its downloads.

import type { Variant } from '../api';
import { currentUser, loadMe } from '../account';
import { listenChat, roomChat } from '../chat/box';
import { h, mount, svgIcon } from '../dom';
import { dateTime, errorWords, num, t } from '../i18n';
import { play } from '../sound';
import { setTitle } from '../title';
import { controlLabel, tournamentsApi, type PairingView, type TournamentView } from '../tournaments/api';
import { kindName, tournamentError } from './tournaments';

const gameName = (v: Variant) => t(`game.${v}` as 'game.antarctos');

function clockText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const d = Math.floor(s / 86400);
  const hms = [Math.floor((s % 86400) / 3600), Math.floor((s % 3600) / 60), s % 60].map(x => String(x).padStart(2, '0')).join(':');
  return d > 0 ? `${d} d ${hms}` : hms;
}

/** The clock to the start or the end, or the round. */
function countdownText(v: TournamentView): string {
  const now = Date.now();
  if (v.status === 'created') return t('tour.to_start', { time: clockText(v.starts_at - now) });
  if (v.status === 'started' && v.ends_at) return t('tour.to_end', { time: clockText(v.ends_at - now) });
  if (v.status === 'started' && v.kind === 'round_robin' && v.time_control.kind === 'correspondence') {
    // Every game is paired at the start: the games played say how far it is.
    const played = v.pairings.filter(p => p.result !== null).length;
    return t('tour.games_played', { n: played, total: v.pairings.length });
  }
  if (v.status === 'started' && v.rounds) return t('tour.round_of', { round: v.round, rounds: v.rounds });
  return '';
}

function resultText(p: PairingView): string {
  switch (p.result) {
    case null: return t('tour.playing');
    case 'white': return '1-0';
    case 'black': return '0-1';
    case 'draw': return '½-½';
    case 'white_forfeit': return `+ − (${t('tour.forfeit')})`;
    case 'black_forfeit': return `− + (${t('tour.forfeit')})`;
    case 'double_forfeit': return `− − (${t('tour.forfeit')})`;
    case 'bye': return '';
  }
}

/** When it starts, started or ended. */
function whenText(v: TournamentView): string {
  if (v.status === 'finished' && v.finished_at) return t('tour.finished_at', { time: dateTime(v.finished_at) });
  if (v.status === 'started' && v.started_at) return t('tour.started_at', { time: dateTime(v.started_at) });
  return t('tour.starts_at', { time: dateTime(v.starts_at) });
}

/** Whether `user` went berserk in game `game` already. */
function berserked(v: TournamentView, game: string, user: string | null | undefined): boolean {
  const p = v.pairings.find(x => x.game === game);
  return !!p && ((p.white === user && !!p.berserk_white) || (p.black === user && !!p.berserk_black));
}

const player = (name: string) => h('a', { href: `/@/${name}` }, name);

/** A flame drawn in SVG (no emoji font is needed): a player on a streak. */
function flame(): SVGSVGElement {
  return svgIcon('M12 2c1 3.5 5 6 5 11a5 5 0 0 1-10 0c0-2.4 1.2-4 2.5-5.3.2 1.6.9 2.8 2 3.3C11 8.5 11.3 5 12 2Z', 14, { label: t('tour.fire'), classes: ['t-icon', 't-flame'] });
}

/** How the event's kind plays and scores, in a few lines. */
function rules(v: TournamentView): HTMLElement {
  const lines = v.kind === 'arena'
    ? [t('tour.rules_arena_1'), t('tour.rules_arena_2'), t('tour.rules_arena_3'), v.variant === 'iceage' ? t('tour.rules_arena_iceage') : '']
    : v.kind === 'swiss'
      ? [t('tour.rules_swiss_1'), t('tour.rules_swiss_2'), t('tour.rules_swiss_3')]
      : [t('tour.rules_rr_1'), t('tour.rules_rr_2'), t('tour.rules_rr_3')];
  return h('details.card#rules', h('summary', t('tour.rules')), h('ul', lines.filter(Boolean).map(l => h('li', l))));
}

function standings(v: TournamentView): HTMLElement {
  const fide = v.kind !== 'arena';
  const head = h('tr', h('th.num', t('tour.rank')), h('th', t('tour.player')), h('th.num', t('tour.points')),
    fide ? [h('th.num', t('tour.buchholz')), h('th.num', t('tour.sb'))] : h('th', t('tour.scores')), h('th.num', t('tour.games')));
  const rows = v.standings.map(s => h('tr', { 'data-username': s.username },
    h('td.num', String(s.rank)),
    h('td', player(s.username), ' ', h('span.muted', String(s.rating)),
      s.fire ? h('span.fire', { title: t('tour.fire') }, ' ', flame()) : '',
      s.withdrawn ? h('span.muted', ` (${t('tour.withdrawn')})`) : '',
      s.paused ? h('span.muted', ` (${t('tour.paused')})`) : ''),
    h('td.num', h('strong', num(s.points, Number.isInteger(s.points) ? 0 : 1))),
    fide
      ? [h('td.num', num(s.tiebreaks?.buchholz_cut1 ?? 0, 1)), h('td.num', num(s.tiebreaks?.sonneborn_berger ?? 0, 2))]
      : h('td.sheet', (s.sheet ?? []).join(' ')),
    h('td.num', String(s.games))));
  return h('section.card#standings', h('h2', t('tour.standings')),
    h('div.table-scroll', h('table.list.standings', h('thead', head), h('tbody', rows))));
}

function pairings(v: TournamentView): HTMLElement {
  const rounds = [...new Set(v.pairings.map(p => p.round))].sort((a, b) => b - a);
  const line = (p: PairingView) => h('li', { 'data-round': String(p.round) },
    player(p.white), p.berserk_white ? ' ⚔' : '', ' – ', p.black ? player(p.black) : h('em', t('tour.bye')), p.berserk_black ? ' ⚔' : '', ' ',
    p.game ? h('a', { href: `/game/${p.game}` }, resultText(p)) : h('span', resultText(p)));
  const body = v.kind === 'arena'
    ? h('ul.pairings', [...v.pairings].reverse().slice(0, 100).map(line))
    : rounds.map(r => h('div.round', h('h3', t('tour.round', { n: r })), h('ul.pairings', v.pairings.filter(p => p.round === r).map(line))));
  return h('section.card#pairings', h('h2', t('tour.pairings')), body);
}

function crosstable(v: TournamentView): HTMLElement | null {
  if (v.kind !== 'round_robin' || v.standings.length === 0) return null;
  const names = v.standings.map(s => s.username);
  const cell = (a: string, b: string): string => {
    if (a === b) return '×';
    return v.pairings.filter(p => (p.white === a && p.black === b) || (p.white === b && p.black === a)).map(p => {
      const white = p.white === a;
      switch (p.result) {
        case 'white': return white ? '1' : '0';
        case 'black': return white ? '0' : '1';
        // Forfeits as FIDE's crosstables write them: + for the side that was there.
        case 'white_forfeit': return white ? '+' : '−';
        case 'black_forfeit': return white ? '−' : '+';
        case 'draw': return '½';
        case 'double_forfeit': return '−';
        default: return '·';
      }
    }).join(' ');
  };
  return h('section.card#crosstable', h('h2', t('tour.crosstable')), h('div.table-scroll', h('table.list.crosstable',
    h('thead', h('tr', h('th', { scope: 'col' }, '#'), names.map((_, i) => h('th.num', { scope: 'col' }, String(i + 1))))),
    h('tbody', names.map((a, i) => h('tr', h('th', `${i + 1}. `, a), names.map(b => h('td.num', cell(a, b)))))))));
}

export function tournamentPage(page: HTMLElement, id: string): () => void {
  // The event's view is drawn again on each change; its chat box beside it stays.
  const root = h('div.tournament-main');
  const chat = roomChat(id, currentUser);
  mount(page, root, h('section.card.tournament-chat', chat.el));
  let view: TournamentView | null = null;
  let announced: string | null = null;
  let error = '';
  // The action waiting for a second click ("withdraw" asks once more).
  let confirming: string | null = null;
  const draw = () => {
    if (!view) return;
    const v = view;
    setTitle(v.name);
    const me = v.me;
    const user = currentUser();
    // The server's view says whether the visitor has an account (`me`), even before the
    // header has learnt the name.
    const loggedIn = v.me !== null;
    const act = (action: Parameters<typeof tournamentsApi.act>[1], label: string, primary = false, confirm?: string) =>
      h(primary ? 'button.primary' : 'button', { type: 'button', 'data-action': action, 'data-confirming': confirming === action ? 'yes' : undefined, onclick: () => {
        if (confirm && confirming !== action) { confirming = action; draw(); return; }
        confirming = null;
        tournamentsApi.act(v.id, action).then(() => { error = ''; refresh(); }, err => { error = tournamentError(err, action === 'join'); draw(); });
      } }, confirm && confirming === action ? confirm : label);
    const over = v.status === 'finished' || v.status === 'canceled';
    const buttons: HTMLElement[] = [];
    if (loggedIn && !over) {
      // A started round robin takes no entries; a full event none either.
      const open = !(v.kind === 'round_robin' && v.status === 'started') && v.players < v.max_players;
      if (!me?.joined) { if (open) buttons.push(act('join', t('tour.join'), true)); }
      else {
        // Withdrawing from a Swiss event or a round robin forfeits the games to come: ask.
        buttons.push(act('withdraw', t('tour.withdraw'), false, v.kind === 'arena' ? undefined : t('tour.withdraw_confirm')));
        if (v.kind === 'arena' && v.status === 'started') buttons.push(me.paused ? act('resume', t('tour.resume'), true) : act('pause', t('tour.pause')));
      }
      if (me?.creator && v.status === 'created') buttons.push(act('start', t('tour.start_now')));
    } else if (!loggedIn && !over) buttons.push(h('p.muted', t('tour.create_hint')));
    const countdown = countdownText(v);
    const conditions = [
      v.conditions.min_rated_games ? t('tour.cond_games', { n: v.conditions.min_rated_games }) : '',
      v.conditions.min_rating ? t('tour.cond_min', { n: v.conditions.min_rating }) : '',
      v.conditions.max_rating ? t('tour.cond_max', { n: v.conditions.max_rating }) : '',
    ].filter(Boolean);
    const ready = me?.game && v.status === 'started' ? h('section.card.your-game#your-game', { role: 'status' }, h('strong', t('tour.your_game')), ' ',
      h('a.button.primary', { href: `/game/${me.game}` }, t('tour.go_to_game')),
      v.kind === 'arena' && !berserked(v, me.game, user) ? act('berserk', t('tour.berserk')) : '') : null;
    mount(root,
      h('section.card#tournament', { 'data-id': v.id, 'data-status': v.status },
        h('h1', v.name),
        h('p', kindName(v.kind), ' · ', gameName(v.variant), ' · ', controlLabel(v.time_control), ' · ',
          v.rated ? t('tour.rated') : t('rating.casual'), ' · ', t('tour.players_n', { n: v.players }),
          v.scheduled ? ` · ${t('tour.scheduled')}` : ''),
        h('p', h('strong', t(`tour.status.${v.status}` as 'tour.status.created')), ' · ', whenText(v)),
        countdown ? h('p.countdown#countdown', countdown) : '',
        conditions.length ? h('p.muted', t('tour.conditions', { what: conditions.join(', ') })) : '',
        // Places from the standings: players tied on every tie-break share one.
        v.podium?.length ? h('ol.podium', v.podium.map(n => {
          const rank = v.standings.find(s => s.username === n)?.rank ?? 0;
          return h('li', { value: String(rank), 'data-rank': String(rank) }, player(n));
        })) : '',
        h('div.actions', buttons),
        error ? h('p.error', { role: 'alert' }, error) : '',
        v.status === 'finished' ? h('p', h('a', { href: tournamentsApi.gamesUrl(v.id), download: '' }, t('tour.download_games')),
          v.kind !== 'arena' ? [' · ', h('a', { href: tournamentsApi.trfUrl(v.id), download: '' }, t('tour.download_trf'))] : '') : ''),
      ready ?? '', standings(v), crosstable(v) ?? '', pairings(v), rules(v));
    if (me?.game && me.game !== announced) {
      announced = me.game;
      play('success');
    }
  };
  // A view older than the one shown is dropped: the answer to the GET after "Start" could come
  // after the stream's view of the pairing it made, and hid "your game is ready" for good
  // (CI run 79, tournaments.mjs).
  const take = (v: TournamentView) => {
    if (view && v.version < view.version) return;
    view = v;
    draw();
  };
  const refresh = () => tournamentsApi.get(id).then(take, err => {
    if (!view) mount(root, h('section.card', h('p.error', errorWords(err))));
  });
  mount(root, h('section.card', h('p.muted', t('page.loading'))));
  refresh();
  // The header's account may come after the first view: the berserk check needs the name.
  void loadMe().then(() => draw(), () => undefined);
  const events = new EventSource(tournamentsApi.streamUrl(id));
  listenChat(events, chat);
  events.addEventListener('tournament', e => {
    try {
      take(JSON.parse((e as MessageEvent<string>).data) as TournamentView);
    } catch { /* a malformed event is skipped; the next one redraws */ }
  });
  // Only the countdown's text changes each second: redrawing the page would take the focus
  // and the selection away.
  const tick = window.setInterval(() => {
    const el = document.getElementById('countdown');
    if (el && view) el.textContent = countdownText(view);
  }, 1000);
  return () => { events.close(); window.clearInterval(tick); };
}
