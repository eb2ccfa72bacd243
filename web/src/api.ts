// The server's HTTP/JSON API (docs/api.md): types of what it sends and thin fetch wrappers.
// Every call sends the `icebound_player` cookie (same origin), which holds this browser's seats.

import { moveLag } from './net_lag';
import { noteServer } from './online';

export type Variant = 'antarctos' | 'iceage';
export type Color = 'white' | 'black';
export type Status = 'ongoing' | 'finished' | 'aborted';

/** A seat: held by a person, played by the engine, or still open (a friend game). */
export interface Seat {
  kind: 'human' | 'engine' | 'open';
  level?: number;
  /** The holder's account name, when it sat down logged in. */
  username?: string;
  /** The holder's rating in the game and speed (a clocked game's account seat, issue 41). */
  rating?: PlayerRating;
  /** A BOT account's seat (issue 44), marked "BOT" before the name. */
  bot?: boolean;
}

/** A rating beside a name: rounded; provisional ones are shown with "?". */
export interface PlayerRating {
  rating: number;
  provisional: boolean;
}

/** A frozen piece of an Ice Age: its square, its colour and its role letter (`k`, `q`, ... `p`). */
export interface FrozenPiece {
  square: string;
  color: Color;
  role: string;
}

/** What one Ice Age did (C5-C9), as the server judged it. */
export interface IceAgeFacts {
  /** Pieces that froze (C6): removed and replaced by ice. */
  frozen: FrozenPiece[];
  /** Empty squares that received ice (the frozen squares are not repeated here). */
  filled: string[];
  /** Empty squares left empty: closed on all four orthogonal sides (C6). */
  closed: string[];
  /** The position after Black's move, before the Ice Age. */
  before_fen: string;
  /** Kings that froze (C7): one loses, two draw. */
  kings_frozen: Color[];
}

export interface MoveView {
  ply: number;
  number: number;
  color: Color;
  text: string;
  id: string;
  path: string[];
  fen: string;
  /** English note of the event (`Ice Age: Rh8 frozen`); the page words `ice_age` itself. */
  event: string | null;
  /** Antarctos: men captured by this turn (they became ice, A8). */
  captured?: string[];
  /** Antarctos: ice jumped (melted) by this turn (A7). */
  melted?: string[];
  /** Ice Age Chess: the Ice Age this move brought. */
  ice_age?: IceAgeFacts | null;
}

export interface LegalMove {
  id: string;
  text: string;
  path: string[];
}

export interface ResultView {
  result: string;
  winner: Color | null;
  /** A stable code (docs/api.md): `breakthrough`, `checkmate`, `frozen king`, ... */
  reason: string;
  /** The server's English sentence (the page words the result itself from `winner` and `reason`). */
  words: string;
}

/** A server event worth telling the players: a stable code and its parameters. */
export interface Notice {
  code: string;
  /** Who did it, when a side did. */
  by?: Color | null;
  /** The state version it came with: shown once. */
  version: number;
}

/** What the asking token may do now (the server decides; the page only shows buttons). */
export type Action =
  | 'move' | 'resign' | 'abort'
  | 'offer_draw' | 'accept_draw' | 'decline_draw'
  | 'takeback' | 'offer_takeback' | 'accept_takeback' | 'decline_takeback'
  | 'rematch' | 'accept_rematch' | 'decline_rematch';

export interface GameView {
  id: string;
  variant: Variant;
  title: string;
  you: Color | 'both' | null;
  white: Seat;
  black: Seat;
  status: Status;
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
  /** The tournament that paired the game (absent otherwise). */
  tournament?: string;
  rematch?: string | null;
  engine_thinking?: boolean;
  /** Grows by one with every change of the game: a state is newer when its version is. */
  version?: number;
  /** What the caller may do now. */
  actions?: Action[];
  takeback_offer?: Color | null;
  rematch_offer?: Color | null;
  notice?: Notice | null;
  /** Antarctos: a capture is compulsory now (A9): every legal turn starts with one. */
  capture_compulsory?: boolean;
  /** Ice Age Chess: Black moves left until the next Ice Age, counting the one that brings it. */
  ice_age_in?: number | null;
  /** The analysis board of this game, once the site has one. */
  analysis_url?: string | null;
  /** The clock when the state was made (the server is its authority); null: unlimited. */
  clock?: ClockView | null;
  /** Whether the game counts for ratings. */
  rated?: boolean;
  /** Why a game played as rated did not count (issue 41): `pair_limit`, the same two
   *  accounts' sixth rated game in 24 hours; `sandbag`, a player held for many quick rated
   *  losses; `marked`, a player marked by the moderators; absent otherwise. */
  unrated?: 'pair_limit' | 'sandbag' | 'marked';
  /** A game played offline in the browser and uploaded (unrated, against the computer). */
  offline?: boolean;
  /** A real-time game's player whose pages all closed (issue 38); absent otherwise. */
  gone?: { side: Color; since_ms: number; claim_at_ms: number };
}

/** A finished game against the computer played offline, as `POST /api/games/upload` takes it. */
export interface UploadGame {
  variant: Variant;
  /** The moves from the start position. */
  moves: string[];
  level: number;
  /** The player's colour. */
  color: Color;
  result: '1-0' | '0-1' | '1/2-1/2';
}

/** A game's clock: times in ms; `deadline_ms` is Unix ms (null while stopped). */
export type ClockView =
  | { kind: 'realtime'; initial_ms: number; increment_ms: number; white_ms: number; black_ms: number; running: Color | null;
      /** Time the running side has left for its first move; null once both sides moved. */
      first_move_ms?: number | null }
  | { kind: 'correspondence'; days: number; deadline_ms: number | null; running: Color | null; vacation_until_ms?: number | null };

/** A time control as asked for (`POST /api/games`, seeks). */
export type TimeControl =
  | { kind: 'realtime'; initial_s: number; increment_s: number }
  | { kind: 'correspondence'; days: number }
  | { kind: 'unlimited' };

/** One line of "my games". Times are Unix milliseconds. */
export interface GameSummary {
  id: string;
  variant: Variant;
  title: string;
  you: Color | 'both' | null;
  white: Seat;
  black: Seat;
  status: Status;
  turn: Color;
  ply: number;
  your_turn: boolean;
  result: ResultView | null;
  created_at: number;
  updated_at: number;
  clock?: ClockView | null;
  rated?: boolean;
  /** Played offline in the browser and uploaded: unverified. Sent only when true. */
  offline?: boolean;
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
  /** A friend game's clock (unlimited when absent). */
  time_control?: TimeControl;
  /** A rated friend game (both players need an account). */
  rated?: boolean;
}

/** An error the server reported (`{"error": {"code", "message"}}`) or a network failure
 * (code `network`). The page words it by its code (i18n `errorWords`). */
/** `POST /api/positions`: one legal move and the position after it. */
export interface NextMove extends LegalMove {
  fen: string;
  event: string | null;
  /** Ice Age Chess: what the Ice Age this move brings does (only on such a move). */
  ice_age?: IceAgeFacts | null;
}

/** `POST /api/positions`: a position's facts, all from the rules crates. */
export interface PositionView {
  variant: Variant;
  fen: string;
  turn: Color;
  /** The move number of the side to move. */
  number: number;
  legal: NextMove[];
  result: ResultView | null;
  capture_compulsory: boolean;
  ice_age_in: number | null;
}

/** `POST /api/solve`: a proven result for the side to move, or none within `max_plies`. */
export interface SolveView {
  result: 'win' | 'loss' | 'unknown';
  winner: Color | null;
  plies: number | null;
  line: string[];
  max_plies: number;
  stopped: boolean;
  nodes: number;
}

/** `POST /api/records/read`: one move of a game's tree. */
export interface RecordNode {
  id: string;
  text: string;
  path: string[];
  fen: string;
  number: number;
  color: Color;
  event: string | null;
  /** Ice Age Chess: what the Ice Age this move brought did, from the rules (only on such a move). */
  ice_age?: IceAgeFacts | null;
  nags: number[];
  comments: string[];
  variations: RecordNode[][];
}

/** `POST /api/records/read`: the games of a record file, and the errors of the others. */
export interface RecordsRead {
  games: { game: number; tags: [string, string][]; start_fen: string; result: string; moves: RecordNode[] }[];
  errors: { game: number; line: number | null; message: string; move_number: number | null; side: Color | null; reason: string }[];
}

/** One game of a record file as read: tags, start, result and move tree. */
export type RecordGame = RecordsRead['games'][number];

/** `POST /api/import`: the games stored (each opens at `/analysis/import/<id>`) and the errors
 * of the others. */
export interface ImportView {
  variant: Variant;
  games: { id: string; game: number; white: string; black: string; event: string; result: string; plies: number; bad_move?: ImportBadMove | null }[];
  errors: RecordsRead['errors'];
  warnings: { game: number | null; line: number | null; message: string }[];
}

/** The main-line move an imported game stopped before (issue 41): the game opens up to it. */
export interface ImportBadMove {
  ply: number;
  move_number: number | null;
  side: 'white' | 'black' | null;
  line: number | null;
  text: string;
  message: string;
  left_out: number;
}

/** `GET /api/imports/<id>`: an imported game. */
export interface ImportedGame {
  id: string;
  variant: Variant;
  record: RecordGame;
}

/** A position's evaluation for White: centi-units, a proven win in plies (White's when
 * positive), or the result of a finished position. */
export type WhiteScore = { cp: number } | { mate: number } | { end: string };

/** The computer analysis of a whole game (`/api/games/<id>/review`, `/api/imports/<id>/review`). */
export interface ReviewView {
  status: 'running' | 'done' | 'failed';
  done: number;
  total: number;
  nodes: number;
  evals: { ply: number; turn: Color; played: string | null; score: WhiteScore; best: string | null; pv: string[]; depth: number }[];
  marks: { ply: number; color: Color; kind: 'inaccuracy' | 'mistake' | 'blunder'; played: string; better: string; loss: number }[];
  summary: Record<Color, { inaccuracies: number; mistakes: number; blunders: number }>;
}

/** What a review is of: a game played here, or an imported one. */
export interface ReviewSubject {
  kind: 'games' | 'imports';
  id: string;
}

export class ApiError extends Error {
  constructor(
    public code: string,
    message: string,
    public status: number,
    /** The game the error is about when the request did not name it (a used or cancelled
     * invitation: docs/api.md, Errors). */
    public game?: string,
    /** For `illegal_move` and `ambiguous_move`: the move text's fault as data, which the page
     * words in its own language (docs/api.md, Errors). */
    public move?: MoveFault,
    /** For a `bad_request` about position text: the rules' fault as data, which the page
     * words in its own language (docs/api.md, Errors). */
    public position?: PositionFault,
  ) {
    super(message);
  }
}

/** Why move text was not played: `unreadable` (no accepted form), `no_match` (no legal move is
 * this one) or `ambiguous`; `candidates` are the legal moves it could have meant. */
export interface MoveFault {
  text: string;
  kind: 'unreadable' | 'no_match' | 'ambiguous';
  candidates: string[];
  /** Why no legal move is this one, when one reason can be told (`why.<code>` words it). */
  reason?: { code: string; squares: string[] } | null;
}

/** Why position text was refused (Antarctos A18, Ice Age Chess C12): a code (`pos.<code>` words
 * it) and the values it names, in order; a side is `white` or `black`, always first. */
export interface PositionFault {
  code: string;
  args: string[];
}

/** One request to the API: the parsed answer, or an `ApiError`. */
export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    // A state-changing request always sends a JSON body with its content type (docs/api.md).
    const send = method !== 'GET';
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: send ? { 'Content-Type': 'application/json' } : {},
      body: send ? JSON.stringify(body ?? {}) : undefined,
    });
  } catch (e) {
    noteServer(false);
    throw new ApiError('network', `The server cannot be reached (${String(e)})`, 0);
  }
  noteServer(true);
  const text = await res.text();
  let data: unknown = undefined;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (!res.ok) {
    const err = (data as { error?: { code?: string; message?: string; game?: string; move?: MoveFault; position?: PositionFault } } | undefined)?.error;
    throw new ApiError(err?.code ?? 'http', err?.message ?? `${res.status} ${res.statusText}`, res.status, err?.game, err?.move, err?.position);
  }
  return data as T;
}

const game = (id: string) => `/api/games/${encodeURIComponent(id)}`;

export type Answer = 'offer' | 'accept' | 'decline';

/** `GET /api/me/email` (docs/api.md, E-mail). */
export interface EmailView {
  email: string | null;
  verified: boolean;
  digest: boolean;
  low_time: boolean;
  mail_on: boolean;
}

/** `GET /api/me/vacation` (docs/api.md, Vacation). */
export interface VacationsView {
  year: number;
  days_left: number;
  max_days: number;
  vacations: { start_ms: number; end_ms: number; days: number; current: boolean }[];
}

export const api = {
  createGame: (g: NewGame) => call<GameView>('POST', '/api/games', g),
  /** Stores a finished offline game against the computer (the same upload twice: one game). */
  uploadGame: (u: UploadGame) => call<GameView>('POST', '/api/games/upload', u),
  game: (id: string) => call<GameView>('GET', game(id)),
  join: (invite: string) => call<GameView>('POST', `/api/join/${encodeURIComponent(invite)}`, {}),
  /** A move chosen in `held`: the answer carries only the new move (`moves_from`, docs/api.md)
   * and is given back whole, `held`'s moves and the new one. */
  move: async (id: string, move: string, held: GameView): Promise<GameView> => {
    const path = `${game(id)}/moves`;
    let a: GameView & { moves_from?: number };
    try {
      a = await call<GameView & { moves_from?: number }>('POST', path, { move, ply: held.ply, version: held.version, lag: moveLag() });
    } catch (err) {
      // A server older than `version` (a rolling upgrade) refuses the field and stores
      // nothing: the same move without it.
      if (!(err instanceof ApiError && err.code === 'bad_request' && /\bversion\b/.test(err.message))) throw err;
      a = await call<GameView>('POST', path, { move, ply: held.ply, lag: moveLag() });
    }
    const from = a.moves_from;
    if (typeof from !== 'number') return a;
    delete a.moves_from;
    // Cannot happen when `held` is the version the server named; read the game if it does.
    if (held.moves.length < from) return call<GameView>('GET', game(id));
    return { ...a, moves: held.moves.slice(0, from).concat(a.moves) };
  },
  resign: (id: string) => call<GameView>('POST', `${game(id)}/resign`, {}),
  abort: (id: string) => call<GameView>('POST', `${game(id)}/abort`, {}),
  draw: (id: string, action: Answer) => call<GameView>('POST', `${game(id)}/draw`, { action }),
  /** A takeback asked at ply `ply`: at any other ply the server takes nothing back
   * (`conflict`), so a doubled or resent request takes back once. */
  takeback: async (id: string, action: Answer, ply: number): Promise<GameView> => {
    const path = `${game(id)}/takeback`;
    try {
      return await call<GameView>('POST', path, { action, ply });
    } catch (err) {
      // A server older than the field (a rolling upgrade) refuses it and changes nothing;
      // the request goes again without it, so without its guard (the page's double-tap guard
      // still holds). Every 400 of this route comes before any change.
      if (!(err instanceof ApiError && err.code === 'bad_request' && /\bply\b/.test(err.message))) throw err;
      return call<GameView>('POST', path, { action });
    }
  },
  rematch: (id: string, action: Answer = 'offer') => call<GameView>('POST', `${game(id)}/rematch`, { action }),
  myGames: () => call<GameSummary[]>('GET', '/api/my-games'),
  position: (variant: Variant, fen: string) => call<PositionView>('POST', '/api/positions', { variant, fen }),
  readRecords: (variant: Variant, text: string) => call<RecordsRead>('POST', '/api/records/read', { variant, text }),
  me: () => call<{ username: string | null }>('GET', '/api/me'),
  vacations: () => call<VacationsView>('GET', '/api/me/vacation'),
  email: () => call<EmailView>('GET', '/api/me/email'),
  setEmail: (email: string) => call<EmailView>('POST', '/api/me/email', { email }),
  emailKinds: (digest: boolean, low_time: boolean) => call<EmailView>('PUT', '/api/me/email/settings', { digest, low_time }),
  askReset: (username: string) => call<Record<string, never>>('POST', '/api/password-reset', { username }),
  resetPassword: (token: string, password: string) => call<Record<string, never>>('POST', '/api/password-reset/confirm', { token, password }),
  setVacation: (start_ms: number, days: number) => call<VacationsView>('POST', '/api/me/vacation', { start_ms, days }),
  endVacation: (start_ms: number) => call<VacationsView>('DELETE', `/api/me/vacation/${start_ms}`, {}),
  register: (username: string, password: string) => call<{ username: string }>('POST', '/api/accounts', { username, password }),
  logIn: (username: string, password: string) => call<{ username: string }>('POST', '/api/session', { username, password }),
  logOut: () => call<{ username: null }>('DELETE', '/api/session', {}),
  changePassword: (old_password: string, new_password: string) => call<{ username: string }>('POST', '/api/me/password', { old_password, new_password }),
  importRecords: (file: { text: string } | { base64: string }) => call<ImportView>('POST', '/api/import', file),
  imported: (id: string) => call<ImportedGame>('GET', `/api/imports/${encodeURIComponent(id)}`),
  review: (s: ReviewSubject) => call<ReviewView>('GET', `/api/${s.kind}/${encodeURIComponent(s.id)}/review`),
  requestReview: (s: ReviewSubject) => call<ReviewView>('POST', `/api/${s.kind}/${encodeURIComponent(s.id)}/review`, {}),
  solve: (variant: Variant, fen: string) => call<SolveView>('POST', '/api/solve', { variant, fen }),
  stats: () => call<Record<string, VariantStats>>('GET', '/api/stats'),
  recordUrl: (id: string) => `${game(id)}/record`,
  /** The game's socket; `since`, the version a reconnecting socket holds, asks for the states
   * it missed, in order (docs/api.md). */
  wsUrl: (id: string, since?: number) => {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    // Each state carries only the moves after those already sent on the socket.
    const replay = since === undefined ? '' : `&since=${since}`;
    return `${proto}//${location.host}${game(id)}/ws?moves=changes${replay}`;
  },
};
