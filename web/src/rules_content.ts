// What the rules pages show besides their prose (rules_antarctos.ts, rules_iceage.ts): the types
// of a rules section and a board diagram, and the seeds' worked examples as step-by-step
// positions, in English, Russian and Turkish. The positions were worked out from the rules; the
// browser test checks every example step and every diagram against the server's own rules
// (web/e2e/play.mjs, web/e2e/rules.mjs). This file imports nothing at run time, so the tests can
// load it on its own.

import type { Variant } from './api';
import type { Lang } from './i18n';

/** One text in each language. */
export type Text = Record<Lang, string>;

/** A board picture: a position, arrows and marked squares, and a caption. */
export interface Diagram {
  variant: Variant;
  fen: string;
  /** Arrows (from, to) drawn on the board. */
  arrows?: [string, string][];
  /** Classes per square, drawn over the board (`captured`, `frozen`, `new-ice`, `closed`). */
  marks?: Record<string, string>;
  caption: Text;
  /** The test plays `moves` from `from` and expects `fen`: the picture is the rules' own. */
  check?: { from: string; moves: string[] };
}

/** One section of a rules page: a heading, paragraphs each with the decisions they follow. */
export interface RuleSection {
  id: string;
  heading: Text;
  paragraphs: { text: Text; decisions: string[] }[];
  diagram?: Diagram;
}

export interface Step {
  /** Move text in the game's notation. */
  move: string;
  /** Squares the move visits (for the last-move highlight). */
  path: string[];
  /** Position text after the move. */
  fen: string;
  note: Text;
}

export interface Example {
  variant: Variant;
  title: Text;
  fen: string;
  intro: Text;
  steps: Step[];
}

/** The three worked examples of the Antarctos seed (antarctos.md), and the Ice Age of the
 * Ice Age Chess seed (a position built to match its description: the isolated rook on h8
 * freezes; f1, f6 and e7, closed on all four sides by pieces, stay empty). */
export const examples: Example[] = [
  {
    variant: 'antarctos',
    title: { en: 'Black begins and wins', ru: 'Чёрные начинают и выигрывают', tr: 'Siyah başlar ve kazanır' },
    fen: 'B:Wd2,d4,a5:Ba7,c7',
    intro: {
      en: 'Black offers a man: once captured it becomes ice, and the ice becomes a springboard.',
      ru: 'Чёрные отдают шашку: побитая, она становится льдом, а лёд — трамплином.',
      tr: 'Siyah bir taş verir: alınınca buza döner, buz da bir sıçrama tahtası olur.',
    },
    steps: [
      {
        move: 'c7-b6', path: ['c7', 'b6'], fen: 'W:Wd2,d4,a5:Bb6,a7',
        note: {
          en: '1... c7-b6. Now White must capture: a capture is compulsory.',
          ru: '1... c7-b6. Теперь белые обязаны бить: взятие обязательно.',
          tr: '1... c7-b6. Şimdi beyaz almak zorunda: taş almak zorunludur.',
        },
      },
      {
        move: 'a5xc7', path: ['a5', 'c7'], fen: 'B:Wd2,d4,c7:Ba7:Ib6',
        note: {
          en: '2. a5xc7, White\'s only move. The captured man on b6 turns into ice.',
          ru: '2. a5:c7 — единственный ход белых. Побитая шашка на b6 превращается в лёд.',
          tr: '2. a5xc7, beyazın tek hamlesi. b6\'da alınan taş buza döner.',
        },
      },
      {
        move: 'a7xc5xe3xc1', path: ['a7', 'c5', 'e3', 'c1'], fen: 'W:Wc7:Bc1:Id2,d4',
        note: {
          en: '2... a7xc5xe3xc1: over the ice on b6, then the men on d4 and d2 must be taken; the man stops on c1, the far row. Black wins by breakthrough.',
          ru: '2... a7:c5:e3:c1: через лёд на b6, затем обязательно бьются d4 и d2; шашка останавливается на c1, последнем ряду. Чёрные выигрывают прорывом.',
          tr: '2... a7xc5xe3xc1: b6\'daki buzun üzerinden, sonra d4 ve d2 alınmak zorunda; taş karşı sıradaki c1\'de durur. Siyah atılımla kazanır.',
        },
      },
    ],
  },
  {
    variant: 'antarctos',
    title: { en: 'White begins and wins', ru: 'Белые начинают и выигрывают', tr: 'Beyaz başlar ve kazanır' },
    fen: 'W:Wf2,e3,b4:Bd6,c7:Ic3',
    intro: {
      en: 'White gives two men away and wins with the ice they leave behind.',
      ru: 'Белые отдают две шашки и выигрывают благодаря льду, который от них остаётся.',
      tr: 'Beyaz iki taş verir ve onların bıraktığı buzla kazanır.',
    },
    steps: [
      {
        move: 'b4-c5', path: ['b4', 'c5'], fen: 'B:Wf2,e3,c5:Bd6,c7:Ic3',
        note: {
          en: '1. b4-c5. Black must capture.',
          ru: '1. b4-c5. Чёрные обязаны бить.',
          tr: '1. b4-c5. Siyah almak zorunda.',
        },
      },
      {
        move: 'd6xb4xd2xf4', path: ['d6', 'b4', 'd2', 'f4'], fen: 'W:Wf2:Bf4,c7:Ie3,c5',
        note: {
          en: '1... d6xb4xd2xf4, forced: take c5, jump the ice on c3, take e3. The captured men on c5 and e3 are now ice.',
          ru: '1... d6:b4:d2:f4, вынужденно: взять c5, перепрыгнуть лёд на c3, взять e3. Побитые шашки на c5 и e3 стали льдом.',
          tr: '1... d6xb4xd2xf4, zorunlu: c5 alınır, c3\'teki buzun üzerinden atlanır, e3 alınır. c5 ve e3\'te alınan taşlar artık buz.',
        },
      },
      {
        move: 'f2xd4xb6xd8', path: ['f2', 'd4', 'b6', 'd8'], fen: 'B:Wd8:Bf4:Ic7',
        note: {
          en: '2. f2xd4xb6xd8: over the ice on e3 and c5, then the man on c7 must be taken, landing on d8. White wins by breakthrough.',
          ru: '2. f2:d4:b6:d8: через лёд на e3 и c5, затем обязательно бьётся c7 с остановкой на d8. Белые выигрывают прорывом.',
          tr: '2. f2xd4xb6xd8: e3 ve c5\'teki buzların üzerinden, sonra c7 alınmak zorunda ve taş d8\'e iner. Beyaz atılımla kazanır.',
        },
      },
    ],
  },
  {
    variant: 'antarctos',
    title: { en: 'White begins and wins', ru: 'Белые начинают и выигрывают', tr: 'Beyaz başlar ve kazanır' },
    fen: 'W:Wc1,b2,h2:Ba3,c5:Ig3,e5,e7',
    intro: {
      en: 'White cannot reach f8: the capture on the way comes first. But that is enough.',
      ru: 'Белым не дойти до f8: взятие по дороге важнее. Но и этого хватает.',
      tr: 'Beyaz f8\'e ulaşamaz: yoldaki taş alma önce gelir. Ama bu da yeter.',
    },
    steps: [
      {
        move: 'h2xf4xd6xb4', path: ['h2', 'f4', 'd6', 'b4'], fen: 'B:Wc1,b2,b4:Ba3:Ic5,e7',
        note: {
          en: '1. h2xf4xd6xb4: ice g3, ice e5, then the man on c5 must be taken (jumping the ice on e7 to f8 would have won, but a capture comes first). Black\'s last man, on a3, cannot move: White wins.',
          ru: '1. h2:f4:d6:b4: лёд g3, лёд e5, затем обязательно бьётся шашка на c5 (прыжок через лёд e7 на f8 выиграл бы, но взятие важнее). Последней чёрной шашке на a3 некуда ходить: белые выигрывают.',
          tr: '1. h2xf4xd6xb4: g3 buzu, e5 buzu, sonra c5\'teki taş alınmak zorunda (e7 buzunun üzerinden f8\'e atlamak kazandırırdı ama taş almak önce gelir). Siyahın a3\'teki son taşı oynayamaz: beyaz kazanır.',
        },
      },
    ],
  },
  {
    variant: 'iceage',
    title: { en: 'An Ice Age, after Black\'s 20th move', ru: 'Ледниковый период после 20-го хода чёрных', tr: 'Siyahın 20. hamlesinden sonra Buz Çağı' },
    fen: 'rnbqk1*r/pppp1p*1/****pnp1/4PP2/3P4/3B4/PPP2PPP/RNBQK1NR b - - 0 20',
    intro: {
      en: 'Black is about to make its 20th move; the Ice Age follows at once.',
      ru: 'Чёрные делают свой 20-й ход; сразу за ним наступает ледниковый период.',
      tr: 'Siyah 20. hamlesini yapmak üzere; Buz Çağı hemen ardından gelir.',
    },
    steps: [
      {
        move: 'Nh5',
        path: ['f6', 'h5'],
        fen: 'rnbqk***/pppp1p**/****p1p*/****PP*n/***P****/***B****/PPP**PPP/RNBQK1NR w - - 0 21',
        note: {
          en: '20... Nh5, then the Ice Age: the lonely rook on h8 freezes, and every empty square fills with ice except f1, f6 and e7, whose four sides are closed by pieces or the edge. Black\'s king survived, so play goes on.',
          ru: '20... Кh5, затем ледниковый период: одинокая ладья на h8 замерзает, и все пустые поля заполняются льдом, кроме f1, f6 и e7, закрытых со всех четырёх сторон фигурами или краем доски. Король чёрных уцелел, игра продолжается.',
          tr: '20... Ah5, ardından Buz Çağı: h8\'deki yalnız kale donar ve her boş kare buzla dolar; yalnızca dört yanı taşlarla ya da kenarla kapalı f1, f6 ve e7 boş kalır. Siyahın şahı kurtuldu, oyun sürer.',
        },
      },
    ],
  },
];
