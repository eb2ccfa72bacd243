// The board editor (issue 14): `/editor/<game>?fen=...`. Pick a tool (a man, a piece, ice, the
// eraser) and click squares; set the side to move and, for Ice Age Chess, castling rights, the
// en-passant square and the move number (which sets the Ice Age countdown, C5). The position
// text follows every change and a typed text redraws the board; the engine in the browser judges
// the position (engine/client.ts, issue 42: the editor works with the server gone), or the server
// (`POST /api/positions`) on a site built without it; a refusal, the same fault as data from
// either, is worded in the page's language (position_words.ts).
// From here: Analyse, play the computer, play a friend. Writing position text is notation, not a
// rule.

import { api, ApiError, type PositionView, type Variant } from '../api';
import { EngineError, localEngine } from '../engine/client';
import { Board } from '../board';
import { h, mount } from '../dom';
import { errorWords, t } from '../i18n';
import { navigate } from '../nav';
import { positionFaultWords } from '../position_words';
import { setTitle } from '../title';
import { variantOr, type Cell } from '../variants';

/** The position's view from the engine in the browser when it runs here, else from the server;
 * a refusal of the local engine as the server's `bad_request` with the same fault. */
async function judge(variant: Variant, fen: string): Promise<PositionView> {
  const engine = await localEngine();
  if (!engine) return api.position(variant, fen);
  try {
    return await engine.view({ variant, fen });
  } catch (err) {
    if (err instanceof EngineError && !err.stopped) throw new ApiError('bad_request', err.message, 400, undefined, undefined, err.position);
    throw err;
  }
}

export function editorPage(root: HTMLElement, variant?: string): () => void {
  const game = variantOr(variant);
  const v = game.key;
  const given = new URLSearchParams(location.search).get('fen')?.trim();
  let setup = game.readSetup(given || game.startFen);
  let tool: Cell = game.firstTool;
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

  const fen = () => game.writeSetup(setup);

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
    judge(v, text).then(
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

  const toolButtons = game.editorTools().map(([label, cell, name]) => h('button.tool', {
    type: 'button',
    ...(name ? { 'aria-label': name, title: name } : {}),
    'data-tool': cell || 'erase',
    'aria-pressed': cell === tool ? 'true' : 'false',
    onclick: (e: Event) => {
      tool = cell;
      for (const b of toolButtons) b.setAttribute('aria-pressed', b === e.currentTarget ? 'true' : 'false');
    },
  }, label));

  fenInput.addEventListener('change', () => {
    setup = game.readSetup(fenInput.value);
    draw(true);
  });
  castling.addEventListener('change', () => { setup.castling = castling.value.trim() || '-'; draw(); });
  ep.addEventListener('change', () => { setup.ep = ep.value.trim() || '-'; draw(); });
  fullmove.addEventListener('change', () => { setup.fullmove = Math.max(1, Math.floor(Number(fullmove.value) || 1)); draw(); });

  setTitle(`${t('editor.title')} · ${t(game.nameKey)}`);
  document.body.dataset.theme = v;
  mount(root,
    h('section.game.editor',
      h('div.board-col', h('div.board-box', boardEl)),
      h('aside.panel',
        h('h1#editor-title', `${t('editor.title')} · ${t(game.nameKey)}`),
        h('p.muted', t('editor.hint')),
        h('div.tools#editor-tools', ...toolButtons),
        h('div.actions',
          h('button#editor-clear', { type: 'button', onclick: () => { setup.cells.clear(); draw(); } }, t('editor.clear')),
          h('button#editor-start', { type: 'button', onclick: () => { setup = game.readSetup(game.startFen); draw(); } }, t('editor.start')),
          h('a.button#editor-other', { href: `/editor/${game.other}`, onclick: (e: Event) => { e.preventDefault(); navigate(`/editor/${game.other}`); } },
            t(variantOr(game.other).nameKey))),
        h('fieldset', h('legend', t('editor.turn')), turnBox),
        h('div.editor-chess', { hidden: !game.chessFields },
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
