// The lobby's API (docs/api.md, "The lobby"): seeks, quick pairing, challenges, and the live
// stream `GET /api/lobby` (server-sent events).

import { call, type GameView, type PlayerRating, type TimeControl, type Variant } from '../api';

export type Side = 'white' | 'black' | 'random';
export type Speed = 'realtime' | 'correspondence' | 'unlimited';

/** An open seek. */
export interface SeekView {
  id: string;
  variant: Variant;
  time_control: TimeControl;
  label: string;
  speed: Speed;
  rated: boolean;
  /** The seeker's side. */
  color: Side;
  /** The seeker's account; null for an anonymous player. */
  username: string | null;
  created_at: number;
  mine: boolean;
  /** The seeker's rating in the seek's game and speed; null: anonymous, or unlimited. */
  rating: PlayerRating | null;
  /** Only accounts rated within [min, max] see it; null: anyone. */
  rating_range: [number, number] | null;
}

/** A challenge to or from this player. */
export interface ChallengeView {
  id: string;
  direction: 'incoming' | 'outgoing';
  challenger: string;
  challenged: string;
  variant: Variant;
  time_control: TimeControl;
  label: string;
  speed: Speed;
  rated: boolean;
  /** The challenger's side. */
  color: Side;
  status: 'open' | 'accepted' | 'declined';
  game: string | null;
  created_at: number;
  /** The other player is a BOT account (issue 44). */
  bot?: boolean;
}

/** What the lobby stream sends. */
export interface LobbyView {
  seeks: SeekView[];
  challenges: { incoming: ChallengeView[]; outgoing: ChallengeView[] };
  /** Games started from this player's seeks and challenges: go to the newest not yet seen. */
  started: string[];
}

/** The terms of a seek or challenge. */
export interface Terms {
  variant: Variant;
  time_control: TimeControl;
  rated: boolean;
  color: Side;
  /** A seek's rating range (accounts only, never unlimited). */
  rating_range?: [number, number];
}

const id = (x: string) => encodeURIComponent(x);

export const lobbyApi = {
  seek: (terms: Terms) => call<SeekView>('POST', '/api/seeks', terms),
  seeks: () => call<SeekView[]>('GET', '/api/seeks'),
  withdraw: (seek: string) => call<void>('DELETE', `/api/seeks/${id(seek)}`, {}),
  accept: (seek: string) => call<GameView>('POST', `/api/seeks/${id(seek)}/accept`, {}),
  quick: (variant: Variant, time_control: TimeControl, rated: boolean) =>
    call<{ game: GameView | null; seek: SeekView | null }>('POST', '/api/seeks/quick', { variant, time_control, rated }),
  challenge: (username: string, terms: Terms) => call<ChallengeView>('POST', '/api/challenges', { username, ...terms }),
  challenges: () => call<{ incoming: ChallengeView[]; outgoing: ChallengeView[] }>('GET', '/api/challenges'),
  acceptChallenge: (c: string) => call<GameView>('POST', `/api/challenges/${id(c)}/accept`, {}),
  declineChallenge: (c: string) => call<void>('POST', `/api/challenges/${id(c)}/decline`, {}),
  cancelChallenge: (c: string) => call<void>('DELETE', `/api/challenges/${id(c)}`, {}),
  streamUrl: '/api/lobby',
};
