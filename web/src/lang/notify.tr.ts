// The notifications' words in Turkish (keys: lang/notify.en.ts).

import type { notifyEn } from './notify.en';

export const notifyTr: Record<keyof typeof notifyEn, string> = {
  'notify.bell': 'Bildirimler',
  'notify.bell_unread': 'Bildirimler: {n} okunmamış',
  'notify.none': 'Henüz bildirim yok.',
  'notify.your_move': '{name} hamlesini yaptı: sıra sizde',
  'notify.low_time': '{name} ile oyununuzda süreniz azalıyor',
  'notify.game_over': '{name} ile oyununuz bitti',
  'notify.challenge': '{name} sizi oyuna davet ediyor',
  'notify.challenge_accepted': '{name} davetinizi kabul etti',
  'notify.seek_accepted': '{name} ilanınızı kabul etti',
  'notify.popup_title': 'Oyun daveti',
  'notify.accept': 'Kabul et',
  'notify.decline': 'Reddet',
  'notify.close': 'Kapat',
  'notify.push_offer': 'Site kapalıyken bile sıra size geldiğinde bu cihazda bildirim alınsın mı?',
  'notify.push_on': 'Aç',
  'notify.push_later': 'Şimdi değil',
  'notify.push_denied': 'Bu tarayıcı site için bildirimlere izin vermiyor.',
  'notify.push_device': 'Bu cihazda bildirimler',
  'notify.push_off': 'Bu cihazda kapat',
};
