// The clocks' words in Russian (keys: lang/clock.en.ts).

import type { clockEn } from './clock.en';

export const clockRu: Record<keyof typeof clockEn, string> = {
  'clock.unlimited': 'Без ограничения',
  'clock.days': '{n, plural, one {# день} few {# дня} many {# дней} other {# дня}} на ход',
  'clock.days_hours': '{d} д {h} ч',
  'clock.hours_minutes': '{h} ч {m} мин',
  'clock.vacation': 'В отпуске до {when}',
  'clock.deadline': 'Время кончится {when}',
  'clock.realtime_title': 'Осталось времени',
  'clock.stale_title': 'Нет связи: переподключение, время может быть устаревшим',
  'clock.correspondence_title': 'Время на ход',
  'clock.rated': 'На рейтинг',
  'clock.casual': 'Без рейтинга',
  'clock.first_move': '{color} должны сделать ход за {s} с',
  'clock.first_move_you': 'Ваш ход: сделайте его за {s} с',
  'clock.first_move_title': 'Часы пойдут после первого хода каждой стороны; если первый ход не сделан вовремя, партия отменяется',
  'notice.first_move_missed': '{color} не сделали первый ход вовремя: партия отменена',
  'my.deadline': 'ваше время кончится {when}',
};
