// The board editor (issue 14): `/editor/<game>?fen=...`. Pick a tool (a man, a piece, ice, the
// eraser) and click squares; set the side to move and, for Ice Age Chess, castling rights, the
// en-passant square and the move number (which sets the Ice Age countdown, C5). The position
// text follows every change and a typed text redraws the board; the server judges the position
// (`POST /api/positions`) and its refusal is worded in the page's language (position_words.ts).
// From here: Analyse, play the computer, play a friend. Writing position text is notation, not a
// rule.

import { api, ApiError, type Color, type Variant } from '../api';
import { Board, parseAntarctosFen } from '../board';
import { h, mount } from '../dom';
import { colorName, errorWords, t } from '../i18n';
import { navigate } from '../nav';
import { positionFaultWords } from '../position_words';
import { setTitle } from '../title';
import { START_FEN } from './analysis';

/** What a square holds in the editor: a chess piece letter (`P`, `n`), `*` for ice in either
 * game, or `W` / `B` for an Antarctos man. */
type Cell = string;

interface Setup {
  cells: Map<string, Cell>;
  turn: Color;
  /** Ice Age Chess only. */
  castling: string;
  ep: string;
  halfmove: number;
  fullmove: number;
}

const FILES = 'abcdefgh';

/** Reads position text into the editor's setup, as far as it can be read (the server judges it). */
function readSetup(variant: Variant, fen: string): Setup {
  const cells = new Map<string, Cell>();
  if (variant === 'antarctos') {
    const { turn, squares } = parseAntarctosFen(fen);
    for (const [sq, o] of squares) cells.set(sq, o === 'white' ? 'W' : o === 'black' ? 'B' : '*');
    return { cells, turn, castling: '-', ep: '-', halfmove: 0, fullmove: 1 };
  }
  const [board = '', turn = 'w', castling = '-', ep = '-', half = '0', full = '1'] = fen.trim().split(/\s+/);
  board.split('/').forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) file += Number(ch);
      else {
        if (file < 8) cells.set(`${FILES[file]}${8 - i}`, ch);
        file++;
      }
    }
  });
  return { cells, turn: turn === 'b' ? 'black' : 'white', castling, ep, halfmove: Number(half) || 0, fullmove: Number(full) || 1 };
}

/** Writes the setup as the game's position text (Antarctos A18, Ice Age Chess C12). */
function writeSetup(variant: Variant, s: Setup): string {
  if (variant === 'antarctos') {
    const list = (c: Cell) => [...s.cells].filter(([, v]) => v === c).map(([sq]) => sq).sort((a, b) => a[1].localeCompare(b[1]) || a.localeCompare(b)).join(',');
    const ice = list('*');
    return `${s.turn === 'white' ? 'W' : 'B'}:W${list('W')}:B${list('B')}${ice ? `:I${ice}` : ''}`;
  }
  const rows: string[] = [];
  for (let rank = 8; rank >= 1; rank--) {
    let row = '';
    let empty = 0;
    for (const file of FILES) {
      const c = s.cells.get(`${file}${rank}`);
      if (!c) {
        empty++;
        continue;
      }
      if (empty) row += String(empty);
      empty = 0;
      row += c;
    }
    if (empty) row += String(empty);
    rows.push(row);
  }
  return `${rows.join('/')} ${s.turn === 'white' ? 'w' : 'b'} ${s.castling || '-'} ${s.ep || '-'} ${s.halfmove} ${s.fullmove}`;
}

/** The tools of each game: a label and the cell it places (`''` erases). */
function tools(variant: Variant): [string, Cell][] {
  if (variant === 'antarctos') {
    return [[t('editor.white_man'), 'W'], [t('editor.black_man'), 'B'], [t('editor.ice'), '*'], [t('editor.erase'), '']];
  }
  const glyphs = { white: '♔♕♖♗♘♙', black: '♚♛♜♝♞♟' };
  const out: [string, Cell][] = [];
  for (const c of ['white', 'black'] as const) {
    [...'kqrbnp'].forEach((p, i) => out.push([`${colorName(c)} ${glyphs[c][i]}`, c === 'white' ? p.toUpperCase() : p]));
  }
  out.push([t('editor.ice'), '*'], [t('editor.erase'), '']);
  return out;
}

export function editorPage(root: HTMLElement, variant?: string): () => void {
  const v: Variant = variant === 'iceage' ? 'iceage' : 'antarctos';
  const given = new URLSearchParams(location.search).get('fen')?.trim();
  let setup = readSetup(v, given || START_FEN[v]);
  let tool: Cell = v === 'antarctos' ? 'W' : 'P';
  let closed = false;
  let checkSeq = 0;
  let valid = false;
  let judged = ''; // the position text last sent to the server

  const boardEl = h('div.cg-wrap');
  const fenInput = h('input#editor-fen', { type: 'text', spellcheck: 'false', autocomplete: 'off', 'aria-label': t('analysis.position') }) as HTMLInputElement;
  const verdict = h('p#editor-verdict', { role: 'status' });
  const turnBox = h('div.choices#editor-turn', { role: 'radiogroup' });
  const castling = h('input#editor-castling', { type: 'text', spellcheck: 'false', size: 4, 'aria-label': t('editor.castling') }) as HTMLInputElement;
  const ep = h('input#editor-ep', { type: 'text', spellcheck: 'false', size: 3, 'aria-label': t('editor.ep') }) as HTMLInputElement;
  const fullmove = h('input#editor-move', { type: 'number', min: 1, max: 9999, 'aria-label': t('editor.move_number') }) as HTMLInputElement;
  const actions = h('div.actions#editor-actions');
  let board: Board | null = null;

  const fen = () => writeSetup(v, setup);

  /** Redraws everything from `setup`, and asks the server whether the position is possible. */
  function draw(fromText = false): void {
    // A typed text is judged as typed (the board shows what of it could be read).
    const text = fromText ? fenInput.value.trim() : fen();
    if (!fromText) fenInput.value = text;
    board ??= new Board(boardEl, v, { move: () => undefined, select: sq => place(sq) });
    board.show(fen(), { legal: [], movable: null });
    mount(turnBox, ...(['white', 'black'] as const).map(c => h('label.choice',
      h('input', { type: 'radio', name: 'editor-turn', value: c, checked: setup.turn === c, onchange: () => { setup.turn = c; draw(); } }),
      h('span', t(c === 'white' ? 'turn.white' : 'turn.black')))));
    castling.value = setup.castling;
    ep.value = setup.ep;
    fullmove.value = String(setup.fullmove);
    if (text === judged) return;
    judged = text;
    const seq = ++checkSeq;
    valid = false;
    drawActions();
    api.position(v, text).then(
      pos => {
        if (closed || seq !== checkSeq) return;
        valid = !pos.result;
        verdict.className = pos.result ? 'muted' : 'ok';
        verdict.textContent = pos.result ? t('editor.over') : `${t('editor.possible')} ${pos.ice_age_in ? `❄ ${t('analysis.ice_age_in', { n: pos.ice_age_in })}` : ''}`.trim();
        drawActions();
      },
      err => {
        if (closed || seq !== checkSeq) return;
        verdict.className = 'error';
        mount(verdict, err instanceof ApiError && err.code === 'bad_request'
          ? [t('editor.impossible'), ' ', h('span#editor-why', positionFaultWords(err))]
          : [errorWords(err)]);
      },
    );
  }

  function place(sq: string): void {
    if (tool) setup.cells.set(sq, tool);
    else setup.cells.delete(sq);
    draw();
  }

  // Made once and updated in place: a redraw between a button's press and its release (the
  // text box's change event on blur) must not swallow the click.
  const analyseLink = h('a.button.primary#editor-analyse', { href: '#' }, t('editor.analyse'));
  const engineLink = h('a.button#editor-engine', { href: '#' }, t('editor.play_engine'));
  const friendLink = h('a.button#editor-friend', { href: '#' }, t('editor.play_friend'));
  mount(actions, analyseLink, engineLink, friendLink);

  function drawActions(): void {
    const text = fenInput.value.trim() || fen();
    const q = (opponent: string) => `/?variant=${v}&opponent=${opponent}&fen=${encodeURIComponent(text)}`;
    analyseLink.setAttribute('href', `/analysis/${v}?fen=${encodeURIComponent(text)}`);
    engineLink.setAttribute('href', q('engine'));
    friendLink.setAttribute('href', q('friend'));
    for (const a of [analyseLink, engineLink, friendLink]) {
      a.classList.toggle('disabled', !valid);
      if (valid) a.removeAttribute('aria-disabled');
      else a.setAttribute('aria-disabled', 'true');
    }
  }

  const toolButtons = tools(v).map(([label, cell]) => h('button.tool', {
    type: 'button',
    'data-tool': cell || 'erase',
    'aria-pressed': cell === tool ? 'true' : 'false',
    onclick: (e: Event) => {
      tool = cell;
      for (const b of toolButtons) b.setAttribute('aria-pressed', b === e.currentTarget ? 'true' : 'false');
    },
  }, label));

  fenInput.addEventListener('change', () => {
    setup = readSetup(v, fenInput.value);
    draw(true);
  });
  castling.addEventListener('change', () => { setup.castling = castling.value.trim() || '-'; draw(); });
  ep.addEventListener('change', () => { setup.ep = ep.value.trim() || '-'; draw(); });
  fullmove.addEventListener('change', () => { setup.fullmove = Math.max(1, Math.floor(Number(fullmove.value) || 1)); draw(); });

  setTitle(`${t('editor.title')} · ${t(v === 'antarctos' ? 'game.antarctos' : 'game.iceage')}`);
  document.body.dataset.theme = v;
  mount(root,
    h('section.game.editor',
      h('div.board-col', h('div.board-box', boardEl)),
      h('aside.panel',
        h('h1#editor-title', `${t('editor.title')} · ${t(v === 'antarctos' ? 'game.antarctos' : 'game.iceage')}`),
        h('p.muted', t('editor.hint')),
        h('div.tools#editor-tools', ...toolButtons),
        h('div.actions',
          h('button#editor-clear', { type: 'button', onclick: () => { setup.cells.clear(); draw(); } }, t('editor.clear')),
          h('button#editor-start', { type: 'button', onclick: () => { setup = readSetup(v, START_FEN[v]); draw(); } }, t('editor.start')),
          h('a.button#editor-other', { href: `/editor/${v === 'antarctos' ? 'iceage' : 'antarctos'}`, onclick: (e: Event) => { e.preventDefault(); navigate(`/editor/${v === 'antarctos' ? 'iceage' : 'antarctos'}`); } },
            t(v === 'antarctos' ? 'game.iceage' : 'game.antarctos'))),
        h('fieldset', h('legend', t('editor.turn')), turnBox),
        h('div.editor-chess', { hidden: v !== 'iceage' },
          h('label.kbd', h('span', t('editor.castling')), castling),
          h('label.kbd', h('span', t('editor.ep')), ep),
          h('label.kbd', h('span', t('editor.move_number')), fullmove)),
        h('label.kbd', h('span', t('analysis.position')), fenInput),
        verdict,
        actions)));
  draw();
  return () => {
    closed = true;
    delete document.body.dataset.theme;
    board?.destroy();
  };
}
