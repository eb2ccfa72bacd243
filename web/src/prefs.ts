// Settings this browser remembers (localStorage): sound on or off, which games are shown
// flipped, and where the analysis board's engine runs. A storage that refuses writes (private mode, full) only loses the memory.
// And the player's preferences (issue 41's "Also"; docs/api.md, "Preferences and profile"):
// themes, colours, sound, move confirmation and zen mode. An account's are on the server
// (`GET`/`PUT /api/me/prefs`) and win at log-in; this browser keeps a copy (an anonymous
// player's only one), so that a page draws them at once.

import { currentUser } from './account';
import { call } from './api';

const SOUND = 'icebound.sound';
const FLIPPED = 'icebound.flipped';
const ENGINE = 'icebound.engine';
/** Games whose flip is remembered, newest last; older ones are forgotten. */
const MAX_FLIPPED = 100;

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // not remembered; the setting still holds for this page
  }
}

export function soundOn(): boolean {
  return read(SOUND) !== 'off';
}

export function setSoundOn(on: boolean): void {
  write(SOUND, on ? 'on' : 'off');
}

function flippedIds(): string[] {
  try {
    const list = JSON.parse(read(FLIPPED) ?? '[]');
    return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** Whether the player turned game `id`'s board around. */
export function isFlipped(id: string): boolean {
  return flippedIds().includes(id);
}

export function setFlipped(id: string, flipped: boolean): void {
  const ids = flippedIds().filter(x => x !== id);
  if (flipped) ids.push(id);
  write(FLIPPED, JSON.stringify(ids.slice(-MAX_FLIPPED)));
}

/** Whether the analysis board runs the engine in this browser (the default) rather than on
 * the server. */
export function engineInBrowser(): boolean {
  return read(ENGINE) !== 'server';
}

export function setEngineInBrowser(on: boolean): void {
  write(ENGINE, on ? 'browser' : 'server');
}

/** The preferences (the server's `site_model::prefs::Prefs`). */
export interface Prefs {
  mode: 'system' | 'light' | 'dark';
  antarctos_board: 'frost' | 'abyss' | 'wood';
  antarctos_pieces: 'bone' | 'flat';
  iceage_board: 'glacier' | 'brown' | 'green';
  iceage_pieces: 'cburnett' | 'frost';
  /** Percent, 0 (silent) to 100. */
  volume: number;
  sound_set: 'standard' | 'quiet';
  /** A move in a correspondence game waits for a confirm button. */
  confirm_move: boolean;
  /** Zen mode on the game page. */
  zen: boolean;
}

/** The fields that take one word of a list, with their lists (the server's). */
export const PREF_CHOICES = {
  mode: ['system', 'light', 'dark'],
  antarctos_board: ['frost', 'abyss', 'wood'],
  antarctos_pieces: ['bone', 'flat'],
  iceage_board: ['glacier', 'brown', 'green'],
  iceage_pieces: ['cburnett', 'frost'],
  sound_set: ['standard', 'quiet'],
} as const;

export const DEFAULT_PREFS: Prefs = {
  mode: 'system', antarctos_board: 'frost', antarctos_pieces: 'bone', iceage_board: 'glacier',
  iceage_pieces: 'cburnett', volume: 70, sound_set: 'standard', confirm_move: false, zen: false,
};

const PREFS = 'icebound.prefs';

/** `raw`'s valid fields over the defaults (a value no longer offered takes its default). */
function sane(raw: unknown): Prefs {
  const out: Prefs = { ...DEFAULT_PREFS };
  if (!raw || typeof raw !== 'object') return out;
  const r = raw as Record<string, unknown>;
  for (const [k, list] of Object.entries(PREF_CHOICES)) {
    const v = r[k];
    if (typeof v === 'string' && (list as readonly string[]).includes(v)) (out as unknown as Record<string, unknown>)[k] = v;
  }
  if (typeof r.volume === 'number' && Number.isInteger(r.volume) && r.volume >= 0 && r.volume <= 100) out.volume = r.volume;
  if (typeof r.confirm_move === 'boolean') out.confirm_move = r.confirm_move;
  if (typeof r.zen === 'boolean') out.zen = r.zen;
  return out;
}

let current: Prefs = (() => {
  try {
    return sane(JSON.parse(read(PREFS) ?? 'null'));
  } catch {
    return { ...DEFAULT_PREFS };
  }
})();

/** The preferences now. */
export function prefs(): Prefs {
  return current;
}

function adopt(p: Prefs): void {
  current = p;
  write(PREFS, JSON.stringify(p));
  applyPrefs();
}

/** Puts the preferences on the page's root: `data-mode` (`light` or `dark`, "system" read from
 * the device), `data-mode-chosen`, each game's board and pieces, `data-zen` (themes.css,
 * board.css and style.css read them). */
export function applyPrefs(): void {
  const root = document.documentElement;
  const dark = current.mode === 'dark'
    || (current.mode === 'system' && typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches);
  root.dataset.mode = dark ? 'dark' : 'light';
  root.dataset.modeChosen = current.mode;
  root.dataset.antarctosBoard = current.antarctos_board;
  root.dataset.antarctosPieces = current.antarctos_pieces;
  root.dataset.iceageBoard = current.iceage_board;
  root.dataset.iceagePieces = current.iceage_pieces;
  root.dataset.zen = current.zen ? 'on' : 'off';
}

/** Changes some preferences: at once on the page and in this browser, and for an account on
 * the server too, whose answer (the whole) is kept. Rejects with the server's error (the
 * page's copy keeps the change). */
export async function setPrefs(patch: Partial<Prefs>): Promise<void> {
  adopt(sane({ ...current, ...patch }));
  if (currentUser()) adopt(sane(await call<Prefs>('PUT', '/api/me/prefs', patch)));
}

let loadedFor: string | null = null;

/** The account's preferences, once per log-in: they win over this browser's. */
function loadAccountPrefs(): void {
  const user = currentUser();
  if (!user) {
    loadedFor = null;
    return;
  }
  if (loadedFor === user) return;
  loadedFor = user;
  call<Prefs>('GET', '/api/me/prefs').then(p => {
    const before = JSON.stringify(current);
    adopt(sane(p));
    // A page that shows them (the account page's form) draws them again.
    if (JSON.stringify(current) !== before) window.dispatchEvent(new Event('icebound:prefs'));
  }, () => { loadedFor = null; });
}

/** Applies the preferences at load, follows the device's colours while "system", and takes
 * the account's at every log-in (main.ts calls it once). */
export function startPrefs(): void {
  applyPrefs();
  if (typeof matchMedia === 'function') matchMedia('(prefers-color-scheme: dark)').addEventListener?.('change', applyPrefs);
  window.addEventListener('icebound:me', loadAccountPrefs);
  window.addEventListener('icebound:navigate', loadAccountPrefs);
}
