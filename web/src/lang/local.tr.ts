// The words of the engine in the browser and of offline play in Turkish (keys: lang/local.en.ts).

import type { localEn } from './local.en';

export const localTr: Record<keyof typeof localEn, string> = {
  'local.in_browser': 'tarayıcınızda',
  'local.on_server': 'sunucuda',
  'local.switch': 'Motor tarayıcınızda',
  'local.switch_title': 'Açık: motor ve çözücü bu cihazda çalışır, sunucuya yük olmaz. Kapalı: eskisi gibi sunucunun motoru.',
  'nav.offline': 'Çevrimdışı',
  'offline.title': 'Bilgisayara karşı çevrimdışı oyna',
  'offline.intro': 'Bilgisayar tarayıcınızda oynar: bağlantı gerekmez, oyun her hamlede bu cihazda saklanır.',
  'offline.no_engine': 'Bu site tarayıcı motoru olmadan kurulmuş; bu yüzden bilgisayar burada çevrimdışı oynayamaz.',
  'offline.loading': 'Motor yükleniyor…',
  'offline.new': 'Yeni oyun',
  'offline.start': 'Oyunu başlat',
  'offline.resume': 'Devam et',
  'offline.open': 'Aç',
  'offline.delete': 'Sil',
  'offline.saved': 'Bu cihazdaki oyunlar',
  'offline.none': 'Henüz oyun yok.',
  'offline.game_line': '{game}, seviye {level}, renginiz: {color} · {plies} yarım hamle',
  'offline.ongoing': 'sürüyor',
  'offline.upload': 'Siteye yükle',
  'offline.uploading': 'Yükleniyor…',
  'offline.uploaded': 'Yüklendi: oyunu aç',
  'offline.upload_failed': 'Yükleme başarısız: {why}',
  'offline.seat_you': 'Siz',
  'offline.seat_engine': 'Bilgisayar, seviye {level} (tarayıcınızda)',
  'offline.home_link': 'Bilgisayara karşı çevrimdışı oyna (tarayıcınızda)',
  'offline.not_kept': 'Bu tarayıcı oyunu saklamıyor (depolama dolu ya da kapalı): oyun sayfa açık kaldıkça sürer.',
};
