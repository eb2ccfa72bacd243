// One interface per game: everything the pages need to know that differs between Antarctos and
// Ice Age Chess (board geometry and move entry, position text, notation words, the Ice Age,
// the record format, the rules page). A page asks `variantOf(v)` instead of testing the name.
// None of it judges a move: the server alone does.

import type * as cg from 'chessgroundx/types';
import type { Color, Variant as VariantKey } from '../api';
import type { Key, Lang } from '../i18n';
import type { RuleSection } from '../rules_content';

/** What a square holds in the editor: a chess piece letter (`P`, `n`), `*` for ice in either
 * game, or `W` / `B` for an Antarctos man. */
export type Cell = string;

/** A position as the editor holds it. */
export interface Setup {
  cells: Map<string, Cell>;
  turn: Color;
  /** Ice Age Chess only. */
  castling: string;
  ep: string;
  halfmove: number;
  fullmove: number;
}

export interface Variant {
  readonly key: VariantKey;
  /** The other game (the pages' "other game" links). */
  readonly other: VariantKey;
  /** The game's name in the page's words. */
  readonly nameKey: Key;
  /** The home page's picture of the game, described. */
  readonly pictureKey: Key;
  /** The start position as the server writes it (Antarctos A3, Ice Age Chess C4). */
  readonly startFen: string;

  // Board geometry and move entry.
  /** The board's class: the men's board or the chess board. */
  readonly boardClass: 'antarctos' | 'chess';
  /** Whether a move is entered hop by hop (an Antarctos jump sequence) rather than
   * origin-destination. */
  readonly hops: boolean;
  /** chessgroundx's king roles (a check is shown on them). */
  readonly kingRoles: cg.Role[];
  /** Whether chessgroundx castles by moving the king onto its rook. */
  readonly autoCastle: boolean;
  /** Where a premove may go, if chessgroundx's own chess geometry does not fit. */
  readonly premoveFunc?: (board: cg.BoardState, key: cg.Key) => cg.Key[];
  /** Whether a check is shown on the board. */
  readonly showsCheck: boolean;
  /** The side to move of a position text. */
  turnOf(fen: string): Color;
  /** chessgroundx's board text for a position; ice is an `i-piece` of colour `iceColor`. */
  boardFen(fen: string, iceColor: Color): string;

  // Ice.
  /** Whether the board freezes at set times (the Ice Age's countdown and marks). */
  readonly iceAges: boolean;

  // Notation and records.
  /** Readable examples of typed moves. */
  readonly moveExamples: string[];
  /** The keyboard box's placeholder. */
  readonly kbdHintKey: Key;
  /** The record file's extension: PDN for the draughts family, PGN for chess. */
  readonly recordExt: 'pdn' | 'pgn';
  readonly downloadKey: Key;
  readonly importKey: Key;
  /** The record's own tags after the seven standard ones. */
  recordTags(startFen: string, standardStart: boolean): [string, string][];

  // The editor.
  readSetup(fen: string): Setup;
  writeSetup(s: Setup): string;
  /** The editor's tools: a label, the cell placed (`''` erases) and, where the label is a
   * glyph, the tool's name in words (its `aria-label` and tooltip). */
  editorTools(): [string, Cell, string?][];
  /** The tool picked when the editor opens. */
  readonly firstTool: Cell;
  /** Whether the editor asks for castling rights, en passant and the move number. */
  readonly chessFields: boolean;

  // The rules page.
  readonly rulesIntro: Record<Lang, string>;
  readonly rulesSections: RuleSection[];
  /** Whether a rules example's last position may still be played on (an Antarctos example
   * ends the game). */
  readonly examplesPlayOn: boolean;
}
