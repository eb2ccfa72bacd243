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
  'cond.title': 'Koşullu hamleler',
  'cond.hint': 'Önceden yanıtlayın: rakibin hamlesi, sonra sizinki, vb. (ör. "c3-d4 f6-g5 b2-c3 g7-f6"). Rakip ilkini oynarsa yanıtınız hemen oynanır.',
  'cond.moves': 'Hamleler: onunki, sizinki, onunki, sizinki…',
  'cond.placeholder': 'onun hamlesi, yanıtınız, …',
  'cond.save': 'Varyantı kaydet',
  'cond.cancel': 'Varyantı iptal et',
  'cond.pair': '{theirs} oynarsa, siz {mine} oynarsınız',
};
