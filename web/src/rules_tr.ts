// The rules of rules_content.ts in Turkish (the Ice Age Chess seed's site language). Same
// decisions, same numbers; where the two differ, the English text and shared/spec are the law.

import type { RuleSection } from './rules_content';

export const antarctosRulesTr: RuleSection[] = [
  {
    heading: 'Tahta ve taşlar',
    items: [
      'A1. 8x8 dama tahtası; oyun 32 koyu karede oynanır (a1 koyudur). Kareler a1\'den h8\'e adlandırılır, 1. sıra Beyaz tarafındadır.',
      'A2. Tahtada Beyaz taşlar, Siyah taşlar ve buz bulunur. Buz tarafsızdır: kimsenin değildir ve hiç hareket etmez. Dama (kral) yoktur.',
      'A3. Beyaz taşlar a1 c1 e1 g1 b2 d2 f2 h2 a3 c3 e3 g3, Siyah taşlar b6 d6 f6 h6 a7 c7 e7 g7 b8 d8 f8 h8 karelerinde başlar. İlk hamle Beyazındır.',
      'A4. Beyaz 8. sıraya, Siyah 1. sıraya doğru ilerler. Hedef, rakibin ilk sırasıdır.',
    ],
  },
  {
    heading: 'Hamleler',
    items: [
      'A5. Basit hamle: çapraz olarak bir kare ileri, boş bir kareye.',
      'A6. Alma: taş, ileri ya da geri, yanındaki rakip taşın üzerinden çapraz atlayarak hemen arkasındaki boş kareye iner.',
      'A7. Buz atlama: aynısı, yandaki buzun üzerinden. Buz hemen erir: karesi o andan itibaren boştur.',
      'A8. Alınan taş hamle bitene kadar yerinde kalır, bu yüzden üzerinden ikinci kez atlanamaz ("Türk vuruşu"); sonra buza dönüşür. Bir hamlede hiçbir şeyin üzerinden iki kez atlanmaz.',
      'A9. Önce canlılar: taşlarınızdan biri rakip taş alabiliyorsa, hamleniz bir alma ile başlamalıdır. Aksi halde istediğiniz basit hamleyi yapabilir ya da buz üzerinden bir atlama dizisine başlayabilirsiniz (zorunlu değildir).',
      'A10. Her atlamadan sonra taş devam etmek zorundadır: alabiliyorsa alarak, alamıyor ama buz atlayabiliyorsa buz atlayarak; ikisi de yoksa dizi biter. Alma her zaman buz atlamadan önce gelir.',
      'A11. Taşın başladığı kare, taş ayrıldıktan sonra boştur: dizi yeniden oradan geçebilir.',
    ],
  },
  {
    heading: 'Oyunun sonu',
    items: [
      'A12. Atılım: hamlesini hedef sırasında bitiren taş oyunu hemen kazandırır. Dizinin ortasında hedef sırasına yalnızca değip devam eden taş kazandırmaz.',
      'A13. Tam donma: rakibin hiç canlı taşı kalmazsa kazanırsınız.',
      'A14. Hamle yok: sırası geldiğinde hamle yapamayan taraf kaybeder.',
      'A15. Beraberlik yoktur: her hamle bir taşı ilerletir, buz eritir ya da taş dondurur; bu yüzden her oyun biter.',
    ],
  },
  {
    heading: 'Notasyon',
    items: [
      'A16. Basit hamle c3-d4 diye yazılır; atlama dizisi her iniş karesiyle: d6xb4xd2xf4 (alma da buz atlama da x ile). Kazandıran hamleden sonra "#" konabilir.',
      'A17. Girişte ayrıca x yerine ":", c3d4, kısa yazım cb6 ve yalnızca bir dizi uyuyorsa başlangıç ve bitişle verilen atlama (a7xc1) kabul edilir.',
      'A18. Konum: W:Wb4,e3,f2:Bc7,d6:Ic3 — sıradaki taraf, Beyaz taşlar, Siyah taşlar, buz.',
      'A19. Oyun kayıtları [GameType "Antarctos"] ile PDN biçimindedir.',
    ],
  },
];

export const iceageRulesTr: RuleSection[] = [
  {
    heading: 'Tahta, taşlar ve buz',
    items: [
      'C1. Aşağıda söylenenler dışında FIDE kurallarıyla satranç: hamleler, şah, mat, rok, geçerken alma, terfi.',
      'C2. Buz küpleri tarafsız engellerdir: hiçbir taş içinden geçemez (at, her taşın üzerinden olduğu gibi buzun da üzerinden atlar). Buzun içinden rok yapılamaz.',
      'C3. İki taraf da buzu, rakip taşı alır gibi alabilir (piyon yalnızca çapraz). Buz hiçbir kareyi tehdit etmez ve şah çekmez.',
      'C4. Başlangıç dizilişi normaldir; 3. ile 6. sıralar arasındaki tüm kareler buzla doludur. Bu yüzden iki tarafın da ilk hamlesi bir buz almadır.',
    ],
  },
  {
    heading: 'Buz Çağı',
    items: [
      'C5. Siyahın her 20. hamlesinden sonra (hamle numarasına göre 20., 40., 60. ...) Beyaz yeniden oynamadan önce Buz Çağı gelir.',
      'C6. Hepsi birden: çevresindeki sekiz karede başka hiçbir taş olmayan, her renkten yalnız taş donar — kaldırılır ve yerine buz konur; yatay ve dikey komşularının (en çok dört; tahta kenarı kapalı sayılır) hepsinde taş bulunan kareler dışında her boş kare buzla dolar.',
      'C6a. Siyahın 20. hamlesi kendi başına kurala uygun olmalıdır: Buz Çağı ne yaparsa yapsın, Siyahın şahı tehdit altında bırakılamaz.',
      'C7. Şahı donan taraf hemen kaybeder; iki şah da donarsa oyun berabere biter.',
      'C8. Aksi halde Beyaz oynar. Şah ve mat Buz Çağından sonra değerlendirilir; donan şah ve kaleler rok hakkını yitirir.',
      'C9. Buz Çağı kayıtta Siyahın hamlesinin parçasıdır, örneğin {Ice Age: Rh8 frozen}.',
    ],
  },
  {
    heading: 'Oyunun sonu',
    items: [
      'C10. Mat, donan şah, pat (berabere), elli hamle kuralı (berabere: piyon hamlesi, taş alma ve donan taş olmadan 100 yarım hamle — buz almak sayılmaz), terk ya da anlaşma.',
      'C11. Tekrarla ya da yetersiz malzemeyle beraberlik yoktur: yalnız kalan şah bir sonraki Buz Çağında donar.',
    ],
  },
  {
    heading: 'Notasyon',
    items: [
      'C12. Konum, buz küpü için "*" kullanan FEN ile yazılır.',
      'C13. Hamleler SAN ile yazılır, buz alma x ile (hxg3); UCI (h2g3) de kabul edilir.',
      'C14. Oyun kayıtları [Variant "Ice Age"] ve [FEN] içindeki başlangıç konumuyla PGN biçimindedir.',
    ],
  },
];
