// Chat's words in Turkish (keys: lang/chat.en.ts).

import type { chatEn } from './chat.en';

export const chatTr: Record<keyof typeof chatEn, string> = {
  'chat.title': 'Sohbet',
  'chat.placeholder': 'Bir şey yazın (en çok 140 karakter)',
  'chat.placeholder_short': 'Bir şey yazın',
  'chat.send': 'Gönder',
  'chat.off': 'Sohbet kapalı',
  'chat.off_note': 'Sohbet tüm oyunlarınızda kapalı: mesaj görmez ve göndermezsiniz.',
  'chat.login_to_chat': 'Sohbet için giriş yapın.',
  'chat.empty': 'Henüz mesaj yok.',
  'chat.anonymous': 'Anonim',
  'chat.report': 'Bu mesajı şikâyet et',
  'chat.reported': 'Bildirildi',
  'chat.report_confirm': '{name} adlı oyuncunun mesajı taciz olarak moderatörlere bildirilsin mi?',
  'chat.too_long': '{n} karakter: bir mesaj en çok {max} karakter olabilir.',
  'chat.room.players': 'Oyuncular',
  'chat.room.watchers': 'İzleyiciler',
  'chat.room.tournament': 'Turnuva',
  'chat.room.lobby': 'Lobi',
  'chat.phrase.good_luck': 'İyi şanslar',
  'chat.phrase.have_fun': 'İyi eğlenceler',
  'chat.phrase.well_played': 'İyi oynadın',
  'chat.phrase.thanks': 'Teşekkürler',
  'chat.phrase.good_game': 'İyi oyundu',
  'error.muted': 'Bir moderatör sizi susturdu: şimdilik sohbet yok.',
  'error.chat_off': 'Sohbetiniz kapalı: yazmak için açın.',
  'error.chat_not_allowed': 'Yeni hesaplar ve misafirler yalnızca hazır ifadeleri gönderebilir: yazmak, kayıttan 10 dakika sonra ve bitmiş bir oyunla açılır.',
  'error.watchers_closed': 'İzleyici sohbeti oyunculara oyun bitince açılır.',
  'chat.mute_opponent': 'Rakibin sohbetini sustur',
};
