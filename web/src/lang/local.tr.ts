// The words of the engine in the browser and of offline play in Turkish (keys: lang/local.en.ts).

import type { localEn } from './local.en';

export const localTr: Record<keyof typeof localEn, string> = {
  'local.in_browser': 'tarayıcınızda',
  'local.on_server': 'sunucuda',
  'local.switch': 'Motor tarayıcınızda',
  'local.switch_title': 'Açık: motor ve çözücü bu cihazda çalışır, sunucuya yük olmaz. Kapalı: eskisi gibi sunucunun motoru.',
  'nav.offline': 'Çevrimdışı oyna',
  'solo.title': 'Bilgisayara karşı çevrimdışı oyna',
  'solo.intro': 'Bilgisayar tarayıcınızda oynar: bağlantı gerekmez, oyun her hamlede bu cihazda saklanır.',
  'solo.no_engine': 'Bu site tarayıcı motoru olmadan kurulmuş; bu yüzden bilgisayar burada çevrimdışı oynayamaz.',
  'solo.loading': 'Motor yükleniyor…',
  'solo.new': 'Yeni oyun',
  'solo.start': 'Oyunu başlat',
  'solo.resume': 'Devam et',
  'solo.open': 'Aç',
  'solo.delete': 'Sil',
  'solo.saved': 'Bu cihazdaki oyunlar',
  'solo.none': 'Henüz oyun yok.',
  'solo.game_line': '{game}, seviye {level}, renginiz: {color} · {plies} yarım hamle',
  'solo.ongoing': 'sürüyor',
  'solo.upload': 'Siteye yükle',
  'solo.uploading': 'Yükleniyor…',
  'solo.uploaded': 'Yüklendi: oyunu aç',
  'solo.upload_failed': 'Yükleme başarısız: {why}',
  'solo.upload_waiting': 'Yükleme başarısız: sunucuya ulaşılamıyor. Sunucu geri geldiğinde kendiliğinden gönderilecek (bu sayfayı açık tutun).',
  'solo.upload_now': 'Şimdi dene',
  'solo.seat_you': 'Siz',
  'solo.seat_engine': 'Bilgisayar, seviye {level} (tarayıcınızda)',
  'solo.home_link': 'Bilgisayara karşı çevrimdışı oyna (tarayıcınızda)',
  'solo.not_kept': 'Bu tarayıcı oyunu saklamıyor (depolama dolu ya da kapalı): oyun sayfa açık kaldıkça sürer.',
};
