// The tournaments part of the HTTP API (docs/api.md, "Tournaments", issue 40).

import { call, type Variant } from '../api';
import { controlLabel as lobbyLabel } from '../lobby/time_control';

export type Kind = 'arena' | 'swiss' | 'round_robin';
export type TStatus = 'created' | 'started' | 'finished' | 'canceled';
export type PairingResult = 'white' | 'black' | 'draw' | 'white_forfeit' | 'black_forfeit' | 'double_forfeit' | 'bye';

export interface TimeControl { kind: 'realtime' | 'correspondence'; initial_s?: number; increment_s?: number; days?: number }

export interface Standing {
  rank: number;
  username: string;
  points: number;
  tiebreaks?: { buchholz_cut1: number; sonneborn_berger: number; direct_encounter: number };
  sheet?: number[];
  fire?: boolean;
  games: number;
  rating: number;
  withdrawn?: boolean;
  paused?: boolean;
}

export interface PairingView {
  round: number;
  board: number;
  white: string;
  black: string | null;
  game: string | null;
  result: PairingResult | null;
  ended_at: number | null;
  berserk_white?: boolean;
  berserk_black?: boolean;
}

export interface TournamentView {
  id: string;
  kind: Kind;
  status: TStatus;
  name: string;
  variant: Variant;
  time_control: TimeControl;
  rated: boolean;
  starts_at: number;
  started_at: number | null;
  ends_at: number | null;
  finished_at: number | null;
  minutes: number | null;
  rounds: number | null;
  round: number;
  double: boolean;
  min_players: number;
  max_players: number;
  conditions: { min_rated_games?: number; min_rating?: number; max_rating?: number };
  players: number;
  scheduled: boolean;
  version: number;
  standings: Standing[];
  pairings: PairingView[];
  podium?: string[];
  me: { joined: boolean; withdrawn: boolean; paused: boolean; game: string | null; creator: boolean } | null;
}

export type TournamentSummary = Pick<TournamentView, 'id' | 'kind' | 'status' | 'name' | 'variant' | 'time_control' | 'rated' | 'starts_at' | 'ends_at' | 'minutes' | 'rounds' | 'scheduled'>
  & { players?: number; winners?: string[] };

const base = (id: string) => `/api/tournaments/${encodeURIComponent(id)}`;

export const tournamentsApi = {
  list: (status: TStatus) => call<TournamentSummary[]>('GET', `/api/tournaments?status=${status}`),
  get: (id: string) => call<TournamentView>('GET', base(id)),
  create: (body: Record<string, unknown>) => call<{ id: string }>('POST', '/api/tournaments', body),
  act: (id: string, action: 'join' | 'withdraw' | 'pause' | 'resume' | 'start' | 'berserk') => call<void>('POST', `${base(id)}/${action}`),
  ofPlayer: (name: string) => call<(TournamentSummary & { place: number | null })[]>('GET', `/api/players/${encodeURIComponent(name)}/tournaments`),
  streamUrl: (id: string) => `${base(id)}/stream`,
  trfUrl: (id: string) => `${base(id)}/trf`,
  gamesUrl: (id: string) => `${base(id)}/games`,
};

/** `3+2`, `2 days`, in the page's language (the lobby's words). */
export function controlLabel(c: TimeControl): string {
  if (c.kind === 'correspondence') return lobbyLabel({ kind: 'correspondence', days: c.days ?? 1 });
  return lobbyLabel({ kind: 'realtime', initial_s: c.initial_s ?? 0, increment_s: c.increment_s ?? 0 });
}
