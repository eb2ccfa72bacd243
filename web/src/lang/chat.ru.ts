// Chat's words in Russian (keys: lang/chat.en.ts).

import type { chatEn } from './chat.en';

export const chatRu: Record<keyof typeof chatEn, string> = {
  'chat.title': 'Чат',
  'chat.placeholder': 'Напишите что-нибудь (не больше 140 знаков)',
  'chat.placeholder_short': 'Напишите что-нибудь',
  'chat.send': 'Отправить',
  'chat.off': 'Чат выключен',
  'chat.off_note': 'Чат выключен во всех ваших партиях: вы не видите и не отправляете сообщений.',
  'chat.login_to_chat': 'Войдите, чтобы писать в чат.',
  'chat.empty': 'Сообщений пока нет.',
  'chat.anonymous': 'Аноним',
  'chat.report': 'Пожаловаться на сообщение',
  'chat.reported': 'Жалоба отправлена',
  'chat.report_confirm': 'Пожаловаться модераторам на сообщение {name} как на оскорбление?',
  'chat.too_long': '{n} симв.: в сообщении не больше {max}.',
  'chat.room.players': 'Игроки',
  'chat.room.watchers': 'Зрители',
  'chat.room.tournament': 'Турнир',
  'chat.room.lobby': 'Лобби',
  'chat.phrase.good_luck': 'Удачи',
  'chat.phrase.have_fun': 'Приятной игры',
  'chat.phrase.well_played': 'Хорошо сыграно',
  'chat.phrase.thanks': 'Спасибо',
  'chat.phrase.good_game': 'Хорошая партия',
  'error.muted': 'Модератор ограничил вам чат: пока писать нельзя.',
  'error.chat_off': 'Ваш чат выключен: включите его, чтобы писать.',
  'error.chat_not_allowed': 'Новые учётные записи и гости могут отправлять только готовые фразы: писать можно через 10 минут после регистрации и после законченной партии.',
  'error.watchers_closed': 'Чат зрителей откроется игрокам после окончания партии.',
  'chat.mute_opponent': 'Скрыть чат соперника',
};
