// Antarctos: Russian checkers on an 8×8 board with ice (docs/rules/antarctos.md). Men and kings
// move along diagonals; a jump sequence is entered hop by hop; position text is A18's
// (`W:Wb4,e3:Bc7:Ic3`), records are PDN.

import type * as cg from 'chessgroundx/types';
import type { Color } from '../api';
import { t } from '../i18n';
import { antarctosIntro, antarctosSections } from '../rules_antarctos';
import type { Cell, Setup, Variant } from './types';

/** What stands on a square of an Antarctos position. */
export type Occupant = 'white' | 'black' | 'ice';

/** Reads Antarctos position text (A18: `W:Wb4,e3:Bc7:Ic3`) into square -> occupant and side. */
export function parseAntarctosFen(fen: string): { turn: Color; squares: Map<string, Occupant> } {
  const fields = fen.trim().split(':');
  const turn: Color = fields[0]?.trim().toUpperCase() === 'B' ? 'black' : 'white';
  const squares = new Map<string, Occupant>();
  for (const field of fields.slice(1)) {
    const kind = field.trim().charAt(0).toUpperCase();
    const occupant: Occupant | undefined = kind === 'W' ? 'white' : kind === 'B' ? 'black' : kind === 'I' ? 'ice' : undefined;
    if (!occupant) continue;
    for (const sq of field.trim().slice(1).split(',')) {
      const s = sq.trim().toLowerCase().replace(/^k/, '');
      if (/^[a-h][1-8]$/.test(s)) squares.set(s, occupant);
    }
  }
  return { turn, squares };
}

/** Premove targets: the squares a step or one jump away along the man's diagonals. Only a hint
 * for queuing; whether it is played is decided by the legal list when the turn comes. */
function diagonalReach(_board: cg.BoardState, key: cg.Key): cg.Key[] {
  const f = key.charCodeAt(0) - 97;
  const r = Number(key.slice(1)) - 1;
  const out: cg.Key[] = [];
  for (const d of [1, 2]) {
    for (const [df, dr] of [[1, 1], [1, -1], [-1, 1], [-1, -1]]) {
      const nf = f + df * d, nr = r + dr * d;
      if (nf >= 0 && nf < 8 && nr >= 0 && nr < 8) out.push(`${String.fromCharCode(97 + nf)}${nr + 1}` as cg.Key);
    }
  }
  return out;
}

/** A man is the role `m-piece`; ice an `i-piece` of colour `iceColor`. */
function boardFen(fen: string, iceColor: Color): string {
  const ice = iceColor === 'white' ? 'I' : 'i';
  const { squares } = parseAntarctosFen(fen);
  const rows: string[] = [];
  for (let rank = 8; rank >= 1; rank--) {
    let row = '';
    let empty = 0;
    for (const file of 'abcdefgh') {
      const o = squares.get(`${file}${rank}`);
      if (!o) {
        empty++;
        continue;
      }
      if (empty) row += String(empty);
      empty = 0;
      row += o === 'white' ? 'M' : o === 'black' ? 'm' : ice;
    }
    if (empty) row += String(empty);
    rows.push(row);
  }
  return rows.join('/');
}

function readSetup(fen: string): Setup {
  const cells = new Map<string, Cell>();
  const { turn, squares } = parseAntarctosFen(fen);
  for (const [sq, o] of squares) cells.set(sq, o === 'white' ? 'W' : o === 'black' ? 'B' : '*');
  return { cells, turn, castling: '-', ep: '-', halfmove: 0, fullmove: 1 };
}

/** A18: side, white men, black men, then ice, each list by rank then file. */
function writeSetup(s: Setup): string {
  const list = (c: Cell) => [...s.cells].filter(([, v]) => v === c).map(([sq]) => sq).sort((a, b) => a[1].localeCompare(b[1]) || a.localeCompare(b)).join(',');
  const ice = list('*');
  return `${s.turn === 'white' ? 'W' : 'B'}:W${list('W')}:B${list('B')}${ice ? `:I${ice}` : ''}`;
}

export const antarctos: Variant = {
  key: 'antarctos',
  other: 'iceage',
  nameKey: 'game.antarctos',
  pictureKey: 'home.antarctos_picture',
  startFen: 'W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8',
  boardClass: 'antarctos',
  hops: true,
  kingRoles: [],
  autoCastle: false,
  premoveFunc: diagonalReach,
  showsCheck: false,
  turnOf: fen => parseAntarctosFen(fen).turn,
  boardFen,
  iceAges: false,
  moveExamples: ['c3-d4', 'c3xe5'],
  kbdHintKey: 'game.kbd_hint_antarctos',
  recordExt: 'pdn',
  downloadKey: 'game.download_pdn',
  importKey: 'analysis.import_pdn',
  // The start position is PDN's default for the game type: a FEN tag only when it differs.
  recordTags: (startFen, standardStart) => [['GameType', 'Antarctos'], ...(standardStart ? [] : [['FEN', startFen] as [string, string]])],
  readSetup,
  writeSetup,
  editorTools: () => [[t('editor.white_man'), 'W'], [t('editor.black_man'), 'B'], [t('editor.ice'), '*'], [t('editor.erase'), '']],
  firstTool: 'W',
  chessFields: false,
  rulesIntro: antarctosIntro,
  rulesSections: antarctosSections,
  examplesPlayOn: false,
};
