// My games: the games of this browser's player token, unfinished first (the server's order).

import { api, type GameSummary, type Seat } from '../api';
import { h, mount } from '../dom';
import { colorName, dateTime, errorWords, resultLine, t } from '../i18n';
import { controlLabel } from '../game/clock';
import { setTitle } from '../title';

function opponent(g: GameSummary): string {
  const seat: Seat | undefined = g.you === 'white' ? g.black : g.you === 'black' ? g.white : undefined;
  if (g.you === 'both') return t('home.local');
  if (!seat) return '';
  if (seat.kind === 'engine') {
    const level = seat.level ?? 0;
    return t('game.engine_level', { level: level || '?', words: level >= 1 && level <= 8 ? t(`level.${level}` as 'level.1') : '?' });
  }
  if (seat.kind === 'open') return t('home.friend');
  return seat.username ?? t('game.human');
}

function state(g: GameSummary): string {
  if (g.status === 'aborted') return t('result.aborted');
  if (g.result) return resultLine(g.result, g.you === 'white' || g.you === 'black' ? [g.you] : []);
  if (g.white.kind === 'open' || g.black.kind === 'open') return t('my.waiting');
  const c = g.clock;
  // A correspondence player sees when their time runs out (as BrainKing's game list).
  const deadline = g.your_turn && c?.kind === 'correspondence' && c.deadline_ms !== null
    ? ` · ${t('my.deadline', { when: dateTime(c.deadline_ms) })}` : '';
  return `${t('my.ongoing')}${g.your_turn ? ` · ${t('turn.you')}` : ''}${deadline}`;
}

export function myGamesPage(root: HTMLElement): void {
  setTitle(t('my.title'));
  mount(root, h('section.card', h('h1', t('my.title')), h('p.muted', t('page.loading'))));
  api.myGames().then(
    games => {
      const rows = games.map(g =>
        h('tr', { class: g.status, 'data-id': g.id },
          h('td', t(`game.${g.variant}` as 'game.antarctos'),
            g.clock ? h('span.muted.control-tag', ` · ${controlLabel(g.clock)}${g.rated ? ` · ${t('clock.rated')}` : ''}`) : null),
          h('td', g.you === 'both' ? t('game.you_both') : g.you ? colorName(g.you) : ''),
          h('td', opponent(g),
            g.offline ? h('span.muted.small.offline-tag', ` · ${t('offline.unverified')}`) : null),
          h('td', state(g)),
          h('td.muted', h('time', { datetime: new Date(g.updated_at).toISOString() }, dateTime(g.updated_at))),
          h('td', h('a.button', { href: `/game/${g.id}`, class: g.status === 'ongoing' ? 'primary' : undefined },
            g.status === 'ongoing' ? t('my.return') : t('my.view'))),
        ));
      const head = h('tr', h('th', t('home.game')), h('th', t('home.side')), h('th', t('home.opponent')),
        h('th', t('my.state')), h('th', t('my.when')), h('th', h('span.sr-only', t('my.view'))));
      mount(root, h('section.card',
        h('h1', t('my.title')),
        games.length
          ? h('div.table-scroll', h('table.list#my-games', h('thead', head), h('tbody', rows)))
          : h('p.muted', t('my.empty'))));
    },
    err => mount(root, h('section.card', h('p.error', errorWords(err)))),
  );
}
