// Rules of both games, with the seeds' worked examples playable step by step on a board.

import { api, errorText } from '../api';
import { Board } from '../board';
import { h, mount } from '../dom';
import { lang, t } from '../i18n';
import { navigate } from '../nav';
import { antarctosRules, examples, iceageRules, type Example, type RuleSection } from '../rules_content';
import { antarctosRulesRu, iceageRulesRu } from '../rules_ru';
import { antarctosRulesTr, iceageRulesTr } from '../rules_tr';

function sections(list: RuleSection[]): HTMLElement[] {
  return list.map(s => h('section.rules-section', h('h3', s.heading), h('ul', ...s.items.map(i => {
    const m = /^([AC]\d+a?)\. (.*)$/s.exec(i);
    return m ? h('li', { id: m[1].toLowerCase() }, h('b', m[1]), ' ', m[2]) : h('li', i);
  }))));
}

function exampleView(ex: Example, index: number, boards: Board[]): HTMLElement {
  let step = 0;
  const boardEl = h('div.cg-wrap');
  const note = h('p.example-note');
  const counter = h('span.muted');
  const moves = h('ul.example-moves');
  const prev = h('button', { type: 'button', 'data-action': 'prev', onclick: () => go(step - 1) }, t('rules.prev')) as HTMLButtonElement;
  const next = h('button.primary', { type: 'button', 'data-action': 'next', onclick: () => go(step + 1) }, t('rules.next')) as HTMLButtonElement;
  const error = h('p.error');
  const board = new Board(boardEl, ex.variant, { move: () => undefined });
  boards.push(board);

  function go(n: number): void {
    step = Math.max(0, Math.min(ex.steps.length, n));
    const s = step > 0 ? ex.steps[step - 1] : null;
    board.show(s ? s.fen : ex.fen, { legal: [], movable: null, lastMove: s?.path });
    note.textContent = s ? s.note : ex.intro;
    counter.textContent = t('rules.step', { n: step, total: ex.steps.length });
    prev.disabled = step === 0;
    next.disabled = step === ex.steps.length;
    // The Antarctos examples end the game: there is nothing to play from their last position.
    playFrom.disabled = ex.variant === 'antarctos' && step === ex.steps.length;
    mount(moves, ...ex.steps.map((st, i) => h('li', { class: i < step ? 'done' : undefined }, st.move)));
    boardEl.parentElement?.classList.toggle('ice-age', ex.variant === 'iceage' && step > 0);
  }

  const playFrom: HTMLButtonElement = h('button', {
    type: 'button',
    onclick: async () => {
      const s = step > 0 ? ex.steps[step - 1] : null;
      try {
        const game = await api.createGame({ variant: ex.variant, opponent: 'local', color: 'white', fen: s ? s.fen : ex.fen });
        navigate(`/game/${game.id}`);
      } catch (err) {
        error.textContent = errorText(err);
      }
    },
  }, t('rules.play_from')) as HTMLButtonElement;

  const view = h('div.example', { id: `example-${index + 1}`, 'data-variant': ex.variant },
    h('div.board-box.small', boardEl),
    h('div.example-text',
      h('h3', ex.title),
      h('code.fen', ex.fen),
      moves,
      note,
      h('div.actions', prev, next, counter),
      h('div.actions', h('button', { type: 'button', onclick: () => go(0) }, t('rules.restart')), playFrom),
      error,
    ),
  );
  requestAnimationFrame(() => go(0));
  return view;
}

const intro = {
  en: [
    'Antarctos: Icebound Checkers, a variant of Russian checkers. Numbers (A1 ...) are the project\'s decisions, where the seed text is silent or vague.',
    'Ice Age Chess, a variant by Köksal Karakus. Numbers (C1 ...) are the project\'s decisions, where the seed text is silent or vague.',
  ],
  ru: [
    'Антарктос — шашки вечных льдов, вариант русских шашек. Номера (A1 ...) — решения проекта там, где исходный текст молчит или неясен.',
    'Шахматы ледникового периода (Ice Age Chess), вариант Кёксала Каракуша. Номера (C1 ...) — решения проекта там, где исходный текст молчит или неясен.',
  ],
  tr: [
    'Antarctos: Buzlu Dama, Rus damasının bir çeşidi. Numaralar (A1 ...), kaynak metnin sustuğu ya da belirsiz kaldığı yerlerde projenin kararlarıdır.',
    'Buz Çağı Satrancı, Köksal Karakus\'un bir çeşidi. Numaralar (C1 ...), kaynak metnin sustuğu ya da belirsiz kaldığı yerlerde projenin kararlarıdır.',
  ],
};

export function rulesPage(root: HTMLElement, which?: string): () => void {
  const boards: Board[] = [];
  const tab = (v: 'antarctos' | 'iceage') =>
    h('a.tab', { href: `/rules/${v}`, class: (which ?? 'antarctos') === v ? 'active' : undefined }, t(`game.${v}` as 'game.antarctos'));
  const variant = which === 'iceage' ? 'iceage' : 'antarctos';
  const lists = { en: [antarctosRules, iceageRules], ru: [antarctosRulesRu, iceageRulesRu], tr: [antarctosRulesTr, iceageRulesTr] }[lang()];
  const list = lists[variant === 'antarctos' ? 0 : 1];
  const exs = examples.map((e, i) => [e, i] as const).filter(([e]) => e.variant === variant);
  mount(root,
    h('section.card.rules',
      h('h1', t('rules.title')),
      h('div.tabs', tab('antarctos'), tab('iceage')),
      h('p.muted', intro[lang()][variant === 'antarctos' ? 0 : 1]),
      ...sections(list),
      h('h2', t('rules.examples')),
      ...exs.map(([e, i]) => exampleView(e, i, boards)),
    ),
  );
  return () => boards.forEach(b => b.destroy());
}
