// The rules of both games for players: prose with board pictures, the decision numbers as small
// badges that link to the exact ruling (`/rules/antarctos#a9`, in the list of rulings at the end,
// read at build time from docs/rules/<game>.md or its translation in the page's language), and the
// seeds' worked examples to step through.

import { api } from '../api';
import { Board } from '../board';
import { h, mount } from '../dom';
import { errorWords, lang, t } from '../i18n';
import { navigate } from '../nav';
import { examples, type Diagram, type Example, type RuleSection } from '../rules_content';
import { setTitle } from '../title';
import decisions, { type Decision } from 'virtual:decisions';
import { variantOf, variantOr } from '../variants';

/** A small board showing `d`, with its caption. */
function diagramView(d: Diagram, boards: Board[]): HTMLElement {
  const el = h('div.cg-wrap');
  // chessgroundx measures its element: the board is made once the page holds it.
  requestAnimationFrame(() => {
    if (!el.isConnected) return;
    const board = new Board(el, d.variant, { move: () => undefined }, true);
    board.show(d.fen, { legal: [], movable: null, marks: new Map(Object.entries(d.marks ?? {}).map(([sq, c]) => [sq, [c]])) });
    board.cg.setAutoShapes((d.arrows ?? []).map(([orig, dest]) => ({ orig: orig as never, dest: dest as never, brush: 'green' })));
    boards.push(board);
  });
  const caption = d.caption[lang()];
  return h('figure.diagram', { 'data-fen': d.fen },
    h('div.board-box.small', { role: 'img', 'aria-label': caption }, el),
    h('figcaption', caption));
}

function sectionView(s: RuleSection, boards: Board[]): HTMLElement {
  const paragraphs = s.paragraphs.map(p => h('p',
    p.text[lang()], ' ',
    ...p.decisions.map(d => h('a.decision', { href: `#${d.toLowerCase()}`, title: t('rules.decision_link', { id: d }) }, d))));
  return h('section.rules-section', { id: `rules-${s.id}` },
    h('div.rules-text', h('h3', s.heading[lang()]), ...paragraphs),
    s.diagram ? diagramView(s.diagram, boards) : null);
}

/** A ruling's Markdown inline text: `code` as code, the rest as it reads. */
function inline(text: string): (string | HTMLElement)[] {
  return text.split(/(`[^`]*`)/).filter(Boolean).map(part =>
    part.startsWith('`') && part.endsWith('`') ? h('code', part.slice(1, -1)) : part.replace(/\*+/g, ''));
}

/** The exact rulings (the project's specification: English, or its Russian or Turkish
 * translation in the page's language), folded: a decision badge, or a link to `#a10`, unfolds the
 * list and shows its ruling. The list is made when it unfolds. */
function rulingsView(list: Decision[]): HTMLElement {
  const dl = h('dl');
  const view = h('details.rulings#rulings', { 'data-ids': list.map(d => d.id.toLowerCase()).join(' ') },
    h('summary', h('h2', t('rules.rulings'))),
    h('p.muted.small', t('rules.rulings_note')),
    dl);
  const fill = () => {
    if (dl.firstChild) return;
    mount(dl, ...list.flatMap(d => [
      h('dt', { id: d.id.toLowerCase() }, d.id),
      h('dd', { lang: lang() }, ...inline(d.text)),
    ]));
  };
  view.addEventListener('toggle', fill);
  (view as HTMLElement & { fill?: () => void }).fill = fill;
  return view;
}

/** Unfolds the rulings and shows the one `location.hash` names, if it names one. */
function showRuling(): void {
  const id = decodeURIComponent(location.hash.slice(1));
  const rulings = document.getElementById('rulings') as (HTMLDetailsElement & { fill?: () => void }) | null;
  if (!id || !rulings || !rulings.dataset.ids?.split(' ').includes(id)) return;
  rulings.fill?.();
  rulings.open = true;
  document.getElementById(id)?.scrollIntoView();
}

function exampleView(ex: Example, index: number, boards: Board[]): HTMLElement {
  let step = 0;
  const boardEl = h('div.cg-wrap');
  const note = h('p.example-note', { 'aria-live': 'polite' });
  const counter = h('span.muted');
  const moves = h('ol.example-moves');
  const prev = h('button', { type: 'button', 'data-action': 'prev', onclick: () => go(step - 1) }, t('rules.prev')) as HTMLButtonElement;
  const next = h('button.primary', { type: 'button', 'data-action': 'next', onclick: () => go(step + 1) }, t('rules.next')) as HTMLButtonElement;
  const error = h('p.error');
  const board = new Board(boardEl, ex.variant, { move: () => undefined });
  boards.push(board);

  function go(n: number): void {
    step = Math.max(0, Math.min(ex.steps.length, n));
    const s = step > 0 ? ex.steps[step - 1] : null;
    board.show(s ? s.fen : ex.fen, { legal: [], movable: null, lastMove: s?.path });
    note.textContent = s ? s.note[lang()] : ex.intro[lang()];
    counter.textContent = t('rules.step', { n: step, total: ex.steps.length });
    prev.disabled = step === 0;
    next.disabled = step === ex.steps.length;
    // The Antarctos examples end the game: there is nothing to play from their last position.
    playFrom.disabled = !variantOf(ex.variant).examplesPlayOn && step === ex.steps.length;
    mount(moves, ...ex.steps.map((st, i) => h('li', { class: i < step ? 'done' : undefined }, st.move)));
    boardEl.parentElement?.classList.toggle('ice-age', variantOf(ex.variant).iceAges && step > 0);
  }

  const playFrom: HTMLButtonElement = h('button', {
    type: 'button',
    onclick: async () => {
      const s = step > 0 ? ex.steps[step - 1] : null;
      try {
        const game = await api.createGame({ variant: ex.variant, opponent: 'local', color: 'white', fen: s ? s.fen : ex.fen });
        navigate(`/game/${game.id}`);
      } catch (err) {
        error.textContent = errorWords(err);
      }
    },
  }, t('rules.play_from')) as HTMLButtonElement;

  const view = h('div.example', { id: `example-${index + 1}`, 'data-variant': ex.variant },
    h('div.board-box.small', boardEl),
    h('div.example-text',
      h('h3', ex.title[lang()]),
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

export function rulesPage(root: HTMLElement, which?: string): () => void {
  const boards: Board[] = [];
  const game = variantOr(which);
  const variant = game.key;
  const name = t(`game.${variant}` as 'game.antarctos');
  setTitle(`${t('rules.title')} · ${name}`);
  document.body.dataset.theme = variant;
  const tab = (v: 'antarctos' | 'iceage') =>
    h('a.tab', { href: `/rules/${v}`, class: variant === v ? 'active' : undefined, 'aria-current': variant === v ? 'page' : undefined }, t(`game.${v}` as 'game.antarctos'));
  const sections = game.rulesSections;
  const intro = game.rulesIntro[lang()];
  const exs = examples.map((e, i) => [e, i] as const).filter(([e]) => e.variant === variant);
  mount(root,
    h('section.card.rules', { 'data-variant': variant },
      h('h1', t('rules.title')),
      h('nav.tabs', tab('antarctos'), tab('iceage')),
      h('h2', name),
      h('p.lead', intro),
      h('p.muted.small', t('rules.decisions')),
      ...sections.map(s => sectionView(s, boards)),
      h('h2', t('rules.examples')),
      ...exs.map(([e, i]) => exampleView(e, i, boards)),
      rulingsView(decisions[variant][lang()]),
    ),
  );
  // A link to a decision (`#c6`) lands on its ruling once the page is drawn; so does a badge.
  if (location.hash) requestAnimationFrame(showRuling);
  window.addEventListener('hashchange', showRuling);
  return () => {
    window.removeEventListener('hashchange', showRuling);
    boards.forEach(b => b.destroy());
    delete document.body.dataset.theme;
  };
}
