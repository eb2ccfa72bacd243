// The words of the engine in the browser and of offline play in Russian (keys: lang/local.en.ts).

import type { localEn } from './local.en';

export const localRu: Record<keyof typeof localEn, string> = {
  'local.in_browser': 'в вашем браузере',
  'local.on_server': 'на сервере',
  'local.switch': 'Движок в браузере',
  'local.switch_title': 'Включено: движок и решатель работают на этом устройстве и не нагружают сервер. Выключено: движок сервера, как раньше.',
  'nav.offline': 'Офлайн',
  'offline.title': 'Игра с компьютером офлайн',
  'offline.intro': 'Компьютер играет прямо в вашем браузере: связь не нужна, а партия сохраняется на этом устройстве после каждого хода.',
  'offline.no_engine': 'Этот сайт собран без движка для браузера, поэтому здесь компьютер не может играть офлайн.',
  'offline.loading': 'Загрузка движка…',
  'offline.new': 'Новая партия',
  'offline.start': 'Начать партию',
  'offline.resume': 'Продолжить',
  'offline.open': 'Открыть',
  'offline.delete': 'Удалить',
  'offline.saved': 'Партии на этом устройстве',
  'offline.none': 'Партий пока нет.',
  'offline.game_line': '{game}, уровень {level}, ваши фигуры: {color} · {plies, plural, one {# полуход} few {# полухода} many {# полуходов} other {# полухода}}',
  'offline.ongoing': 'идёт',
  'offline.upload': 'Загрузить на сайт',
  'offline.uploading': 'Загрузка…',
  'offline.uploaded': 'Загружено: открыть партию',
  'offline.upload_failed': 'Загрузить не удалось: {why}',
  'offline.seat_you': 'Вы',
  'offline.seat_engine': 'Компьютер, уровень {level} (в вашем браузере)',
  'offline.home_link': 'Играть с компьютером офлайн (в браузере)',
  'offline.not_kept': 'Браузер не сохраняет партию (хранилище заполнено или отключено): она живёт, пока открыта страница.',
};
