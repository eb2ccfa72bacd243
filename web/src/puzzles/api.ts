// The puzzles part of the HTTP API (docs/api.md, "Puzzles", issue 39): a puzzle near the
// player's puzzle rating, one by id, the daily one, a streak, the themes with their counts, an
// attempt and the player's dashboard. Kept apart from api.ts; it uses the same `call`.

import { call, type Variant } from '../api';

/** Antarctos' themes, then Ice Age Chess's, as the server names them. */
export const THEMES: Record<Variant, string[]> = {
  antarctos: ['ice_jump', 'ice_springboard', 'breakthrough', 'sacrifice', 'forced_capture', 'backward_capture'],
  iceage: ['mate', 'frozen_king', 'ice_age_timing', 'ice_capture', 'sacrifice'],
};

/** A Glicko-2 rating as an anonymous player's browser session keeps it. */
export interface SessionRating {
  rating: number;
  deviation: number;
  volatility: number;
}

/** The game a puzzle was mined from, and whether its player found the win there. */
export interface PuzzleSource {
  game: string;
  ply: number;
  seen: 'found' | 'missed' | null;
  /** `/game/<id>` when the game is a public game of the site. */
  url: string | null;
}

export interface Puzzle {
  id: string;
  variant: Variant;
  /** The start position, the solver to move. */
  fen: string;
  /** Both sides' moves in the game's move text, starting with the solver's. */
  solution: string[];
  rating: number;
  plays: number;
  /** The solver's moves. */
  length: number;
  themes: string[];
  hint: string | null;
  source: PuzzleSource | null;
  /** The logged-in player's puzzle rating and whether they tried this puzzle (null: anonymous). */
  you: { rating: number; deviation: number; attempted: boolean } | null;
  /** The daily puzzle's day (`YYYY-MM-DD`). */
  date?: string;
}

export interface AttemptBody {
  moves: string[];
  rated: boolean;
  session_rating?: SessionRating;
}

export interface AttemptResult {
  solved: boolean;
  /** The 0-based ply of the first wrong move. */
  failed_at: number | null;
  rating: { before: number; after: number } | null;
  session_rating: SessionRating | null;
  puzzle: { rating: number; plays: number };
}

export interface ThemeCounts {
  total: number;
  themes: { theme: string; count: number }[];
}

export interface DashboardRating {
  rating: number;
  deviation: number;
  provisional: boolean;
  attempts: number;
  solved: number;
}

export interface DashboardAttempt {
  id: string;
  variant: Variant;
  solved: boolean;
  rated: boolean;
  /** Unix ms. */
  at: number;
  /** The player's puzzle rating before and after, when rated. */
  rating_before: number | null;
  rating_after: number | null;
  puzzle_rating: number;
  themes: string[];
}

export interface Dashboard {
  ratings: Record<Variant, DashboardRating | null>;
  recent: DashboardAttempt[];
  themes: { variant: Variant; theme: string; attempts: number; solved: number; failed: number }[];
}

export interface NextQuery {
  theme?: string;
  rating?: number;
  exclude?: string[];
}

const puzzle = (id: string) => `/api/puzzles/${encodeURIComponent(id)}`;

export const puzzlesApi = {
  next: (variant: Variant, q: NextQuery = {}) => {
    const p = new URLSearchParams({ variant });
    if (q.theme) p.set('theme', q.theme);
    if (q.rating !== undefined) p.set('rating', String(Math.round(q.rating)));
    if (q.exclude?.length) p.set('exclude', q.exclude.slice(-100).join(','));
    return call<Puzzle>('GET', `/api/puzzles/next?${p}`);
  },
  get: (id: string) => call<Puzzle>('GET', puzzle(id)),
  daily: (variant: Variant) => call<Puzzle & { date: string }>('GET', `/api/puzzles/daily?variant=${variant}`),
  /** A batch of a streak; `after`: the last puzzle of the batch before (the next climbs from
   * there), `exclude`: the puzzles this streak played (the newest 100 are sent). */
  streak: (variant: Variant, after?: string, exclude: string[] = []) => {
    let q = `variant=${variant}`;
    if (after) q += `&after=${encodeURIComponent(after)}`;
    if (exclude.length) q += `&exclude=${exclude.slice(-100).map(encodeURIComponent).join(',')}`;
    return call<{ puzzles: Puzzle[] }>('GET', `/api/puzzles/streak?${q}`);
  },
  themes: (variant: Variant) => call<ThemeCounts>('GET', `/api/puzzles/themes?variant=${variant}`),
  attempt: (id: string, body: AttemptBody) => call<AttemptResult>('POST', `${puzzle(id)}/attempt`, body),
  dashboard: () => call<Dashboard>('GET', '/api/puzzles/dashboard'),
};
