// The answers of the HTTP API as the e2e scripts read them (lib.mjs `api`), by path: the same
// types the page uses (web/src/api.ts), so that `npm run check` catches a script reading a
// field the API does not have.

import type { GameSummary, GameView, ImportView, MoveFault, NewGame, PositionFault, PositionView, VariantStats } from '../src/api';
import type { GameRatings } from '../src/ratings_api';
import type { NotificationItem } from '../src/notify/api';
import type { AttemptResult, Dashboard, Puzzle, ThemeCounts } from '../src/puzzles/api';

/** A refusal's body (docs/api.md, errors). */
export interface ErrorBody {
  error?: { code: string; message: string; move?: MoveFault; position?: PositionFault };
}

/** A game as the API shows it: a rated game once rated carries the seats' ratings. */
export type Game = GameView & { ratings?: GameRatings };

/** What `path` answers (a refusal carries `error` instead). */
export type Answer<P extends string> =
  P extends '/api/stats' ? Record<string, VariantStats>
  : P extends '/api/puzzles/dashboard' ? Dashboard & ErrorBody
  : P extends `/api/puzzles/${string}/attempt` ? AttemptResult & ErrorBody
  : P extends `/api/puzzles/streak${string}` ? { puzzles: Puzzle[] } & ErrorBody
  : P extends `/api/puzzles/themes${string}` ? ThemeCounts & ErrorBody
  : P extends `/api/puzzles/${string}` ? Puzzle & ErrorBody
  : P extends '/api/my-games' ? GameSummary[]
  : P extends '/api/positions' ? PositionView & ErrorBody
  : P extends '/api/import' ? ImportView & ErrorBody
  : P extends '/api/notifications' ? { unread: number; items: NotificationItem[] }
  : P extends `/api/games/${string}/chat` ? { players?: unknown[]; watchers: unknown[]; chat_off: boolean; opponent_muted?: boolean } & ErrorBody
  : P extends '/api/games' | `/api/join/${string}` | `/api/games/${string}` ? Game & ErrorBody
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  : any;

/** What a call to `path` sends. */
export type Body<P extends string> = P extends '/api/games' ? Partial<NewGame> & Record<string, unknown> : unknown;
