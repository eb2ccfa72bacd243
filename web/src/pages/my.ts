// My games: the games of this browser's player token, unfinished first (the server's order).

import { api, errorText, type GameSummary, type Seat } from '../api';
import { h, mount } from '../dom';
import { resultWords, t } from '../i18n';

function opponent(g: GameSummary): string {
  const seat: Seat | undefined = g.you === 'white' ? g.black : g.you === 'black' ? g.white : undefined;
  if (g.you === 'both') return t('home.local');
  if (!seat) return '';
  if (seat.kind === 'engine') return t('game.engine_level', { level: seat.level ?? '?' });
  if (seat.kind === 'open') return t('home.friend');
  return t('game.human');
}

export function myGamesPage(root: HTMLElement): void {
  mount(root, h('section.card', h('h1', t('my.title')), h('p.muted', '…')));
  api.myGames().then(
    games => {
      const rows = games.map(g =>
        h('tr', { class: g.status, 'data-id': g.id },
          h('td', t(`game.${g.variant}` as 'game.antarctos')),
          h('td', g.you === 'both' ? t('game.you_both') : g.you ? t(g.you === 'white' ? 'color.white' : 'color.black') : ''),
          h('td', opponent(g)),
          h('td', g.result ? resultWords(g.result) : `${t('my.ongoing')}${g.your_turn ? ` · ${t('turn.you')}` : ''}`),
          h('td.muted', new Date(g.updated_at).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' })),
          h('td', h('a.button', { href: `/game/${g.id}`, class: g.status === 'ongoing' ? 'primary' : undefined },
            g.status === 'ongoing' ? t('my.return') : t('my.view'))),
        ));
      mount(root, h('section.card',
        h('h1', t('my.title')),
        games.length
          ? h('table.list#my-games', h('thead', h('tr', h('th', t('home.game')), h('th', t('home.side')), h('th', t('home.opponent')), h('th', ''), h('th', ''), h('th', ''))), h('tbody', rows))
          : h('p.muted', t('my.empty'))));
    },
    err => mount(root, h('section.card', h('p.error', errorText(err)))),
  );
}
