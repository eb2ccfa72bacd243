// The page's words in English, Russian and Turkish (the seeds' languages). English is complete;
// a key missing in another language falls back to English.

export type Lang = 'en' | 'ru' | 'tr';

const en = {
  'nav.play': 'Play',
  'nav.my': 'My games',
  'nav.rules': 'Rules',
  'nav.stats': 'Statistics',
  'game.antarctos': 'Antarctos',
  'game.iceage': 'Ice Age Chess',
  'home.title': 'Start a game',
  'home.game': 'Game',
  'home.opponent': 'Opponent',
  'home.engine': 'Computer',
  'home.friend': 'A friend (invitation link)',
  'home.local': 'Same screen (both sides)',
  'home.level': 'Level',
  'home.side': 'Your side',
  'home.fen': 'Start position (optional)',
  'home.fen_hint': 'Position text in the game\'s notation; empty for the usual start',
  'home.start': 'Start the game',
  'home.antarctos_blurb': 'Russian checkers where a captured man turns into ice that anyone may jump. No kings: the first man to the far row wins.',
  'home.iceage_blurb': 'Chess on a board full of ice cubes. After every 20th Black move the Ice Age refills the board and freezes lonely pieces.',
  'color.white': 'White',
  'color.black': 'Black',
  'color.random': 'Random',
  'turn.white': 'White to move',
  'turn.black': 'Black to move',
  'turn.you': 'Your move',
  'turn.waiting': 'Waiting for the opponent',
  'turn.engine': 'The computer is thinking…',
  'game.moves': 'Moves',
  'game.no_moves': 'No moves yet',
  'game.flip': 'Flip board',
  'game.resign': 'Resign',
  'game.resign_confirm': 'Resign this game?',
  'game.offer_draw': 'Offer a draw',
  'game.accept_draw': 'Accept the draw',
  'game.decline_draw': 'Decline',
  'game.draw_offered_by': '{color} offers a draw',
  'game.draw_sent': 'Draw offered',
  'game.rematch': 'Rematch',
  'game.to_rematch': 'Go to the rematch',
  'game.copy_fen': 'Copy position text',
  'game.download_pdn': 'Download PDN',
  'game.download_pgn': 'Download PGN',
  'game.invite': 'Send this link to your friend:',
  'game.copy': 'Copy',
  'game.copied': 'Copied',
  'game.cancel_jump': 'Cancel the jump sequence',
  'game.jump_progress': 'Jump sequence: {path} (go on)',
  'game.watching': 'You are watching this game',
  'game.you_play': 'You play {color}',
  'game.you_both': 'You play both sides',
  'game.you': 'you',
  'game.open_seat': 'waiting for a friend to join',
  'game.result': 'Result',
  'game.ice_age': 'Ice Age',
  'game.promote': 'Promote to',
  'game.live': 'live',
  'game.offline': 'reconnecting…',
  'game.not_found': 'This game does not exist.',
  'game.human': 'Player',
  'game.engine_level': 'Computer, level {level}',
  'my.title': 'My games',
  'my.empty': 'No games in this browser yet.',
  'my.return': 'Return to game',
  'my.view': 'View',
  'my.ongoing': 'in progress',
  'my.finished': 'finished',
  'stats.title': 'Statistics of finished games',
  'stats.white': 'White',
  'stats.black': 'Black',
  'stats.draws': 'Draws',
  'stats.total': 'Total',
  'stats.none': 'No finished games yet.',
  'rules.title': 'Rules',
  'rules.examples': 'Worked examples',
  'rules.next': 'Next move',
  'rules.prev': 'Back',
  'rules.restart': 'Start again',
  'rules.play_from': 'Play from this position',
  'rules.step': 'Step {n} of {total}',
  'error.generic': 'Something went wrong: {message}',
};

type Key = keyof typeof en;

const ru: Partial<Record<Key, string>> = {
  'nav.play': 'Играть',
  'nav.my': 'Мои партии',
  'nav.rules': 'Правила',
  'nav.stats': 'Статистика',
  'game.antarctos': 'Антарктос',
  'game.iceage': 'Шахматы ледникового периода',
  'home.title': 'Новая партия',
  'home.game': 'Игра',
  'home.opponent': 'Соперник',
  'home.engine': 'Компьютер',
  'home.friend': 'Друг (по ссылке-приглашению)',
  'home.local': 'На одном экране (за обе стороны)',
  'home.level': 'Уровень',
  'home.side': 'Ваш цвет',
  'home.fen': 'Начальная позиция (необязательно)',
  'home.fen_hint': 'Позиция в нотации игры; пусто — обычная расстановка',
  'home.start': 'Начать партию',
  'home.antarctos_blurb': 'Русские шашки, где побитая шашка превращается в лёд, через который может прыгать любой. Дамок нет: побеждает первая шашка, дошедшая до последнего ряда.',
  'home.iceage_blurb': 'Шахматы на доске, полной льда. После каждого 20-го хода чёрных наступает ледниковый период: лёд заполняет доску и замораживает одинокие фигуры.',
  'color.white': 'Белые',
  'color.black': 'Чёрные',
  'color.random': 'Случайно',
  'turn.white': 'Ход белых',
  'turn.black': 'Ход чёрных',
  'turn.you': 'Ваш ход',
  'turn.waiting': 'Ждём хода соперника',
  'turn.engine': 'Компьютер думает…',
  'game.moves': 'Ходы',
  'game.no_moves': 'Ходов пока нет',
  'game.flip': 'Перевернуть доску',
  'game.resign': 'Сдаться',
  'game.resign_confirm': 'Сдать партию?',
  'game.offer_draw': 'Предложить ничью',
  'game.accept_draw': 'Принять ничью',
  'game.decline_draw': 'Отклонить',
  'game.draw_offered_by': '{color} предлагают ничью',
  'game.draw_sent': 'Ничья предложена',
  'game.rematch': 'Реванш',
  'game.to_rematch': 'К реваншу',
  'game.copy_fen': 'Копировать позицию',
  'game.download_pdn': 'Скачать PDN',
  'game.download_pgn': 'Скачать PGN',
  'game.invite': 'Отправьте эту ссылку другу:',
  'game.copy': 'Копировать',
  'game.copied': 'Скопировано',
  'game.cancel_jump': 'Отменить серию прыжков',
  'game.jump_progress': 'Серия прыжков: {path} (продолжайте)',
  'game.watching': 'Вы наблюдаете за партией',
  'game.you_play': 'Вы играете: {color}',
  'game.you_both': 'Вы играете за обе стороны',
  'game.you': 'вы',
  'game.open_seat': 'ждём друга',
  'game.result': 'Результат',
  'game.ice_age': 'Ледниковый период',
  'game.promote': 'Превратить в',
  'game.not_found': 'Такой партии нет.',
  'game.human': 'Игрок',
  'game.engine_level': 'Компьютер, уровень {level}',
  'my.title': 'Мои партии',
  'my.empty': 'В этом браузере партий ещё нет.',
  'my.return': 'Вернуться к игре',
  'my.view': 'Смотреть',
  'my.ongoing': 'идёт',
  'my.finished': 'окончена',
  'stats.title': 'Статистика завершённых партий',
  'stats.white': 'Белые',
  'stats.black': 'Чёрные',
  'stats.draws': 'Ничьи',
  'stats.total': 'Всего',
  'stats.none': 'Завершённых партий пока нет.',
  'rules.title': 'Правила',
  'rules.examples': 'Примеры',
  'rules.next': 'Следующий ход',
  'rules.prev': 'Назад',
  'rules.restart': 'Сначала',
  'rules.play_from': 'Играть с этой позиции',
  'rules.step': 'Шаг {n} из {total}',
  'error.generic': 'Ошибка: {message}',
};

const tr: Partial<Record<Key, string>> = {
  'nav.play': 'Oyna',
  'nav.my': 'Oyunlarım',
  'nav.rules': 'Kurallar',
  'nav.stats': 'İstatistik',
  'game.antarctos': 'Antarctos',
  'game.iceage': 'Buz Çağı Satrancı',
  'home.title': 'Yeni oyun',
  'home.game': 'Oyun',
  'home.opponent': 'Rakip',
  'home.engine': 'Bilgisayar',
  'home.friend': 'Arkadaş (davet bağlantısı)',
  'home.local': 'Aynı ekran (iki taraf)',
  'home.level': 'Seviye',
  'home.side': 'Tarafınız',
  'home.fen': 'Başlangıç konumu (isteğe bağlı)',
  'home.start': 'Oyunu başlat',
  'color.white': 'Beyaz',
  'color.black': 'Siyah',
  'color.random': 'Rastgele',
  'turn.white': 'Sıra beyazda',
  'turn.black': 'Sıra siyahta',
  'turn.you': 'Sıra sizde',
  'turn.waiting': 'Rakip bekleniyor',
  'turn.engine': 'Bilgisayar düşünüyor…',
  'game.moves': 'Hamleler',
  'game.no_moves': 'Henüz hamle yok',
  'game.flip': 'Tahtayı çevir',
  'game.resign': 'Terk et',
  'game.resign_confirm': 'Oyunu terk etmek istiyor musunuz?',
  'game.offer_draw': 'Beraberlik teklif et',
  'game.accept_draw': 'Beraberliği kabul et',
  'game.decline_draw': 'Reddet',
  'game.rematch': 'Rövanş',
  'game.copy_fen': 'Konumu kopyala',
  'game.download_pdn': 'PDN indir',
  'game.download_pgn': 'PGN indir',
  'game.invite': 'Bu bağlantıyı arkadaşınıza gönderin:',
  'game.copy': 'Kopyala',
  'game.copied': 'Kopyalandı',
  'game.watching': 'Bu oyunu izliyorsunuz',
  'game.you': 'siz',
  'game.open_seat': 'arkadaşınız bekleniyor',
  'game.ice_age': 'Buz Çağı',
  'my.title': 'Oyunlarım',
  'my.return': 'Oyuna geri dön',
  'stats.title': 'Kazanılmış oyunların istatistiği',
  'stats.white': 'beyaz',
  'stats.black': 'siyah',
  'stats.draws': 'Berabere',
  'stats.total': 'Toplam',
  'rules.title': 'Kurallar',
  'rules.examples': 'Örnekler',
  'rules.next': 'Sonraki hamle',
  'rules.prev': 'Geri',
  'rules.restart': 'Baştan',
};

const dictionaries: Record<Lang, Partial<Record<Key, string>>> = { en, ru, tr };

function initialLang(): Lang {
  const saved = localStorage.getItem('icebound.lang');
  if (saved === 'en' || saved === 'ru' || saved === 'tr') return saved;
  const nav = (navigator.language || 'en').slice(0, 2);
  return nav === 'ru' || nav === 'tr' ? nav : 'en';
}

let current: Lang = initialLang();

export function lang(): Lang {
  return current;
}

export function setLang(l: Lang): void {
  current = l;
  localStorage.setItem('icebound.lang', l);
  document.documentElement.lang = l;
}

/** The text for `key` in the current language, with `{name}` replaced from `vars`. */
export function t(key: Key, vars: Record<string, string | number> = {}): string {
  const text = dictionaries[current][key] ?? en[key];
  return text.replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? `{${k}}`));
}

/** A game result in words: the server's English sentence, or one built from its reason. */
export function resultWords(r: { winner: 'white' | 'black' | null; reason: string; words: string }): string {
  if (current === 'en') return r.words;
  const ruReasons: Record<string, string> = {
    breakthrough: 'прорывом', 'total freeze': 'тотальным замерзанием', 'no moves': 'у соперника нет ходов',
    checkmate: 'матом', 'frozen king': 'король соперника замёрз', resignation: 'соперник сдался',
    'both kings frozen': 'оба короля замёрзли', stalemate: 'пат', 'fifty-move rule': 'правило 50 ходов', agreement: 'по соглашению',
  };
  const trReasons: Record<string, string> = {
    breakthrough: 'son sıraya ulaşarak', 'total freeze': 'rakibin tüm taşları dondu', 'no moves': 'rakibin hamlesi yok',
    checkmate: 'şah mat', 'frozen king': 'rakibin şahı dondu', resignation: 'rakip terk etti',
    'both kings frozen': 'iki şah da dondu', stalemate: 'pat', 'fifty-move rule': '50 hamle kuralı', agreement: 'anlaşma',
  };
  const reasons = current === 'ru' ? ruReasons : trReasons;
  const why = reasons[r.reason];
  if (!why) return r.words;
  if (r.winner === null) return current === 'ru' ? `Ничья: ${why}` : `Berabere: ${why}`;
  const side = t(r.winner === 'white' ? 'color.white' : 'color.black');
  return current === 'ru' ? `${side} выиграли (${why})` : `${side} kazandı (${why})`;
}
