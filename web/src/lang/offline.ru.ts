// The offline app's words in Russian (keys: lang/offline.en.ts).

import type { offlineEn } from './offline.en';

export const offlineRu: Record<keyof typeof offlineEn, string> = {
  'offline.badge': 'Нет связи',
  'offline.title': 'Нет связи с сервером',
  'offline.page': 'Этой части сайта нужен сервер, а он сейчас недоступен. Она вернётся сама, как только восстановится связь.',
  'offline.lobby': 'Нет связи: лобби, заявкам и вызовам нужен сервер, а он сейчас недоступен. Они вернутся сами, как только восстановится связь.',
  // A game played offline and uploaded: the server cannot check the computer's level.
  'offline.unverified': 'офлайн, не проверено',
  'offline.still_works': 'Без сервера по-прежнему доступны:',
};
