// Playing the computer offline (issue 42): `/offline` starts a game (game, level 1-8, side) and
// lists the games kept in this browser; `/offline/<id>` plays one (ctrl.ts, view.ts). Both work
// with the server gone once the page and the engine are in the service worker's cache.

import type { Color, Variant } from '../../api';
import { engineFailure, localEngine, retryLocalEngine } from '../../engine/client';
import { h, mount } from '../../dom';
import { colorName, t } from '../../i18n';
import { navigate } from '../../nav';
import { mountView } from '../../snabbdom';
import { setTitle } from '../../title';
import { variantOr } from '../../variants';
import { deadEndPage } from '../notfound';
import { OfflineCtrl } from './ctrl';
import { deleteGame, listGames, loadGame, newId, saveGame, type OfflineGame } from './store';
import { gameName, view } from './view';

/** Waits for the engine, or says why there is none: a failed or stalled load (after
 * engine/client.ts's timeout) with a button that tries again. */
function withEngine(root: HTMLElement, then: (engine: NonNullable<Awaited<ReturnType<typeof localEngine>>>) => void): () => boolean {
  let gone = false;
  const wait = (loading: ReturnType<typeof localEngine>) => {
    mount(root, h('section.card#offline-loading', h('p', { role: 'status' }, t('solo.loading'))));
    void loading.then(engine => {
      if (gone) return;
      const why = engineFailure();
      if (engine) then(engine);
      else if (why !== null) {
        mount(root, h('section.card#offline-failed', h('h1', t('solo.title')),
          h('p.error', { role: 'alert' }, t('solo.load_failed', { why })),
          h('button.primary#offline-retry', { type: 'button', onclick: () => wait(retryLocalEngine()) }, t('solo.retry'))));
      } else mount(root, h('section.card#offline-none', h('h1', t('solo.title')), h('p.error', t('solo.no_engine'))));
    });
  };
  wait(localEngine());
  return () => (gone = true);
}

/** `/offline`: a new game's form and the games kept here. */
export function offlinePage(root: HTMLElement): () => void {
  setTitle(t('solo.title'));
  const q = new URLSearchParams(location.search);
  const form = {
    variant: variantOr(q.get('variant')).key as Variant,
    level: Math.min(8, Math.max(1, Number(q.get('level')) || 1)),
    color: (q.get('color') === 'black' ? 'black' : q.get('color') === 'random' ? 'random' : 'white') as Color | 'random',
  };
  const stop = withEngine(root, engine => {
    const error = h('p.error', { role: 'alert' });
    const radios = <T extends string>(name: string, options: [T, string][], selected: T, set: (v: T) => void) =>
      h('div.choices', { role: 'radiogroup' }, ...options.map(([value, label]) =>
        h('label.choice', h('input', { type: 'radio', name, value, checked: value === selected, onchange: () => set(value) }), h('span', label))));
    const start = async (e: Event) => {
      e.preventDefault();
      try {
        const pos = await engine.view({ variant: form.variant, fen: '' });
        const color: Color = form.color === 'random' ? (Math.random() < 0.5 ? 'white' : 'black') : form.color;
        const now = Date.now();
        const g: OfflineGame = {
          id: newId(), variant: form.variant, level: form.level, color, startFen: pos.fen, moves: [], result: null,
          seed: Math.floor(Math.random() * 2 ** 31), created: now, updated: now,
        };
        if (!saveGame(g)) error.textContent = t('solo.not_kept');
        navigate(`/offline/${g.id}`);
      } catch (err) {
        error.textContent = err instanceof Error ? err.message : String(err);
      }
    };
    const games = listGames();
    const line = (g: OfflineGame) => h('li.offline-game', { 'data-id': g.id },
      h('a.button', { href: `/offline/${g.id}` }, g.result ? t('solo.open') : t('solo.resume')),
      ' ',
      t('solo.game_line', { game: gameName(g.variant), level: g.level, color: colorName(g.color), plies: g.moves.length }),
      ' · ', g.result ? g.result.result : t('solo.ongoing'),
      ' ',
      h('button.delete', { type: 'button', onclick: () => { deleteGame(g.id); navigate('/offline', true); } }, t('solo.delete')),
    );
    mount(root,
      h('section.card.home#offline-form',
        h('h1', t('solo.title')),
        h('p.intro', t('solo.intro')),
        h('form#new-offline-game', { onsubmit: start },
          h('fieldset', h('legend', t('home.game')),
            radios<Variant>('variant', [['antarctos', t('game.antarctos')], ['iceage', t('game.iceage')]], form.variant, v => { form.variant = v; })),
          h('fieldset.levels', h('legend', t('home.level')),
            radios('level', [1, 2, 3, 4, 5, 6, 7, 8].map(n => [String(n), t('level.choice', { n, words: t(`level.${n}` as 'level.1') })] as [string, string]),
              String(form.level), v => { form.level = Number(v); })),
          h('fieldset', h('legend', t('home.side')),
            radios<Color | 'random'>('color', [['white', t('color.white')], ['black', t('color.black')], ['random', t('color.random')]], form.color, v => { form.color = v; })),
          h('div.actions', h('button.primary#offline-start', { type: 'submit' }, t('solo.start'))),
          error,
        ),
      ),
      h('section.card#offline-games',
        h('h2', t('solo.saved')),
        games.length ? h('ul.offline-games', ...games.map(line)) : h('p.muted', t('solo.none')),
      ),
    );
  });
  return () => { stop(); };
}

/** `/offline/<id>`: a game kept in this browser, resumed where it stood. */
export function offlineGamePage(root: HTMLElement, id: string): () => void {
  const game = loadGame(id);
  if (!game) {
    deadEndPage(root, 'gamenf.title', t('gamenf.text'), [h('a.button.primary', { href: '/offline' }, t('solo.title'))]);
    return () => undefined;
  }
  setTitle(`${t('solo.title')} · ${gameName(game.variant)}`);
  let ctrl: OfflineCtrl | null = null;
  const stop = withEngine(root, engine => {
    let patch = () => {};
    ctrl = new OfflineCtrl(game, engine, () => patch());
    document.body.dataset.theme = game.variant;
    const c = ctrl;
    patch = mountView(root, () => view(c));
    void c.start();
  });
  return () => {
    stop();
    ctrl?.close();
    delete document.body.dataset.theme;
  };
}
