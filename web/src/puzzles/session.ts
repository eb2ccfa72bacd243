// What the trainer keeps in the browser (issue 39): an anonymous player's puzzle rating for
// this browser session (sessionStorage, one per game), the puzzles done this session (sent as
// `exclude`, and never rated twice), and across sessions (localStorage) the theme chosen, the
// "rated" switch and the best streak of each game.

import type { Variant } from '../api';
import type { SessionRating } from './api';

const KEY = 'icebound.puzzles';
/** A new player's rating (the server's too). */
export const NEW_RATING: SessionRating = { rating: 1500, deviation: 350, volatility: 0.06 };
/** The most ids `exclude` may carry. */
const MAX_EXCLUDE = 100;

function read<T>(store: Storage, key: string): T | null {
  try {
    const text = store.getItem(key);
    return text ? (JSON.parse(text) as T) : null;
  } catch {
    return null;
  }
}

function write(store: Storage, key: string, value: unknown): void {
  try {
    store.setItem(key, JSON.stringify(value));
  } catch {
    // private mode or full storage: kept for this page only
  }
}

/** The anonymous player's session rating in `v`, or null before any rated attempt. */
export function sessionRating(v: Variant): SessionRating | null {
  const r = read<SessionRating>(sessionStorage, `${KEY}.rating.${v}`);
  return r && typeof r.rating === 'number' && typeof r.deviation === 'number' && typeof r.volatility === 'number' ? r : null;
}

export function setSessionRating(v: Variant, r: SessionRating): void {
  write(sessionStorage, `${KEY}.rating.${v}`, r);
}

/** The puzzles of `v` played this session, oldest first. */
export function donePuzzles(v: Variant): string[] {
  const list = read<string[]>(sessionStorage, `${KEY}.done.${v}`);
  return Array.isArray(list) ? list.filter(x => typeof x === 'string') : [];
}

export function noteDone(v: Variant, id: string): void {
  const list = donePuzzles(v).filter(x => x !== id);
  list.push(id);
  write(sessionStorage, `${KEY}.done.${v}`, list.slice(-MAX_EXCLUDE));
}

/** The puzzles this session already sent a rated attempt for: never rated twice. */
export function ratedThisSession(id: string): boolean {
  return (read<string[]>(sessionStorage, `${KEY}.rated`) ?? []).includes(id);
}

export function noteRated(id: string): void {
  const list = read<string[]>(sessionStorage, `${KEY}.rated`) ?? [];
  if (!list.includes(id)) list.push(id);
  write(sessionStorage, `${KEY}.rated`, list.slice(-1000));
}

/** The theme chosen for `v` (`mix` by default). */
export function chosenTheme(v: Variant): string {
  return read<string>(localStorage, `${KEY}.theme.${v}`) ?? 'mix';
}

export function setChosenTheme(v: Variant, theme: string): void {
  write(localStorage, `${KEY}.theme.${v}`, theme);
}

/** Whether attempts are rated (on by default). */
export function ratedWanted(): boolean {
  return read<boolean>(localStorage, `${KEY}.rated_on`) ?? true;
}

export function setRatedWanted(on: boolean): void {
  write(localStorage, `${KEY}.rated_on`, on);
}

/** The best streak of `v` in this browser. */
export function bestStreak(v: Variant): number {
  const n = read<number>(localStorage, `${KEY}.streak.${v}`);
  return typeof n === 'number' && n > 0 ? n : 0;
}

/** Keeps `n` when it beats the best; answers whether it did. */
export function noteStreak(v: Variant, n: number): boolean {
  if (n <= bestStreak(v)) return false;
  write(localStorage, `${KEY}.streak.${v}`, n);
  return true;
}
