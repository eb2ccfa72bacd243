// Ice Age Chess for players, in English, Russian and Turkish: what each rule means at the board,
// with pictures. The exact rulings are docs/rules/iceage.md's decisions C1-C14; each paragraph
// names the ones it follows (shown as small anchors).

import type { RuleSection } from './rules_content';

export const iceageIntro = {
  en: 'Ice Age Chess, a variant by Köksal Karakus, is chess on a board full of ice cubes. Ice blocks the way but can be captured; and after every 20th Black move the Ice Age comes, refills the board and freezes lonely pieces, kings included.',
  ru: 'Шахматы ледникового периода (вариант Кёксала Каракуша) — шахматы на доске, полной кубиков льда. Лёд преграждает путь, но его можно брать; а после каждого 20-го хода чёрных наступает ледниковый период: лёд снова заполняет доску и замораживает одинокие фигуры, королей тоже.',
  tr: 'Buz Çağı Satrancı, Köksal Karakus\'un bir çeşidi, buz küpleriyle dolu bir tahtada oynanan satrançtır. Buz yolu keser ama alınabilir; siyahın her 20. hamlesinden sonra Buz Çağı gelir, tahtayı yeniden doldurur ve şahlar dahil yalnız kalan taşları dondurur.',
};

export const iceageSections: RuleSection[] = [
  {
    id: 'start',
    heading: { en: 'Chess with ice', ru: 'Шахматы со льдом', tr: 'Buzlu satranç' },
    paragraphs: [
      {
        text: {
          en: 'Every rule of chess holds: how the pieces move, check and checkmate, castling, en passant, promotion. What is new is the ice.',
          ru: 'Действуют все шахматные правила: ходы фигур, шах и мат, рокировка, взятие на проходе, превращение пешки. Новое — только лёд.',
          tr: 'Satrancın bütün kuralları geçerlidir: taşların hareketi, şah ve mat, rok, geçerken alma, terfi. Yeni olan yalnızca buzdur.',
        },
        decisions: ['C1'],
      },
      {
        text: {
          en: 'The pieces start as usual, and every square of ranks 3 to 6 holds an ice cube. So each side\'s first move captures ice.',
          ru: 'Фигуры стоят как обычно, а на каждом поле с 3-й по 6-ю горизонталь лежит кубик льда. Поэтому первый ход каждой стороны — взятие льда.',
          tr: 'Taşlar her zamanki gibi dizilir ve 3. ile 6. sıralar arasındaki her karede bir buz küpü vardır. Bu yüzden her tarafın ilk hamlesi buz almaktır.',
        },
        decisions: ['C4'],
      },
    ],
    diagram: {
      variant: 'iceage',
      fen: 'rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
      caption: { en: 'The start.', ru: 'Начальная позиция.', tr: 'Başlangıç.' },
    },
  },
  {
    id: 'ice',
    heading: { en: 'Ice blocks, and ice can be taken', ru: 'Лёд мешает, и лёд можно брать', tr: 'Buz yolu keser ve alınabilir' },
    paragraphs: [
      {
        text: {
          en: 'No piece moves through ice; a knight jumps over it as over anything. You cannot castle through ice.',
          ru: 'Сквозь лёд не проходит ни одна фигура; конь перепрыгивает его, как и всё остальное. Рокировка через лёд невозможна.',
          tr: 'Hiçbir taş buzun içinden geçemez; at, her şeyin üzerinden atladığı gibi onun da üzerinden atlar. Buzun içinden rok yapılamaz.',
        },
        decisions: ['C2'],
      },
      {
        text: {
          en: 'Either side may capture an ice cube just as it would capture an enemy piece; a pawn takes ice only diagonally. Ice never attacks and never gives check.',
          ru: 'Любая сторона может взять кубик льда так же, как фигуру соперника; пешка берёт лёд только по диагонали. Лёд никого не атакует и не даёт шаха.',
          tr: 'İki taraf da bir buz küpünü rakip bir taşı alır gibi alabilir; piyon buzu yalnızca çapraz alır. Buz hiçbir zaman saldırmaz ve şah çekmez.',
        },
        decisions: ['C3'],
      },
    ],
    diagram: {
      variant: 'iceage',
      fen: 'rnbqkb1r/pppppppp/*****n**/********/********/******P*/PPPPPPP1/RNBQKBNR w KQkq - 1 2',
      arrows: [['h2', 'g3'], ['g8', 'f6']],
      caption: {
        en: 'After 1. hxg3 Nxf6: both first moves captured ice.',
        ru: 'После 1. hxg3 Кxf6: оба первых хода взяли лёд.',
        tr: '1. hxg3 Axf6\'dan sonra: iki ilk hamle de buz aldı.',
      },
      check: { from: 'rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 1', moves: ['hxg3', 'Nxf6'] },
    },
  },
  {
    id: 'ice-age',
    heading: { en: 'The Ice Age', ru: 'Ледниковый период', tr: 'Buz Çağı' },
    paragraphs: [
      {
        text: {
          en: 'Right after every 20th move of Black (the 20th, 40th, 60th …) the Ice Age comes, before White moves again. The game page counts the Black moves left.',
          ru: 'Сразу после каждого 20-го хода чёрных (20-го, 40-го, 60-го …) наступает ледниковый период, до следующего хода белых. Страница партии отсчитывает, сколько ходов чёрных осталось.',
          tr: 'Siyahın her 20. hamlesinden (20., 40., 60. …) hemen sonra, beyaz yeniden oynamadan Buz Çağı gelir. Oyun sayfası kalan siyah hamlelerini sayar.',
        },
        decisions: ['C5'],
      },
      {
        text: {
          en: 'All at once: a piece of either colour with no other piece on any of the eight squares around it freezes — it is replaced by ice. Every empty square fills with ice, except a square closed on all four sides (up, down, left and right) by pieces or the edge of the board. Ice never counts as a neighbour.',
          ru: 'Всё сразу: фигура любого цвета, рядом с которой ни на одном из восьми соседних полей нет другой фигуры, замерзает — её место занимает лёд. Каждое пустое поле заполняется льдом, кроме поля, закрытого со всех четырёх сторон (сверху, снизу, слева и справа) фигурами или краем доски. Лёд соседом не считается.',
          tr: 'Hepsi aynı anda: çevresindeki sekiz karenin hiçbirinde başka bir taş olmayan, iki renkten herhangi bir taş donar — yerini buz alır. Her boş kare buzla dolar; yalnızca dört yanı (yukarı, aşağı, sol, sağ) taşlarla ya da tahta kenarıyla kapalı kareler boş kalır. Buz komşu sayılmaz.',
        },
        decisions: ['C6'],
      },
      {
        text: {
          en: 'If your king freezes, you lose at once; if both kings freeze, the game is drawn. Otherwise White moves; check and checkmate are judged after the Ice Age, and a frozen king or rook loses its castling rights.',
          ru: 'Если ваш король замёрз, вы сразу проиграли; если замёрзли оба короля — ничья. Иначе ходят белые; шах и мат оцениваются уже после ледникового периода, а замёрзшие король или ладья теряют право на рокировку.',
          tr: 'Şahınız donarsa hemen kaybedersiniz; iki şah birden donarsa oyun berabere biter. Aksi hâlde beyaz oynar; şah ve mat Buz Çağı\'ndan sonraki konuma göre değerlendirilir, donan şah ya da kale rok hakkını kaybeder.',
        },
        decisions: ['C6a', 'C7', 'C8', 'C9'],
      },
    ],
    diagram: {
      variant: 'iceage',
      fen: 'rnbqk***/pppp1p**/****p1p*/****PP*n/***P****/***B****/PPP**PPP/RNBQK1NR w - - 0 21',
      marks: { h8: 'frozen', f1: 'closed', f6: 'closed', e7: 'closed' },
      caption: {
        en: 'The seed\'s Ice Age, after 20... Nh5: the rook on h8 froze; f1, f6 and e7 stayed empty.',
        ru: 'Ледниковый период из правил, после 20... Кh5: ладья на h8 замёрзла; f1, f6 и e7 остались пустыми.',
        tr: 'Kurallardaki Buz Çağı, 20... Ah5\'ten sonra: h8\'deki kale dondu; f1, f6 ve e7 boş kaldı.',
      },
      check: { from: 'rnbqk1*r/pppp1p*1/****pnp1/4PP2/3P4/3B4/PPP2PPP/RNBQK1NR b - - 0 20', moves: ['Nh5'] },
    },
  },
  {
    id: 'end',
    heading: { en: 'How the game ends', ru: 'Конец партии', tr: 'Oyun nasıl biter' },
    paragraphs: [
      {
        text: {
          en: 'By checkmate, by a frozen king, by stalemate (a draw), by the fifty-move rule (a draw after 100 half-moves without a pawn move, a capture of a piece or a frozen piece — taking ice does not count), by resignation or by agreement.',
          ru: 'Матом, замёрзшим королём, патом (ничья), по правилу пятидесяти ходов (ничья после 100 полуходов без хода пешкой, взятия фигуры и замерзания фигуры — взятие льда не в счёт), сдачей или по соглашению.',
          tr: 'Mat, donan şah, pat (berabere), elli hamle kuralı (piyon sürülmeden, taş alınmadan ve taş donmadan geçen 100 yarım hamleden sonra berabere — buz almak sayılmaz), terk ya da anlaşma ile.',
        },
        decisions: ['C10'],
      },
      {
        text: {
          en: 'There is no draw by repetition and none for too little material: a lone king freezes at the next Ice Age, so waiting can win.',
          ru: 'Ничьей из-за повторения позиции или недостатка материала нет: одинокий король замерзает в следующий ледниковый период, так что выжидание может принести победу.',
          tr: 'Konum tekrarıyla ya da yetersiz malzemeyle beraberlik yoktur: yalnız bir şah bir sonraki Buz Çağı\'nda donar, yani beklemek kazandırabilir.',
        },
        decisions: ['C11'],
      },
    ],
  },
  {
    id: 'notation',
    heading: { en: 'Writing moves and positions', ru: 'Запись ходов и позиций', tr: 'Hamlelerin ve konumların yazımı' },
    paragraphs: [
      {
        text: {
          en: 'Moves are written as in chess (SAN), capturing ice with x: hxg3, Nxf6. You may also type the squares: h2g3. An Ice Age is noted after Black\'s move, as in {Ice Age: Rh8 frozen}.',
          ru: 'Ходы записываются как в шахматах (SAN), взятие льда — через x: hxg3, Nxf6. Можно вводить и поля: h2g3. Ледниковый период отмечается после хода чёрных, например {Ice Age: Rh8 frozen}.',
          tr: 'Hamleler satrançtaki gibi (SAN) yazılır, buz alma x ile: hxg3, Nxf6. Kareleri de yazabilirsiniz: h2g3. Buz Çağı siyahın hamlesinden sonra {Ice Age: Rh8 frozen} gibi not edilir.',
        },
        decisions: ['C13'],
      },
      {
        text: {
          en: 'Positions are FEN with * for an ice cube; game records are PGN files.',
          ru: 'Позиции записываются в FEN со знаком * для кубика льда; партии сохраняются в файлах PGN.',
          tr: 'Konumlar, buz küpü için * kullanan FEN ile yazılır; oyun kayıtları PGN dosyalarıdır.',
        },
        decisions: ['C12', 'C14'],
      },
    ],
  },
];
