// The notifications' words in Russian (keys: lang/notify.en.ts).

import type { notifyEn } from './notify.en';

export const notifyRu: Record<keyof typeof notifyEn, string> = {
  'notify.bell': 'Уведомления',
  'notify.bell_unread': '{n, plural, one {Уведомления: # непрочитанное} few {Уведомления: # непрочитанных} many {Уведомления: # непрочитанных} other {Уведомления: # непрочитанного}}',
  'notify.none': 'Уведомлений пока нет.',
  'notify.your_move': '{name} сделал ход: ваш ход',
  'notify.low_time': 'Время на ход против {name} истекает',
  'notify.game_over': 'Партия против {name} окончена',
  'notify.challenge': '{name} вызывает вас',
  'notify.challenge_accepted': '{name} принял ваш вызов',
  'notify.seek_accepted': '{name} принял вашу заявку',
  'notify.popup_title': 'Вызов',
  'notify.accept': 'Принять',
  'notify.decline': 'Отклонить',
  'notify.close': 'Закрыть',
  'notify.push_offer': 'Получать уведомление на этом устройстве, когда ваш ход, даже если сайт закрыт?',
  'notify.push_on': 'Включить',
  'notify.push_later': 'Не сейчас',
  'notify.push_denied': 'Браузер не разрешает уведомления от сайта.',
  'notify.push_device': 'Уведомления на этом устройстве',
  'notify.push_off': 'Выключить на этом устройстве',
  'cond.title': 'Условные ходы',
  'cond.hint': 'Ответьте заранее: ход соперника, затем ваш, и так далее (например, «c3-d4 f6-g5 b2-c3 g7-f6»). Если соперник сыграет первый ход, ваш ответ будет сделан сразу.',
  'cond.moves': 'Ходы: его, ваш, его, ваш…',
  'cond.placeholder': 'его ход, ваш ответ, …',
  'cond.save': 'Сохранить вариант',
  'cond.cancel': 'Отменить вариант',
  'cond.pair': 'Если {theirs}, вы играете {mine}',
};
