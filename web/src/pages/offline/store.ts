// The games played offline, kept in this browser (localStorage, one entry per game, written
// after every move): a reload or a lost connection resumes the game where it stood.

import type { Color, MoveView, ResultView, Variant } from '../../api';

/** One game against the computer in the browser. */
export interface OfflineGame {
  /** Random, local to this browser (`off-` and 12 hex digits). */
  id: string;
  variant: Variant;
  /** The computer's level, 1-8 (the server's levels). */
  level: number;
  /** The player's side. */
  color: Color;
  /** The start position, canonical. */
  startFen: string;
  /** The moves played, each with the position after it. */
  moves: MoveView[];
  /** How it ended (null: still going). */
  result: ResultView | null;
  /** Varies the computer's moves at the levels that randomise. */
  seed: number;
  /** Unix ms. */
  created: number;
  updated: number;
  /** The stored game's id once uploaded. */
  uploaded?: string;
}

const PREFIX = 'icebound.offline.';

const keyOf = (id: string) => `${PREFIX}${id}`;

/** A fresh game id. */
export function newId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return `off-${Array.from(bytes, b => b.toString(16).padStart(2, '0')).join('')}`;
}

function isGame(x: unknown): x is OfflineGame {
  const g = x as OfflineGame;
  return !!g && typeof g.id === 'string' && (g.variant === 'antarctos' || g.variant === 'iceage')
    && Array.isArray(g.moves) && typeof g.startFen === 'string' && typeof g.level === 'number';
}

/** The game `id`, or null when this browser has none (or cannot read it). */
export function loadGame(id: string): OfflineGame | null {
  try {
    const g: unknown = JSON.parse(localStorage.getItem(keyOf(id)) ?? 'null');
    return isGame(g) ? g : null;
  } catch {
    return null;
  }
}

/** Keeps `g`; false when the storage refuses (full, or off in a private window). */
export function saveGame(g: OfflineGame): boolean {
  try {
    localStorage.setItem(keyOf(g.id), JSON.stringify({ ...g, updated: Date.now() }));
    return true;
  } catch {
    return false;
  }
}

export function deleteGame(id: string): void {
  try {
    localStorage.removeItem(keyOf(id));
  } catch {
    // nothing kept, nothing to delete
  }
}

/** Every game kept, newest first. */
export function listGames(): OfflineGame[] {
  const out: OfflineGame[] = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (!key?.startsWith(PREFIX)) continue;
      const g = loadGame(key.slice(PREFIX.length));
      if (g) out.push(g);
    }
  } catch {
    // storage off: no games
  }
  return out.sort((a, b) => b.updated - a.updated);
}
