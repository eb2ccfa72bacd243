// Antarctos for players, in English, Russian and Turkish: what each rule means at the board,
// with pictures. The exact rulings are docs/rules/antarctos.md's decisions A1-A19; each
// paragraph names the ones it follows (shown as small anchors).

import type { RuleSection } from './rules_content';

export const antarctosIntro = {
  en: 'Antarctos is Russian checkers in a frozen wasteland: a captured man is not taken off the board but freezes into ice, and the ice is a springboard for anyone. There are no kings. The first man to reach the far row wins.',
  ru: 'Антарктос — русские шашки в ледяной пустыне: побитая шашка не снимается с доски, а замерзает и становится льдом, через который может прыгать любой. Дамок нет. Побеждает первая шашка, дошедшая до последнего ряда.',
  tr: 'Antarctos, donmuş bir çölde oynanan Rus damasıdır: alınan taş tahtadan kalkmaz, donup buza döner ve buz herkes için bir sıçrama tahtasıdır. Dama yoktur. Karşı sıraya ilk ulaşan taş kazanır.',
};

export const antarctosSections: RuleSection[] = [
  {
    id: 'board',
    heading: { en: 'The board and the men', ru: 'Доска и шашки', tr: 'Tahta ve taşlar' },
    paragraphs: [
      {
        text: {
          en: 'Play on the dark squares of an ordinary 8×8 checkers board. Each side has twelve men; White starts at the bottom and moves first.',
          ru: 'Играют на тёмных полях обычной шашечной доски 8×8. У каждой стороны двенадцать шашек; белые стоят внизу и ходят первыми.',
          tr: 'Sıradan bir 8×8 dama tahtasının koyu karelerinde oynanır. Her tarafın on iki taşı vardır; beyaz aşağıda başlar ve ilk hamleyi yapar.',
        },
        decisions: ['A1', 'A3'],
      },
      {
        text: {
          en: 'Besides the White and the Black men there is ice: it belongs to nobody and never moves. There are no kings, ever: White heads for the 8th row, Black for the 1st.',
          ru: 'Кроме белых и чёрных шашек на доске бывает лёд: он ничей и никогда не ходит. Дамок нет вовсе: белые идут к 8-му ряду, чёрные — к 1-му.',
          tr: 'Beyaz ve siyah taşların yanında buz vardır: kimseye ait değildir ve hiç oynamaz. Hiçbir zaman dama yoktur: beyaz 8. sıraya, siyah 1. sıraya ilerler.',
        },
        decisions: ['A2', 'A4'],
      },
    ],
    diagram: {
      variant: 'antarctos',
      fen: 'W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8',
      caption: { en: 'The start.', ru: 'Начальная расстановка.', tr: 'Başlangıç.' },
    },
  },
  {
    id: 'moves',
    heading: { en: 'Moving', ru: 'Ход', tr: 'Hamle' },
    paragraphs: [
      {
        text: {
          en: 'A man steps one square diagonally forward onto an empty square. It never steps backward.',
          ru: 'Шашка ходит на одно поле по диагонали вперёд, на свободное поле. Назад она простым ходом не ходит.',
          tr: 'Bir taş çapraz olarak bir kare ileriye, boş bir kareye gider. Geriye hiç adım atmaz.',
        },
        decisions: ['A5'],
      },
    ],
    diagram: {
      variant: 'antarctos',
      fen: 'W:Wc3:Bf6',
      arrows: [['c3', 'd4'], ['c3', 'b4']],
      caption: { en: 'The man on c3 may go to b4 or d4.', ru: 'Шашка с c3 может пойти на b4 или d4.', tr: 'c3\'teki taş b4\'e ya da d4\'e gidebilir.' },
      check: { from: 'W:Wc3:Bf6', moves: [] },
    },
  },
  {
    id: 'capture',
    heading: { en: 'Capturing: the captured man freezes', ru: 'Взятие: побитая шашка замерзает', tr: 'Taş alma: alınan taş donar' },
    paragraphs: [
      {
        text: {
          en: 'A man captures by jumping diagonally, forward or backward, over an enemy man next to it onto the empty square just behind. The captured man is not removed: when the turn ends it turns into ice.',
          ru: 'Шашка бьёт, перепрыгивая по диагонали, вперёд или назад, через соседнюю шашку соперника на свободное поле сразу за ней. Побитая шашка не снимается: когда ход закончен, она превращается в лёд.',
          tr: 'Bir taş, yanındaki rakip taşın üzerinden çapraz olarak, ileri ya da geri, hemen arkasındaki boş kareye atlayarak alır. Alınan taş kaldırılmaz: hamle bitince buza döner.',
        },
        decisions: ['A6', 'A8'],
      },
    ],
    diagram: {
      variant: 'antarctos',
      fen: 'B:We5:Bg7:Id4',
      arrows: [['c3', 'e5']],
      marks: { d4: 'captured' },
      caption: {
        en: 'White played c3xe5: the Black man on d4 is now ice.',
        ru: 'Белые сыграли c3:e5: чёрная шашка на d4 теперь лёд.',
        tr: 'Beyaz c3xe5 oynadı: d4\'teki siyah taş artık buz.',
      },
      check: { from: 'W:Wc3:Bd4,g7', moves: ['c3xe5'] },
    },
  },
  {
    id: 'ice',
    heading: { en: 'Jumping over ice', ru: 'Прыжок через лёд', tr: 'Buzun üzerinden atlama' },
    paragraphs: [
      {
        text: {
          en: 'Any man may jump over ice next to it, forward or backward, onto the empty square behind. The ice melts at once: its square is empty again. Starting a turn with an ice jump is your choice.',
          ru: 'Любая шашка может перепрыгнуть через соседний лёд, вперёд или назад, на свободное поле за ним. Лёд сразу тает: его поле снова свободно. Начинать ход прыжком через лёд не обязательно.',
          tr: 'Her taş yanındaki buzun üzerinden, ileri ya da geri, arkasındaki boş kareye atlayabilir. Buz hemen erir: karesi yeniden boşalır. Hamleye buz atlamasıyla başlamak isteğe bağlıdır.',
        },
        decisions: ['A7', 'A9'],
      },
    ],
    diagram: {
      variant: 'antarctos',
      fen: 'W:We3:Bh8:Id4',
      arrows: [['e3', 'c5']],
      caption: {
        en: 'e3xc5 jumps the ice on d4, which melts.',
        ru: 'e3:c5 — прыжок через лёд на d4, который тает.',
        tr: 'e3xc5, d4\'teki buzun üzerinden atlar ve buz erir.',
      },
      check: { from: 'W:We3:Bh8:Id4', moves: [] },
    },
  },
  {
    id: 'living-first',
    heading: { en: 'The living first', ru: 'Живое важнее мёртвого', tr: 'Önce canlılar' },
    paragraphs: [
      {
        text: {
          en: 'If any of your men can capture an enemy man, you must capture: no simple move and no ice jump while a capture exists.',
          ru: 'Если какая-нибудь ваша шашка может побить шашку соперника, бить обязательно: никаких простых ходов и прыжков через лёд, пока есть взятие.',
          tr: 'Taşlarınızdan biri rakip bir taşı alabiliyorsa almak zorundasınız: taş alma varken ne basit hamle ne de buz atlaması olur.',
        },
        decisions: ['A9'],
      },
      {
        text: {
          en: 'Once a man has jumped, it must go on jumping while it can: a capture if one is possible, otherwise over ice. A capture always comes before ice. When there is nothing left to jump, the turn ends.',
          ru: 'Прыгнув, шашка обязана прыгать дальше, пока может: бить, если есть кого, иначе прыгать через лёд. Взятие всегда важнее льда. Когда прыгать больше не через что, ход заканчивается.',
          tr: 'Bir taş atladıktan sonra atlayabildiği sürece devam etmek zorundadır: alabileceği bir taş varsa alır, yoksa buzun üzerinden atlar. Taş almak her zaman buzdan önce gelir. Atlanacak bir şey kalmayınca hamle biter.',
        },
        decisions: ['A10'],
      },
      {
        text: {
          en: 'Nothing is jumped twice in one turn: a captured man stays on its square until the turn ends and blocks the way back (the “Turkish strike”). The square your man started from is empty once it has left, so it may pass over it again.',
          ru: 'Ни через что нельзя прыгнуть дважды за ход: побитая шашка стоит на месте до конца хода и загораживает путь назад («турецкий удар»). Поле, с которого шашка начала ход, после её ухода свободно, и она может пройти через него снова.',
          tr: 'Bir hamlede hiçbir şeyin üzerinden iki kez atlanmaz: alınan taş hamle bitene kadar yerinde kalır ve geri dönüş yolunu kapatır (“Türk vuruşu”). Taşın başladığı kare, taş ayrılınca boşalır; taş yeniden oradan geçebilir.',
        },
        decisions: ['A8', 'A11'],
      },
    ],
    diagram: {
      variant: 'antarctos',
      fen: 'W:Wc3,g3:Bd4,h8:If4',
      arrows: [['c3', 'e5']],
      caption: {
        en: 'White must take d4 with c3xe5; the ice jump g3xe5 is not allowed while a capture exists.',
        ru: 'Белые обязаны бить d4 ходом c3:e5; прыжок через лёд g3:e5 нельзя, пока есть взятие.',
        tr: 'Beyaz c3xe5 ile d4\'ü almak zorunda; taş alma varken g3xe5 buz atlamasına izin yok.',
      },
      check: { from: 'W:Wc3,g3:Bd4,h8:If4', moves: [] },
    },
  },
  {
    id: 'end',
    heading: { en: 'Winning', ru: 'Как выиграть', tr: 'Kazanmak' },
    paragraphs: [
      {
        text: {
          en: 'You win at once when one of your men ends its turn on the far row. A man that only touches the far row in the middle of a jump sequence and has to go on does not win.',
          ru: 'Вы выигрываете сразу, как только ваша шашка заканчивает ход на последнем ряду. Шашка, которая лишь коснулась последнего ряда посреди серии прыжков и обязана прыгать дальше, не выигрывает.',
          tr: 'Taşlarınızdan biri hamlesini karşı sırada bitirdiği anda kazanırsınız. Bir atlama serisinin ortasında karşı sıraya yalnızca dokunup devam etmek zorunda kalan taş kazanmaz.',
        },
        decisions: ['A12'],
      },
      {
        text: {
          en: 'You also win when your opponent has no living men left, or cannot move on their turn. There are no draws: every turn advances a man, melts ice or freezes men, so every game ends.',
          ru: 'Вы выигрываете и тогда, когда у соперника не осталось живых шашек или ему нечем ходить. Ничьих нет: каждый ход продвигает шашку, растапливает лёд или замораживает шашки, поэтому каждая партия заканчивается.',
          tr: 'Rakibinizin hiç canlı taşı kalmadığında ya da sırası geldiğinde oynayamadığında da kazanırsınız. Beraberlik yoktur: her hamle bir taşı ilerletir, buz eritir ya da taş dondurur; bu yüzden her oyun biter.',
        },
        decisions: ['A13', 'A14', 'A15'],
      },
    ],
    diagram: {
      variant: 'antarctos',
      fen: 'W:Wc7:Bh6',
      arrows: [['c7', 'd8']],
      caption: {
        en: 'c7-d8 reaches the far row: White wins.',
        ru: 'c7-d8 — шашка на последнем ряду: белые выиграли.',
        tr: 'c7-d8 karşı sıraya ulaşır: beyaz kazanır.',
      },
      check: { from: 'W:Wc7:Bh6', moves: [] },
    },
  },
  {
    id: 'notation',
    heading: { en: 'Writing moves and positions', ru: 'Запись ходов и позиций', tr: 'Hamlelerin ve konumların yazımı' },
    paragraphs: [
      {
        text: {
          en: 'A simple move is written c3-d4; a jump sequence lists every landing square, as in d6xb4xd2xf4. You may also type c3d4, use “:” for “x”, or give only the start and the end of a jump when just one sequence fits.',
          ru: 'Простой ход записывается c3-d4, серия прыжков — через все поля приземления: d6xb4xd2xf4. Можно вводить и c3d4, и «:» вместо «x», и только начало и конец прыжка, если подходит одна серия.',
          tr: 'Basit hamle c3-d4 diye yazılır; bir atlama serisi indiği her kareyi sayar: d6xb4xd2xf4. c3d4 yazabilir, “x” yerine “:” kullanabilir ya da tek bir seri uyuyorsa yalnızca başlangıç ve bitiş karesini verebilirsiniz.',
        },
        decisions: ['A16', 'A17'],
      },
      {
        text: {
          en: 'A position is written W:Wb4,e3,f2:Bc7,d6:Ic3: the side to move, the White men, the Black men and the ice. Game records are PDN files.',
          ru: 'Позиция записывается так: W:Wb4,e3,f2:Bc7,d6:Ic3 — чей ход, белые шашки, чёрные шашки и лёд. Партии сохраняются в файлах PDN.',
          tr: 'Bir konum W:Wb4,e3,f2:Bc7,d6:Ic3 diye yazılır: sıradaki taraf, beyaz taşlar, siyah taşlar ve buz. Oyun kayıtları PDN dosyalarıdır.',
        },
        decisions: ['A18', 'A19'],
      },
    ],
  },
];
