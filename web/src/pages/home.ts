// Home: a line saying what the site is, the lobby (quick pairing, open seeks, challenges:
// lobby/lobby.ts), the daily puzzles (puzzles/daily_card.ts), then a game of one's own: pick a
// game (each with a picture of its start and a link to its rules), an opponent (engine level in
// words / friend by link, with a clock and rated or not / same screen) and a side. The query
// string may preset the form (`/?variant=iceage&opponent=engine&level=3&color=black`, the game
// page's New game).

import { currentUser } from '../account';
import { api, ApiError, type Color, type NewGame, type Variant } from '../api';
import { Board } from '../board';
import { h, mount } from '../dom';
import { errorWords, t } from '../i18n';
import { lobbySection } from '../lobby/lobby';
import { timePicker } from '../lobby/time_control';
import { navigate } from '../nav';
import { onlineSection } from '../online';
import { positionFaultWords } from '../position_words';
import { dailySection } from '../puzzles/daily_card';
import { setTitle } from '../title';
import { variantOf, variantOr } from '../variants';

function radios<T extends string>(name: string, options: [T, string][], selected: T, onchange: (v: T) => void): HTMLElement {
  return h('div.choices', { role: 'radiogroup' },
    ...options.map(([value, label]) =>
      h('label.choice',
        h('input', { type: 'radio', name, value, checked: value === selected, onchange: () => onchange(value) }),
        h('span', label),
      )),
  );
}

function preset(): NewGame {
  const q = new URLSearchParams(location.search);
  const variant = variantOr(q.get('variant')).key;
  const opp = q.get('opponent');
  const opponent: NewGame['opponent'] = opp === 'friend' || opp === 'local' ? opp : 'engine';
  const level = Number(q.get('level'));
  const c = q.get('color');
  const color: Color | 'random' = c === 'black' || c === 'random' ? c : 'white';
  return { variant, opponent, level: level >= 1 && level <= 8 ? level : 3, color };
}

/** The form as last left on this page's address: the page is drawn again when the server
 * says who the player is (the lobby and the rated box depend on it), and a choice made before
 * that answer came must not be lost (a player's click, or a test's, went back to Antarctos). */
let kept: { search: string; form: NewGame; clock?: string; fen?: string } | null = null;

export function homePage(root: HTMLElement): () => void {
  setTitle(t('nav.play'));
  const search = location.search;
  const form = kept?.search === search ? kept.form : preset();
  const was = kept?.search === search ? kept : null;
  kept = { search, form };
  const boards: Board[] = [];
  const error = h('p.error', { role: 'alert' });
  const fenInput = h('input#fen', { type: 'text', placeholder: t('home.fen_hint'), 'aria-label': t('home.fen'), spellcheck: 'false', autocomplete: 'off' }) as HTMLInputElement;
  // A start position set up in the board editor (`?fen=`).
  const presetFen = new URLSearchParams(location.search).get('fen')?.trim() ?? '';
  fenInput.value = was?.fen ?? presetFen;

  const levelRow = h('fieldset.levels',
    h('legend', t('home.level')),
    radios('level', [1, 2, 3, 4, 5, 6, 7, 8].map(n => [String(n), t('level.choice', { n, words: t(`level.${n}` as 'level.1') })] as [string, string]),
      String(form.level), v => { form.level = Number(v); }));

  const sideRow = h('fieldset',
    h('legend', t('home.side')),
    radios('color', [['white', t('color.white')], ['black', t('color.black')], ['random', t('color.random')]], form.color, v => { form.color = v; }),
  );

  const loggedIn = typeof currentUser() === 'string';
  // A friend game's clock and rating: the same picker as the lobby's seeks.
  // Not rated at first: the friend may have no account, and could not join a rated game.
  const friendClock = timePicker('friend', loggedIn, was?.clock ?? 'unlimited', false);
  // The picker labels itself ("Time control"): a legend here said it twice.
  const clockRow = h('div.friend-clock', friendClock.el);

  const syncVisibility = () => {
    levelRow.hidden = form.opponent !== 'engine';
    sideRow.hidden = form.opponent === 'local';
    // A clock for a friend or the engine (issue 38); rated only between players.
    clockRow.hidden = form.opponent === 'local';
    clockRow.classList.toggle('engine-clock', form.opponent === 'engine');
  };

  const gameCard = (v: Variant, blurb: string) => {
    const pic = h('div.cg-wrap');
    const card = h('label.game-card', { class: `variant-${v}` },
      h('input', { type: 'radio', name: 'variant', value: v, checked: v === form.variant, onchange: () => { form.variant = v; } }),
      h('span.game-title', t(`game.${v}` as 'game.antarctos')),
      h('span.game-pic', { role: 'img', 'aria-label': t(variantOf(v).pictureKey) }, pic),
      h('span.game-blurb', blurb),
      h('a.game-rules', { href: `/rules/${v}` }, t('home.rules_link')),
      h('a.game-analyse', { href: `/analysis/${v}` }, t('home.analyse')),
    );
    // chessgroundx measures its element: the picture is drawn once the page holds it.
    requestAnimationFrame(() => {
      if (!pic.isConnected) return;
      const board = new Board(pic, v, { move: () => undefined }, true);
      board.show(variantOf(v).startFen, { legal: [], movable: null });
      boards.push(board);
    });
    return card;
  };

  const submit = h('button.primary#start', { type: 'submit' }, t('home.start')) as HTMLButtonElement;
  const onSubmit = async (e: Event) => {
    e.preventDefault();
    error.textContent = '';
    submit.disabled = true;
    const body: NewGame = { variant: form.variant, opponent: form.opponent, color: form.color };
    if (form.opponent === 'engine') {
      body.level = form.level;
      const tc = friendClock.value();
      if (!tc) {
        submit.disabled = false;
        return;
      }
      if (tc.kind !== 'unlimited') body.time_control = tc;
    }
    if (form.opponent === 'local') body.color = 'white';
    if (form.opponent === 'friend') {
      const tc = friendClock.value();
      if (!tc) {
        submit.disabled = false;
        return;
      }
      if (tc.kind !== 'unlimited') body.time_control = tc;
      if (friendClock.rated()) body.rated = true;
    }
    const fen = fenInput.value.trim();
    if (fen) body.fen = fen;
    try {
      const game = await api.createGame(body);
      navigate(`/game/${game.id}`);
    } catch (err) {
      // A start position the rules refuse: why, in the page's language when the rules' fault
      // came along, else the server's message.
      if (err instanceof ApiError && err.code === 'bad_request' && fen) mount(error, t('home.bad_fen'), ' ', err.position ? positionFaultWords(err) : h('code', err.message));
      else error.textContent = errorWords(err);
      submit.disabled = false;
    }
  };

  // The lobby needs the server: offline, a notice in its place (online.ts).
  const lobby = onlineSection(() => lobbySection(loggedIn), t('offline.lobby'));
  // The day's puzzles (issue 39), after the lobby, where a visitor sees them without a long
  // scroll; hidden while the server cannot answer.
  const daily = dailySection();
  mount(root,
    // A newcomer's first question: what is this site?
    h('p.intro#intro', t('home.intro')),
    // On a phone the lobby fills the first screens: a newcomer who wants the computer or a
    // friend is shown the way down to the form (hidden on wide screens, where it is in sight).
    h('button.jump-start#jump-start', {
      type: 'button',
      onclick: () => document.getElementById('start-form')?.scrollIntoView({ block: 'start' }),
    }, t('home.jump_start')),
    lobby.el,
    daily.el,
    h('section.card.home#start-form',
      h('h1', t('home.title')),
      h('form#new-game', { onsubmit: onSubmit },
        h('fieldset',
          h('legend', t('home.game')),
          h('div.game-cards', gameCard('antarctos', t('home.antarctos_blurb')), gameCard('iceage', t('home.iceage_blurb'))),
        ),
        h('fieldset',
          h('legend', t('home.opponent')),
          radios('opponent', [['engine', t('home.engine')], ['friend', t('home.friend')], ['local', t('home.local')]], form.opponent, v => {
            form.opponent = v;
            syncVisibility();
          }),
        ),
        levelRow,
        clockRow,
        sideRow,
        h('details', { open: fenInput.value !== '' },
          h('summary', t('home.fen')),
          fenInput,
        ),
        h('div.actions', submit),
        error,
      ),
      // The computer in the browser: no server needed (issue 42).
      h('p.offline-link', h('a.button#offline-link', { href: '/offline' }, t('solo.home_link'))),
    ),
  );
  syncVisibility();
  return () => {
    if (kept?.form === form) {
      kept.fen = fenInput.value;
      kept.clock = friendClock.el.querySelector('select')?.value;
    }
    lobby.destroy();
    daily.destroy();
    boards.forEach(b => b.destroy());
  };
}
