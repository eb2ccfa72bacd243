// The game as the page knows it: the newest GameView received (an HTTP answer or a WebSocket
// `state`), never replaced by an older one, and what the asking player may do in it.

import type { Action, Color, GameView, MoveView } from '../api';

const rank = (s: GameView['status']) => (s === 'ongoing' ? 0 : 1);

/**
 * Whether `next` is a newer state of the game than `cur`. The server's `version` grows with
 * every change; without it, a higher ply or an ended game is newer, and an ended game never
 * goes back to ongoing. A state of the same version is not newer (a repeated broadcast).
 */
export function isNewer(next: GameView, cur: GameView | null): boolean {
  if (!cur) return true;
  if (next.id !== cur.id) return false;
  if (next.version !== undefined && cur.version !== undefined) return next.version > cur.version;
  if (rank(next.status) !== rank(cur.status)) return rank(next.status) > rank(cur.status);
  return next.ply >= cur.ply;
}

/** The colours the asking token plays (two on a shared screen, none for a watcher). */
export function myColors(g: GameView): Color[] {
  return g.you === 'both' ? ['white', 'black'] : g.you ? [g.you] : [];
}

/** Whether a friend game still waits for the friend to take the open seat. */
export function waitingForFriend(g: GameView): boolean {
  return g.status === 'ongoing' && (g.white.kind === 'open' || g.black.kind === 'open');
}

/** What the asking token may do now: the server's `actions` (docs/api.md). */
export function actionsOf(g: GameView): Set<Action> {
  return new Set(g.actions ?? []);
}

/** The last Ice Age of the game up to ply `at`, and its move. */
export function lastIceAge(g: GameView, at: number): MoveView | null {
  for (let i = Math.min(at, g.moves.length) - 1; i >= 0; i--) {
    const m = g.moves[i];
    if (m.ice_age || m.event) return m;
  }
  return null;
}

/** The side that is not `c`. */
export const other = (c: Color): Color => (c === 'white' ? 'black' : 'white');
