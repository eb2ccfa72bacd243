// Ice Age Chess: chess whose board freezes at set times (docs/rules/iceage.md, C5-C9). Moves
// are origin-destination (a promotion asks for the piece), position text is FEN with `*` for
// ice (C12), records are PGN.

import type { Color } from '../api';
import { colorName, t } from '../i18n';
import { iceageIntro, iceageSections } from '../rules_iceage';
import type { Cell, Setup, Variant } from './types';

const FILES = 'abcdefgh';

function readSetup(fen: string): Setup {
  const cells = new Map<string, Cell>();
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

function writeSetup(s: Setup): string {
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

function editorTools(): [string, Cell, string?][] {
  const glyphs = { white: '♔♕♖♗♘♙', black: '♚♛♜♝♞♟' };
  const out: [string, Cell, string?][] = [];
  for (const c of ['white', 'black'] as const) {
    // The glyph alone is small and unnamed to a screen reader: the piece's name in words too.
    (['k', 'q', 'r', 'b', 'n', 'p'] as const).forEach((p, i) => out.push([`${colorName(c)} ${glyphs[c][i]}`, c === 'white' ? p.toUpperCase() : p, `${colorName(c)} ${t(`piece.${p}`)}`]));
  }
  out.push([t('editor.ice'), '*'], [t('editor.erase'), '']);
  return out;
}

export const iceage: Variant = {
  key: 'iceage',
  other: 'antarctos',
  nameKey: 'game.iceage',
  pictureKey: 'home.iceage_picture',
  startFen: 'rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  boardClass: 'chess',
  hops: false,
  kingRoles: ['k-piece'],
  autoCastle: true,
  showsCheck: true,
  turnOf: (fen: string): Color => (fen.trim().split(/\s+/)[1] === 'b' ? 'black' : 'white'),
  // FEN's board field with `*` (ice) as an ice piece.
  boardFen: (fen, iceColor) => fen.trim().split(/\s+/)[0].replace(/\*/g, iceColor === 'white' ? 'I' : 'i'),
  iceAges: true,
  moveExamples: ['Nf3', 'exd5', 'e2e4'],
  kbdHintKey: 'game.kbd_hint_iceage',
  recordExt: 'pgn',
  downloadKey: 'game.download_pgn',
  importKey: 'analysis.import_pgn',
  recordTags: startFen => [['Variant', 'Ice Age'], ['SetUp', '1'], ['FEN', startFen]],
  readSetup,
  writeSetup,
  editorTools,
  firstTool: 'P',
  chessFields: true,
  rulesIntro: iceageIntro,
  rulesSections: iceageSections,
  examplesPlayOn: true,
};
