// The rules as the project plays them (shared/spec antarctos.md A1-A19, iceage.md C1-C14),
// written for players, and the seeds' worked examples as step-by-step positions. The positions
// after each step were worked out from the rules; the browser test checks every one of them
// against the server's own rules (web/e2e/play.mjs).

import type { Variant } from './api';

export interface Step {
  /** Move text in the game's notation. */
  move: string;
  /** Squares the move visits (for the last-move highlight). */
  path: string[];
  /** Position text after the move. */
  fen: string;
  note: string;
}

export interface Example {
  variant: Variant;
  title: string;
  fen: string;
  intro: string;
  steps: Step[];
}

export interface RuleSection {
  heading: string;
  items: string[];
}

export const antarctosRules: RuleSection[] = [
  {
    heading: 'Board and men',
    items: [
      'A1. An 8x8 checkers board; play is on the 32 dark squares (a1 is dark). Squares are named a1 to h8, rank 1 on White\'s side.',
      'A2. There are White men, Black men and ice. Ice is neutral: it belongs to nobody and never moves. There are no kings, ever.',
      'A3. White men start on a1 c1 e1 g1 b2 d2 f2 h2 a3 c3 e3 g3, Black men on b6 d6 f6 h6 a7 c7 e7 g7 b8 d8 f8 h8. White moves first.',
      'A4. White moves up the board towards rank 8, Black down towards rank 1. Your goal row is your opponent\'s home row.',
    ],
  },
  {
    heading: 'Moves',
    items: [
      'A5. A simple move: one square diagonally forward onto an empty square.',
      'A6. A capture: a man jumps diagonally, forward or backward, over an adjacent enemy man onto the empty square just beyond.',
      'A7. An ice jump: the same over adjacent ice. The ice melts at once: its square is empty from then on.',
      'A8. A captured man stays on its square until the turn ends, so it cannot be jumped twice (the "Turkish strike"); then it turns into ice. Nothing is jumped twice in one turn.',
      'A9. The living first: if any of your men can capture an enemy man, your turn must start with a capture. Otherwise you may make any simple move, or start a jump sequence over ice (that is optional).',
      'A10. After every jump, the man must go on: with a capture if it can make one, otherwise with an ice jump if it can, otherwise the sequence ends. A capture always beats an ice jump.',
      'A11. The square the man started from is empty once it has left, so a sequence may pass over it again.',
    ],
  },
  {
    heading: 'How the game ends',
    items: [
      'A12. Breakthrough: a man that ends its turn on its goal row wins at once. A man that only touches the goal row in the middle of a sequence does not.',
      'A13. Total freeze: when your opponent has no living men left, you win.',
      'A14. No moves: a side that cannot move on its turn loses.',
      'A15. There are no draws: every turn advances a man, melts ice or freezes men, so every game ends.',
    ],
  },
  {
    heading: 'Notation',
    items: [
      'A16. A simple move is written c3-d4, a jump sequence lists every landing square: d6xb4xd2xf4 (ice jumps and captures both use x). "#" may follow a winning turn.',
      'A17. Input also accepts ":" for "x", c3d4, the short form cb6, and a jump given by its start and end (a7xc1) when only one sequence matches.',
      'A18. Position text: W:Wb4,e3,f2:Bc7,d6:Ic3 — side to move, White men, Black men, ice.',
      'A19. Game records are PDN, with [GameType "Antarctos"].',
    ],
  },
];

export const iceageRules: RuleSection[] = [
  {
    heading: 'Board, pieces and ice',
    items: [
      'C1. Chess as in the FIDE Laws — moves, check, checkmate, castling, en passant, promotion — except where said below.',
      'C2. Ice cubes are neutral blockers: nothing moves through them (a knight jumps over them as over anything). You cannot castle through ice.',
      'C3. Either side may capture ice exactly like an enemy piece (a pawn only diagonally). Ice never attacks and never gives check.',
      'C4. The start is the usual array with ice on every square of ranks 3 to 6. So the first move of each side is a capture of ice.',
    ],
  },
  {
    heading: 'The Ice Age',
    items: [
      'C5. After every 20th Black move (the 20th, 40th, 60th ... by the move number), the Ice Age comes, before White moves again.',
      'C6. All at once: a piece of either colour with no other piece on any of the eight squares around it is frozen — removed and replaced by ice; and every empty square is filled with ice, except a square whose orthogonal neighbours (up to four; the board edge counts as closed) all hold pieces.',
      'C6a. Black\'s 20th move must itself be legal: Black\'s king may not be left attacked, whatever the Ice Age would do.',
      'C7. If a king freezes, its side loses at once; if both kings freeze, the game is drawn.',
      'C8. Otherwise White moves. Check and mate are judged after the Ice Age; frozen kings and rooks lose their castling rights.',
      'C9. The Ice Age is part of Black\'s move in the record, e.g. {Ice Age: Rh8 frozen}.',
    ],
  },
  {
    heading: 'How the game ends',
    items: [
      'C10. Checkmate, a frozen king, stalemate (a draw), the fifty-move rule (a draw: 100 half-moves with no pawn move, no capture of a piece and no piece frozen — capturing ice does not count), resignation or agreement.',
      'C11. There is no draw by repetition or by insufficient material: a lone king is frozen at the next Ice Age.',
    ],
  },
  {
    heading: 'Notation',
    items: [
      'C12. Position text is FEN with "*" for an ice cube.',
      'C13. Moves are written in SAN, capturing ice with x (hxg3); UCI (h2g3) is accepted too.',
      'C14. Game records are PGN with [Variant "Ice Age"] and the start position in [FEN].',
    ],
  },
];

/** The three worked examples of the Antarctos seed (antarctos.md), and the Ice Age of the
 * Ice Age Chess seed (a position built to match its description: the isolated rook on h8
 * freezes; f1, f6 and e7, closed on all four sides by pieces, stay empty). */
export const examples: Example[] = [
  {
    variant: 'antarctos',
    title: 'Black begins and wins',
    fen: 'B:Wd2,d4,a5:Ba7,c7',
    intro: 'Black offers a man: once captured it becomes ice, and the ice becomes a springboard.',
    steps: [
      { move: 'c7-b6', path: ['c7', 'b6'], fen: 'W:Wd2,d4,a5:Bb6,a7', note: '1... c7-b6. White must capture (A9).' },
      { move: 'a5xc7', path: ['a5', 'c7'], fen: 'B:Wd2,d4,c7:Ba7:Ib6', note: '2. a5xc7, White\'s only legal turn. The captured man on b6 turns into ice (A8).' },
      { move: 'a7xc5xe3xc1', path: ['a7', 'c5', 'e3', 'c1'], fen: 'W:Wc7:Bc1:Id2,d4', note: '2... a7xc5xe3xc1#: over the ice on b6, then the captures of d4 and d2 are compulsory (A10); the man stops on c1, Black\'s goal row. Black wins by breakthrough (A12).' },
    ],
  },
  {
    variant: 'antarctos',
    title: 'White begins and wins',
    fen: 'W:Wf2,e3,b4:Bd6,c7:Ic3',
    intro: 'White gives two men away and wins with the ice they leave behind.',
    steps: [
      { move: 'b4-c5', path: ['b4', 'c5'], fen: 'B:Wf2,e3,c5:Bd6,c7:Ic3', note: '1. b4-c5. Black must capture.' },
      { move: 'd6xb4xd2xf4', path: ['d6', 'b4', 'd2', 'f4'], fen: 'W:Wf2:Bf4,c7:Ie3,c5', note: '1... d6xb4xd2xf4, forced: take c5, jump the ice on c3, take e3. The captured men on c5 and e3 are now ice.' },
      { move: 'f2xd4xb6xd8', path: ['f2', 'd4', 'b6', 'd8'], fen: 'B:Wd8:Bf4:Ic7', note: '2. f2xd4xb6xd8#: over the ice on e3 and c5, then the capture of c7 is compulsory and lands on d8. White wins by breakthrough.' },
    ],
  },
  {
    variant: 'antarctos',
    title: 'White begins and wins',
    fen: 'W:Wc1,b2,h2:Ba3,c5:Ig3,e5,e7',
    intro: 'White cannot reach f8: the capture on the way comes first. But that is enough.',
    steps: [
      { move: 'h2xf4xd6xb4', path: ['h2', 'f4', 'd6', 'b4'], fen: 'B:Wc1,b2,b4:Ba3:Ic5,e7', note: '1. h2xf4xd6xb4#: ice g3, ice e5, then the capture of c5 is compulsory (the ice jump e7-f8 would have won, but a capture comes first, A10). Black\'s last man on a3 has no legal turn: White wins (A14).' },
    ],
  },
  {
    variant: 'iceage',
    title: 'The Ice Age after Black\'s 20th move',
    fen: 'rnbqk1*r/pppp1p*1/****pnp1/4PP2/3P4/3B4/PPP2PPP/RNBQK1NR b - - 0 20',
    intro: 'Black is about to make its 20th move; the Ice Age follows at once.',
    steps: [
      {
        move: 'Nh5',
        path: ['f6', 'h5'],
        fen: 'rnbqk***/pppp1p**/****p1p*/****PP*n/***P****/***B****/PPP**PPP/RNBQK1NR w - - 0 21',
        note: '20... Nh5, then the Ice Age: the isolated rook on h8 freezes (C6), and every empty square fills with ice except f1, f6 and e7, whose four sides are closed by pieces or the edge. Black\'s king survived, so play goes on.',
      },
    ],
  },
];
