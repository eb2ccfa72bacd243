// The clocks' words in Turkish (keys: lang/clock.en.ts).

import type { clockEn } from './clock.en';

export const clockTr: Record<keyof typeof clockEn, string> = {
  'clock.unlimited': 'Süresiz',
  'clock.days': 'hamle başına {n} gün',
  'clock.days_hours': '{d} g {h} sa',
  'clock.hours_minutes': '{h} sa {m} dk',
  'clock.vacation': '{when} tarihine kadar tatilde',
  'clock.deadline': 'Süre {when} tarihinde biter',
  'clock.realtime_title': 'Kalan süre',
  'clock.stale_title': 'Bağlantı yok: yeniden bağlanıyor, gösterilen süre eski olabilir',
  'clock.correspondence_title': 'Hamle başına süre',
  'clock.rated': 'Puanlı',
  'clock.casual': 'Puansız',
  'clock.first_move': '{color} {s} sn içinde hamle yapmalı',
  'clock.first_move_you': '{s} sn içinde hamle yapmalısınız',
  'clock.first_move_title': 'Saatler iki tarafın da ilk hamlesinden sonra başlar; zamanında yapılmayan ilk hamle oyunu iptal eder',
  'notice.first_move_missed': '{color} ilk hamlesini zamanında yapmadı: oyun iptal edildi',
  'my.deadline': 'süreniz {when} biter',
};
