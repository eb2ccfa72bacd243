// The offline app's words in Turkish (keys: lang/offline.en.ts).

import type { offlineEn } from './offline.en';

export const offlineTr: Record<keyof typeof offlineEn, string> = {
  'offline.badge': 'Çevrimdışı',
  'offline.title': 'Çevrimdışı',
  'offline.page': 'Sitenin bu bölümü sunucuya ihtiyaç duyar ve sunucuya şu an ulaşılamıyor. Bağlantı geri geldiğinde kendiliğinden geri gelir.',
  'offline.lobby': 'Çevrimdışı: lobi, ilanlar ve meydan okumalar sunucuya ihtiyaç duyar ve sunucuya şu an ulaşılamıyor. Bağlantı geri geldiğinde kendiliğinden geri gelirler.',
  // A game played offline and uploaded: the server cannot check the computer's level.
  'offline.unverified': 'çevrimdışı, doğrulanmamış',
  'offline.still_works': 'Sunucu olmadan da kullanabilecekleriniz:',
};
