// The puzzle trainer's view: the board oriented to the solver, what to do now, the verdict with
// "view the solution", "analyse" and "next", the solution's moves to step through, the player's
// puzzle rating and its change, the puzzle's rating, plays, themes (once the attempt ended:
// they tell the answer), hint and source game, the theme chooser and the rated switch; in a
// streak, the score and the best. A function of the controller's state (ctrl.ts); snabbdom
// patches the page with it.

import { speakerIcon } from '../../game/words';
import { countdownBox, countdownWords } from '../../game/iceage';
import { promotionPicker } from '../../game/promotion';
import { colorName, locale, resultReason, t, type Key } from '../../i18n';
import { THEMES, type PuzzleSource } from '../../puzzles/api';
import { sessionRating } from '../../puzzles/session';
import { themeAbout, themeName } from '../../puzzles/themes';
import { shownDiff } from '../../ratings_api';
import * as sound from '../../sound';
import { h, type VNode } from '../../snabbdom';
import { variantOf } from '../../variants';
import type { LineNode, TrainerCtrl } from './ctrl';
import { loginHref } from '../../account';

export const gameName = (ctrl: TrainerCtrl) => t(ctrl.game.nameKey);

/** A day (`2025-03-14`) in the page's language: the same day wherever the reader is. */
function dayWords(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? day : new Intl.DateTimeFormat(locale(), { dateStyle: 'long', timeZone: 'UTC' }).format(d);
}

const ended = (ctrl: TrainerCtrl) => ctrl.phase === 'solved' || ctrl.phase === 'failed';

export function view(ctrl: TrainerCtrl): VNode {
  const p = ctrl.puzzle;
  return h('section#puzzle.game.puzzle', {
    attrs: {
      'data-variant': ctrl.variant, 'data-phase': ctrl.phase, 'data-mode': ctrl.mode.kind,
      // The plies played and the node shown: what a test (and a reader of the page) waits for.
      'data-ply': ctrl.line.length - 1, 'data-shown': ctrl.shownIndex(),
      ...(p ? { 'data-id': p.id } : {}),
    },
  }, [
    h('div.board-col', [
      h('div.board-box', [
        h('div.cg-wrap', {
          key: 'board',
          attrs: { role: 'region', 'aria-label': t('puzzle.board_label', { game: gameName(ctrl), color: colorName(ctrl.solver()) }) },
          hook: { insert: v => ctrl.mountBoard(v.elm as HTMLElement) },
        }),
        promotionPicker(ctrl.promotion),
      ]),
      browse(ctrl),
    ]),
    h('aside.panel', [
      h('div.panel-head', [
        h('h1#puzzle-title', { attrs: p?.date ? { 'data-date': p.date } : {} }, ctrl.mode.kind === 'daily' && p?.date ? t('puzzle.daily_of', { date: dayWords(p.date) }) : ctrl.mode.kind === 'streak' ? `${t('puzzle.streak')} · ${gameName(ctrl)}` : t('puzzle.heading', { game: gameName(ctrl) })),
        soundButton(ctrl),
      ]),
      modes(ctrl),
      streakBox(ctrl),
      status(ctrl),
      h('p#puzzle-message.error', { attrs: { role: 'alert', hidden: !ctrl.message } }, ctrl.message),
      verdict(ctrl),
      ctrl.variant === 'iceage' && ctrl.pos && !ctrl.pos.result ? countdownBox(countdownWords(ctrl.variant, ctrl.pos.ice_age_in)) : null,
      ratingBox(ctrl),
      about(ctrl),
      solutionMoves(ctrl),
      choices(ctrl),
    ]),
  ]);
}

function soundButton(ctrl: TrainerCtrl): VNode {
  const on = sound.enabled();
  return h('button#sound.icon', {
    attrs: { type: 'button', title: on ? t('game.sound_on') : t('game.sound_off'), 'aria-label': t('game.sound_toggle'), 'aria-pressed': on ? 'true' : 'false' },
    on: { click: () => ctrl.toggleSound() },
  }, [speakerIcon(on)]);
}

/** The trainer's other pages: puzzles, the daily one, a streak, the dashboard, the other game. */
function modes(ctrl: TrainerCtrl): VNode {
  const v = ctrl.variant;
  const link = (href: string, label: string, on: boolean, id: string) =>
    h(`a#${id}.button`, { class: { primary: on }, attrs: { href, ...(on ? { 'aria-current': 'page' } : {}) } }, label);
  return h('nav.puzzle-modes', { attrs: { 'aria-label': t('puzzle.nav') } }, [
    link(`/training/${v}`, t('puzzle.nav'), ctrl.mode.kind === 'next' || ctrl.mode.kind === 'id', 'mode-puzzles'),
    link(`/training/${v}/daily`, t('puzzle.daily'), ctrl.mode.kind === 'daily', 'mode-daily'),
    link(`/training/${v}/streak`, t('puzzle.streak'), ctrl.mode.kind === 'streak', 'mode-streak'),
    ctrl.loggedIn() ? link('/training/dashboard', t('puzzle.dashboard'), false, 'mode-dashboard') : null,
    link(`/training/${ctrl.game.other}${ctrl.mode.kind === 'daily' || ctrl.mode.kind === 'streak' ? `/${ctrl.mode.kind}` : ''}`, t(variantOf(ctrl.game.other).nameKey), false, 'mode-other'),
  ]);
}

function streakBox(ctrl: TrainerCtrl): VNode | null {
  if (ctrl.mode.kind !== 'streak') return null;
  const s = ctrl.streak;
  return h('div.streak-box', [
    h('p.muted', t('puzzle.streak_intro')),
    h('p.streak-scores', [
      h('strong#streak-score', t('puzzle.streak_score', { n: s?.score ?? 0 })),
      ' · ',
      h('span#streak-best', t('puzzle.streak_best', { n: ctrl.bestStreak() })),
    ]),
  ]);
}

function status(ctrl: TrainerCtrl): VNode {
  const p = ctrl.puzzle;
  const lines = (): (string | VNode)[] => {
    switch (ctrl.phase) {
      case 'loading': return [t('page.loading')];
      case 'play': return [
        ...(ctrl.line.length > 1 ? [h('span.puzzle-good-words', `✓ ${t('puzzle.keep_going')}`), h('br')] : []),
        h('strong', t(ctrl.solver() === 'white' ? 'puzzle.your_turn_white' : 'puzzle.your_turn_black')),
      ];
      case 'answer': return [h('span.puzzle-good-words', `✓ ${t('puzzle.keep_going')}`), h('br'), t('puzzle.answering')];
      case 'saving': return [t('puzzle.saving')];
      case 'solved': return [
        h('strong.puzzle-solved', `✓ ${t('puzzle.solved')}`),
        // How the line ends (a mate, a breakthrough, a king frozen by the Ice Age).
        ...(ctrl.pos?.result && ctrl.solution && ctrl.shown === ctrl.solution.length - 1 ? [h('br'), h('span#puzzle-end', resultReason(ctrl.pos.result))] : []),
      ];
      case 'failed': return [
        h('strong.puzzle-failed', `✗ ${t('puzzle.failed')}`),
        ...(ctrl.wrong && p ? [h('br'), h('span#puzzle-wrong', t('puzzle.you_played', { move: ctrl.wrong, best: p.solution[ctrl.line.length - 2] ?? '' }))] : []),
      ];
      case 'none_left': return [ctrl.mode.kind === 'streak' ? t('puzzle.streak_empty') : ctrl.theme === 'mix' ? t('puzzle.none_left_all') : t('puzzle.none_left')];
      case 'not_found': return [h('strong', t('puzzle.notfound_title')), h('br'), t('puzzle.notfound')];
      case 'error': return [];
    }
  };
  return h('div#puzzle-status.status', {
    class: { over: ended(ctrl), solved: ctrl.phase === 'solved', failed: ctrl.phase === 'failed' },
    attrs: { 'aria-live': 'polite', 'data-phase': ctrl.phase },
  }, lines());
}

/** After the attempt: the buttons, and in a streak how it ended. */
function verdict(ctrl: TrainerCtrl): VNode | null {
  const p = ctrl.puzzle;
  if (!p || !ended(ctrl)) return null;
  const s = ctrl.streak;
  const streakWords = ctrl.mode.kind === 'streak' && s?.over
    ? [h('p#streak-over.streak-over', ctrl.phase === 'solved' ? t('puzzle.streak_done', { n: s.score }) : t('puzzle.streak_over', { n: s.score })),
      s.record ? h('p#streak-record.muted', t('puzzle.streak_record')) : null]
    : [];
  // The analysis board seen from the solver's side, as the puzzle was.
  const analyse = `/analysis/${ctrl.variant}?fen=${encodeURIComponent(p.fen)}${ctrl.solver() === 'black' ? '&orientation=black' : ''}`;
  const nextLabel = ctrl.mode.kind === 'streak' ? (s?.over ? t('puzzle.streak_again') : t('puzzle.next')) : t('puzzle.next');
  return h('div#puzzle-over.game-over', {
    // On a phone the panel is below the board: the verdict and its buttons are brought into
    // sight when the attempt ends (as little scroll as that takes, the board kept above).
    hook: { insert: v => requestAnimationFrame(() => inSight(v.elm as HTMLElement)) },
  }, [
    ...streakWords,
    h('div.actions', [
      h('button#puzzle-solution', { attrs: { type: 'button', disabled: !ctrl.solution || ctrl.playing }, on: { click: () => ctrl.viewSolution() } }, t('puzzle.view_solution')),
      h('a#puzzle-analyse.button', { attrs: { href: analyse } }, t('puzzle.analyse')),
      h('button#puzzle-next.primary', { attrs: { type: 'button' }, on: { click: () => ctrl.next() } }, nextLabel),
    ]),
  ]);
}

/** Scrolls the page, when the verdict `el` is not whole in sight, so that it is, with the
 * rating's change below it when there is room, the verdict's words above kept in sight. */
function inSight(el: HTMLElement): void {
  if (!el.isConnected) return;
  const top = (document.getElementById('puzzle-status') ?? el).getBoundingClientRect().top;
  const mine = document.getElementById('puzzle-you')?.getBoundingClientRect().bottom ?? 0;
  const bottom = Math.max(el.getBoundingClientRect().bottom, mine) + 8;
  if (top >= 0 && bottom <= window.innerHeight) return;
  window.scrollBy({ top: top < 0 ? top - 8 : Math.min(bottom - window.innerHeight, top - 8), behavior: 'instant' });
}

/** A sentence with a link set in it where `MARK` stands. */
function withLink(sentence: string, link: VNode): (string | VNode)[] {
  const [before, after = ''] = sentence.split(MARK);
  return [before, link, after].filter(x => x !== '');
}

const MARK = '\u0000';

/** The player's puzzle rating, and its change after a rated attempt. */
function ratingBox(ctrl: TrainerCtrl): VNode | null {
  const p = ctrl.puzzle;
  if (!p || ctrl.mode.kind === 'streak') return null;
  const r = ctrl.result?.rating ?? null;
  const logged = ctrl.loggedIn();
  const rating = r ? r.after : logged ? p.you?.rating ?? 1500 : Math.round(sessionRating(ctrl.variant)?.rating ?? 1500);
  const diff = r ? r.after - r.before : null;
  const note = ended(ctrl) && ctrl.result && !r
    ? h('p#puzzle-unrated.muted', ctrl.rated ? t('puzzle.unrated_again') : t('puzzle.unrated'))
    // An account's second attempt is never rated: said before it begins.
    : !ended(ctrl) && ctrl.rated && p.you?.attempted ? h('p#puzzle-tried.muted', t('puzzle.tried'))
    : null;
  return h('div#puzzle-you.puzzle-you', [
    h('p', [
      h('span#my-puzzle-rating', { attrs: { 'data-rating': rating } }, t(logged ? 'puzzle.your_rating' : 'puzzle.session_rating', { n: rating })),
      diff !== null ? h('strong#puzzle-rating-diff.rating-diff', { class: { up: diff > 0, down: diff < 0 }, attrs: { title: t('puzzle.change'), 'data-diff': diff } }, ` ${shownDiff(diff)}`) : null,
    ]),
    note,
    // A guest's rating lasts the visit: logging in keeps one from then on.
    logged ? null : h('p#puzzle-login-note.muted.small.puzzle-login', withLink(t('puzzle.session_note', { login: MARK }), h('a#puzzle-login.button', { attrs: { href: loginHref() } }, t('puzzle.login')))),
  ]);
}

/** The hint in the page's language: the seeds' worked examples have theirs in every language;
 *  a mined puzzle's hint is the server's text. */
function hintText(id: string, hint: string): string {
  const key = `puzzle.seed_hint.${id}`;
  return SEED_HINTS.includes(key) ? t(key as Key) : hint;
}

const SEED_HINTS = ['puzzle.seed_hint.seed-1', 'puzzle.seed_hint.seed-2', 'puzzle.seed_hint.seed-3'];

/** The puzzle's facts: rating (after the attempt), plays, length, themes, hint and source. */
function about(ctrl: TrainerCtrl): VNode | null {
  const p = ctrl.puzzle;
  if (!p) return null;
  const done = ended(ctrl);
  const plays = ctrl.result?.puzzle.plays ?? p.plays;
  const rating = ctrl.result?.puzzle.rating ?? p.rating;
  const src = p.source;
  return h('div#puzzle-about.puzzle-about', [
    h('p', [
      h('span#puzzle-rating', { attrs: done ? { 'data-rating': rating } : {} }, done ? t('puzzle.rating', { n: rating }) : t('puzzle.rating_hidden')),
      h('br'),
      h('span#puzzle-plays.muted', `${t('puzzle.plays', { n: plays })} · ${t('puzzle.length', { n: p.length })}`),
    ]),
    // The themes tell the answer: shown once the attempt ended, as on lichess.
    done && p.themes.length ? h('div#puzzle-themes', [
      h('h2', t('puzzle.themes')),
      h('ul.puzzle-themes', p.themes.map(th => h('li', { attrs: { 'data-theme': th } }, [
        h('strong', themeName(ctrl.variant, th)), themeAbout(ctrl.variant, th) ? h('span.muted', ` — ${themeAbout(ctrl.variant, th)}`) : null,
      ]))),
    ]) : null,
    p.hint ? h('div.puzzle-hint', [
      h('button#puzzle-hint', { attrs: { type: 'button', 'aria-expanded': ctrl.hintOpen ? 'true' : 'false' }, on: { click: () => ctrl.toggleHint() } }, t('puzzle.hint')),
      ctrl.hintOpen || done ? h('p#puzzle-hint-text.notice', hintText(p.id, p.hint)) : null,
    ]) : null,
    src ? h('p#puzzle-source.muted', { attrs: { 'data-game': src.game } }, [
      ...sourceWords(src),
      // Whether the game's player found the win tells whether its move was the answer.
      done && src.seen ? ` · ${t(src.seen === 'found' ? 'puzzle.seen_found' : 'puzzle.seen_missed')}` : '',
    ]) : null,
  ]);
}

/** Where the puzzle comes from: a game of the engine against itself, or a game, linked when
 * public ("From a game" leads to it). */
function sourceWords(src: PuzzleSource): (string | VNode)[] {
  const n = Math.floor(src.ply / 2) + 1;
  if (src.game.startsWith('selfplay:')) return [t('puzzle.source_selfplay', { n })];
  const words = t('puzzle.source_game', { n, game: MARK });
  return src.url ? withLink(words, h('a#puzzle-source-link', { attrs: { href: src.url } }, t('puzzle.source_from'))) : [words.replace(MARK, t('puzzle.source_from'))];
}

/** The move number and dots of node `i` of a line from the puzzle's position. */
function numbered(ctrl: TrainerCtrl, i: number, node: LineNode): string {
  const first = ctrl.solver();
  const mover = (i % 2 === 1) === (first === 'white') ? 'white' : 'black';
  // White's moves before this one, counted from the puzzle's position.
  const n = ctrl.startNumber + (first === 'white' ? Math.floor((i - 1) / 2) : Math.floor(i / 2));
  const text = node.move?.text ?? '';
  if (mover === 'white') return `${n}. ${text}`;
  return i === 1 ? `${n}… ${text}` : text;
}

/** The solution's moves, once the attempt ended: a click shows the position after one. */
function solutionMoves(ctrl: TrainerCtrl): VNode | null {
  const line = ctrl.solution;
  if (!line || !ended(ctrl)) return null;
  return h('div.puzzle-line', [
    h('h2', t('puzzle.solution_words')),
    h('div#puzzle-moves.moves', line.slice(1).map((node, k) => {
      const i = k + 1;
      return h('button.move', {
        class: { current: i === ctrl.shown, solver: i % 2 === 1 },
        attrs: { type: 'button', 'data-index': i, 'aria-current': i === ctrl.shown ? 'true' : 'false' },
        on: { click: () => ctrl.go(i) },
      }, numbered(ctrl, i, node));
    })),
  ]);
}

/** Stepping through the solution, and the board's flip. */
function browse(ctrl: TrainerCtrl): VNode {
  const line = ctrl.solution;
  const at = ctrl.shown;
  const step = (label: string, id: string, icon: string, to: number, off: boolean) =>
    h(`button#${id}.icon`, { attrs: { type: 'button', title: label, 'aria-label': label, disabled: off }, on: { click: () => ctrl.go(to) } }, icon);
  const last = line ? line.length - 1 : 0;
  return h('div.browse.puzzle-nav', [
    ...(line && ended(ctrl) ? [
      step(t('game.first'), 'nav-first', '|◀', 0, at === 0),
      step(t('game.prev'), 'nav-prev', '◀', at - 1, at === 0),
      step(t('game.next'), 'nav-next', '▶', at + 1, at >= last),
      step(t('analysis.line_end'), 'nav-last', '▶|', last, at >= last),
    ] : []),
    h('button#flip', { attrs: { type: 'button' }, on: { click: () => ctrl.flip() } }, t('game.flip')),
  ]);
}

/** The theme (one, or the mix) with its count, and the rated switch. */
function choices(ctrl: TrainerCtrl): VNode | null {
  if (ctrl.mode.kind === 'streak') return null;
  const counts = new Map((ctrl.themes?.themes ?? []).map(x => [x.theme, x.count]));
  const names = [...THEMES[ctrl.variant], ...[...counts.keys()].filter(x => !THEMES[ctrl.variant].includes(x))];
  const label = (name: string, n: number | undefined) => n === undefined ? name : t('puzzle.theme_count', { theme: name, n });
  const about = ctrl.theme !== 'mix' ? themeAbout(ctrl.variant, ctrl.theme) : '';
  return h('div.puzzle-choices', [
    h('label.puzzle-theme', { attrs: { for: 'puzzle-theme' } }, t('puzzle.theme')),
    h('select#puzzle-theme', {
      on: { change: (e: Event) => ctrl.setTheme((e.target as HTMLSelectElement).value) },
    }, [
      h('option', { attrs: { value: 'mix' }, props: { selected: ctrl.theme === 'mix' } }, label(t('puzzle.mix'), ctrl.themes?.total)),
      ...names.map(name => h('option', { attrs: { value: name, disabled: counts.get(name) === 0 }, props: { selected: ctrl.theme === name } }, label(themeName(ctrl.variant, name), counts.get(name)))),
    ]),
    about ? h('p#puzzle-theme-about.muted.small', about) : null,
    h('label#puzzle-rated-box.choice.switch', { attrs: { title: t('puzzle.rated_title') } }, [
      h('input#puzzle-rated', {
        attrs: { type: 'checkbox', disabled: ctrl.phase === 'answer' || ctrl.phase === 'saving' || (ctrl.phase === 'play' && ctrl.line.length > 1) },
        props: { checked: ctrl.rated },
        on: { change: (e: Event) => ctrl.setRated((e.target as HTMLInputElement).checked) },
      }),
      ' ', t('puzzle.rated'),
    ]),
  ]);
}
