// The server's HTTP/JSON API (docs/api.md): types of what it sends and thin fetch wrappers.
// Every call sends the `icebound_player` cookie (same origin), which holds this browser's seats.

export type Variant = 'antarctos' | 'iceage';
export type Color = 'white' | 'black';

/** A seat: held by a person, played by the engine, or still open (a friend game). */
export interface Seat {
  kind: 'human' | 'engine' | 'open';
  level?: number;
}

export interface MoveView {
  ply: number;
  number: number;
  color: Color;
  text: string;
  id: string;
  path: string[];
  fen: string;
  event: string | null;
}

export interface LegalMove {
  id: string;
  text: string;
  path: string[];
}

export interface ResultView {
  result: string;
  winner: Color | null;
  reason: string;
  words: string;
}

export interface GameView {
  id: string;
  variant: Variant;
  title: string;
  you: Color | 'both' | null;
  white: Seat;
  black: Seat;
  status: 'ongoing' | 'finished';
  fen: string;
  start_fen: string;
  turn: Color;
  ply: number;
  moves: MoveView[];
  legal: LegalMove[];
  draw_offer: Color | null;
  result: ResultView | null;
  invite_url?: string | null;
  rematch_of?: string | null;
  rematch?: string | null;
  engine_thinking?: boolean;
}

/** One line of "my games". Times are Unix milliseconds. */
export interface GameSummary {
  id: string;
  variant: Variant;
  title: string;
  you: Color | 'both' | null;
  white: Seat;
  black: Seat;
  status: 'ongoing' | 'finished';
  turn: Color;
  ply: number;
  your_turn: boolean;
  result: ResultView | null;
  created_at: number;
  updated_at: number;
}

export interface VariantStats {
  white: number;
  black: number;
  draws: number;
  total: number;
  white_pct: number;
  black_pct: number;
  draws_pct: number;
  /** Stored `icebound selfplay` runs, newest first (docs/api.md). */
  selfplay?: LabRun[];
  /** Stored `icebound match` runs, newest first. */
  matches?: LabRun[];
}

/** One stored engine lab run (docs/api.md, `GET /api/stats`). */
export interface LabRun {
  id: string;
  variant: string;
  kind: 'selfplay' | 'match';
  setting: string;
  seed: string;
  random_plies: number;
  max_plies: number;
  games: number;
  white_wins: number;
  black_wins: number;
  draws: number;
  capped: number;
  end_reasons: Record<string, number>;
  mean_plies: number | null;
  longest_plies: number;
  white_score: number | null;
  white_lower: number | null;
  white_upper: number | null;
  match: {
    setting_b: string;
    a_wins: number;
    a_draws: number;
    a_losses: number;
    elo: number | null;
    elo_error: number | null;
    sprt: { params: string; verdict: string; llr: number } | null;
  } | null;
  duration_ms: number;
  version: string;
  finished_at: number;
  white_pct: number;
  black_pct: number;
  draws_pct: number;
  capped_pct: number;
}

export interface NewGame {
  variant: Variant;
  opponent: 'engine' | 'friend' | 'local';
  level?: number;
  color: Color | 'random';
  fen?: string;
}

/** An error the server reported (`{"error": {"code", "message"}}`) or a network failure. */
export class ApiError extends Error {
  constructor(
    public code: string,
    message: string,
    public status: number,
  ) {
    super(message);
  }
}

/** Every request that changes something sends a JSON body (`{}` when there is nothing to say):
 * the server refuses other content types, which is what keeps other sites' forms out. */
async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError('network', `The server cannot be reached (${String(e)})`, 0);
  }
  const text = await res.text();
  let data: unknown = undefined;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (!res.ok) {
    const err = (data as { error?: { code?: string; message?: string } } | undefined)?.error;
    throw new ApiError(err?.code ?? 'http', err?.message ?? `${res.status} ${res.statusText}`, res.status);
  }
  return data as T;
}

export const api = {
  createGame: (g: NewGame) => call<GameView>('POST', '/api/games', g),
  game: (id: string) => call<GameView>('GET', `/api/games/${encodeURIComponent(id)}`),
  join: (invite: string) => call<GameView>('POST', `/api/join/${encodeURIComponent(invite)}`, {}),
  move: (id: string, move: string, ply: number) =>
    call<GameView>('POST', `/api/games/${encodeURIComponent(id)}/moves`, { move, ply }),
  resign: (id: string) => call<GameView>('POST', `/api/games/${encodeURIComponent(id)}/resign`, {}),
  draw: (id: string, action: 'offer' | 'accept' | 'decline') =>
    call<GameView>('POST', `/api/games/${encodeURIComponent(id)}/draw`, { action }),
  rematch: (id: string) => call<GameView>('POST', `/api/games/${encodeURIComponent(id)}/rematch`, {}),
  myGames: () => call<GameSummary[]>('GET', '/api/my-games'),
  stats: () => call<Record<string, VariantStats>>('GET', '/api/stats'),
  recordUrl: (id: string) => `/api/games/${encodeURIComponent(id)}/record`,
  wsUrl: (id: string) => {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    return `${proto}//${location.host}/api/games/${encodeURIComponent(id)}/ws`;
  },
};

/** The message to show for a failed call. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
