// The words of the engine in the browser and of offline play in Russian (keys: lang/local.en.ts).

import type { localEn } from './local.en';

export const localRu: Record<keyof typeof localEn, string> = {
  'local.in_browser': 'в вашем браузере',
  'local.on_server': 'на сервере',
  'local.switch': 'Движок в браузере',
  'local.switch_title': 'Включено: движок и решатель работают на этом устройстве и не нагружают сервер. Выключено: движок сервера, как раньше.',
  'nav.offline': 'Игра офлайн',
  'solo.title': 'Игра с компьютером офлайн',
  'solo.intro': 'Компьютер играет прямо в вашем браузере: связь не нужна, а партия сохраняется на этом устройстве после каждого хода.',
  'solo.no_engine': 'Этот сайт собран без движка для браузера, поэтому здесь компьютер не может играть офлайн.',
  'solo.loading': 'Загрузка движка…',
  'solo.new': 'Новая партия',
  'solo.start': 'Начать партию',
  'solo.resume': 'Продолжить',
  'solo.open': 'Открыть',
  'solo.delete': 'Удалить',
  'solo.saved': 'Партии на этом устройстве',
  'solo.none': 'Партий пока нет.',
  'solo.game_line': '{game}, уровень {level}, ваши фигуры: {color} · {plies, plural, one {# полуход} few {# полухода} many {# полуходов} other {# полухода}}',
  'solo.ongoing': 'идёт',
  'solo.upload': 'Загрузить на сайт',
  'solo.uploading': 'Загрузка…',
  'solo.uploaded': 'Загружено: открыть партию',
  'solo.upload_failed': 'Загрузить не удалось: {why}',
  'solo.upload_waiting': 'Загрузить не удалось: сервер недоступен. Партия отправится сама, когда сервер снова ответит (не закрывайте страницу).',
  'solo.upload_now': 'Попробовать сейчас',
  'solo.seat_you': 'Вы',
  'solo.seat_engine': 'Компьютер, уровень {level} (в вашем браузере)',
  'solo.home_link': 'Играть с компьютером офлайн (в браузере)',
  'solo.not_kept': 'Браузер не сохраняет партию (хранилище заполнено или отключено): она живёт, пока открыта страница.',
};
