// The ratings part of the HTTP API (docs/api.md, "Players and ratings"): profiles, rating
// history, a player's games, leaderboards and the rated games' statistics. Kept apart from
// api.ts; it uses the same `call` conventions through `getJson`.

import { ApiError, type ResultView, type Variant, type VariantStats } from './api';
import { noteServer } from './online';

export type Speed = 'realtime' | 'correspondence';
export const SPEEDS: Speed[] = ['realtime', 'correspondence'];

/** One rating: rounded rating, RD (one decimal), volatility, rated games, RD over 110. */
export interface RatingView {
  rating: number;
  rd: number;
  volatility: number;
  games: number;
  provisional: boolean;
}

export interface PlayerView {
  /** `BOT` for a BOT account (issue 44, docs/bot-api.md); absent otherwise. */
  title?: string;
  username: string;
  ratings: Record<Variant, Record<Speed, RatingView>>;
  games: { total: number; wins: number; losses: number; draws: number };
  /** The player's own words (plain text; issue 41), or null. */
  bio: string | null;
  /** ISO 3166-1 alpha-2 code, or null. */
  country: string | null;
  /** Recent games, tournaments, puzzles and follows. */
  activity: Activity;
}

/** A profile's recent activity (docs/api.md, "Preferences and profile"). */
export interface Activity {
  games: PlayerGame[];
  tournaments: { id: string; name: string; variant: Variant; status: string; won: boolean }[];
  puzzles: { attempted: number; solved: number };
  follows: { username: string; at: number }[];
}

export interface HistoryPoint {
  game: string;
  rating: number;
  rd: number;
  /** Unix ms. */
  at: number;
}

export type History = Record<Variant, Record<Speed, HistoryPoint[]>>;

export interface PlayerGame {
  id: string;
  variant: Variant;
  status: 'ongoing' | 'finished';
  rated: boolean;
  speed: Speed | null;
  color: 'white' | 'black';
  opponent: { kind: 'human' | 'engine'; username?: string; level?: number };
  outcome: 'win' | 'loss' | 'draw' | null;
  result: ResultView | null;
  ply: number;
  rating_diff: number | null;
  rating_after: number | null;
  provisional: boolean | null;
  updated_at: number;
  /** Played offline in the browser and uploaded: unverified. Sent only when true. */
  offline?: boolean;
}

export interface PlayerGames {
  page: number;
  more: boolean;
  games: PlayerGame[];
}

export interface BoardLine {
  rank: number;
  username: string;
  rating: number;
  rd: number;
  games: number;
}

export type Leaderboard = { variant: Variant } & Record<Speed, BoardLine[]>;

/** One side's change in a rated game (GameView's `ratings`). */
export interface SideChange {
  username: string;
  before: number;
  after: number;
  diff: number;
  provisional: boolean;
}

export type GameRatings = { white: SideChange; black: SideChange } | null;

export type RatedStats = { min: number | null; max: number | null } & Record<Variant, VariantStats>;

async function getJson<T>(path: string): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, { credentials: 'same-origin' });
  } catch (e) {
    noteServer(false);
    throw new ApiError('network', `The server cannot be reached (${String(e)})`, 0);
  }
  noteServer(true);
  const data = await res.json().catch(() => undefined) as { error?: { code?: string; message?: string } } | undefined;
  if (!res.ok) throw new ApiError(data?.error?.code ?? 'http', data?.error?.message ?? `${res.status}`, res.status);
  return data as T;
}

const player = (name: string) => `/api/players/${encodeURIComponent(name)}`;

export const ratingsApi = {
  player: (name: string) => getJson<PlayerView>(player(name)),
  history: (name: string) => getJson<History>(`${player(name)}/history`),
  games: (name: string, variant: Variant | null, page: number) =>
    getJson<PlayerGames>(`${player(name)}/games?page=${page}${variant ? `&variant=${variant}` : ''}`),
  leaderboard: (variant: Variant) => getJson<Leaderboard>(`/api/leaderboard/${variant}`),
  ratedStats: (min: number | null, max: number | null) =>
    getJson<RatedStats>(`/api/stats/rated?${min !== null ? `min=${min}` : ''}${max !== null ? `&max=${max}` : ''}`),
};

/** A rating as shown: `1500?` while provisional (RD over 110), as lichess. */
export function shownRating(rating: number, provisional: boolean): string {
  return `${rating}${provisional ? '?' : ''}`;
}

/** A rating change as shown: `+12`, `−8` (a true minus sign), `±0`. */
export function shownDiff(diff: number): string {
  if (diff > 0) return `+${diff}`;
  if (diff < 0) return `−${-diff}`;
  return '±0';
}
