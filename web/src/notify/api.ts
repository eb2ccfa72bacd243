// The notifications' API (docs/api.md, "Notifications"): the list, read marks, and the live
// count `GET /api/notifications/stream` (server-sent events).

import { call } from '../api';

export type NotificationKind = 'your_move' | 'low_time' | 'game_over' | 'challenge' | 'challenge_accepted' | 'seek_accepted' | 'tournament_started' | 'tournament_game' | 'sandbag_warning';

/** One notification. */
export interface NotificationItem {
  id: string;
  kind: NotificationKind;
  /** The game it is about. */
  game?: string;
  /** The tournament it is about. */
  tournament?: string;
  /** The other player's name. */
  by?: string;
  /** English; the page words it from `kind` and `by`. */
  text: string;
  /** Unix ms. */
  at: number;
  read: boolean;
}

/** What the stream sends (event `notify`). */
export interface NotifyView {
  unread: number;
  latest: NotificationItem | null;
}

export const notifyApi = {
  list: () => call<{ unread: number; items: NotificationItem[] }>('GET', '/api/notifications'),
  readAll: () => call<{ unread: number }>('POST', '/api/notifications/read', { all: true }),
  read: (ids: string[]) => call<{ unread: number }>('POST', '/api/notifications/read', { ids }),
  streamUrl: '/api/notifications/stream',
};
