// The page's words in English, Russian and Turkish (the seeds' languages; lang/*.ts), with
// plural forms, dates in the chosen language's own format, and the wording of the server's
// codes (results, events, errors): the server sends stable codes, the page words them.

import { en, type Key } from './lang/en';
import { ru } from './lang/ru';
import { tr } from './lang/tr';
import type { Color, ResultView } from './api';

export type Lang = 'en' | 'ru' | 'tr';
export type { Key };

export const LANGS: Lang[] = ['en', 'ru', 'tr'];

/** Every language's dictionary (the browser test reads them to find English left behind). */
export const dictionaries: Record<Lang, Record<Key, string>> = { en, ru, tr };

/** The locale whose date, number and list formats each language uses. */
const locales: Record<Lang, string> = { en: 'en-GB', ru: 'ru-RU', tr: 'tr-TR' };

function initialLang(): Lang {
  const saved = localStorage.getItem('icebound.lang');
  if (saved === 'en' || saved === 'ru' || saved === 'tr') return saved;
  const nav = (navigator.language || 'en').slice(0, 2);
  return nav === 'ru' || nav === 'tr' ? nav : 'en';
}

let current: Lang = initialLang();

export function lang(): Lang {
  return current;
}

export function locale(): string {
  return locales[current];
}

export function setLang(l: Lang): void {
  current = l;
  localStorage.setItem('icebound.lang', l);
  document.documentElement.lang = l;
}

/** `{n, plural, one {# move} other {# moves}}` -> the form for `n` in the current language. */
function plurals(text: string, vars: Record<string, string | number>): string {
  return text.replace(/\{(\w+), plural, ((?:[a-z]+ \{[^{}]*\}\s*)+)\}/g, (_, name: string, forms: string) => {
    const n = Number(vars[name] ?? 0);
    const category = new Intl.PluralRules(locales[current]).select(n);
    const table = new Map<string, string>();
    for (const [, cat, form] of forms.matchAll(/([a-z]+) \{([^{}]*)\}/g)) table.set(cat, form);
    const form = table.get(category) ?? table.get('other') ?? '';
    return form.replace(/#/g, String(n));
  });
}

/** The text for `key` in the current language, with `{name}` replaced from `vars`. */
export function t(key: Key, vars: Record<string, string | number> = {}): string {
  const text = plurals(dictionaries[current][key] ?? en[key], vars);
  return text.replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? `{${k}}`));
}

/** Whether `key` exists (for keys built from server codes). */
export function has(key: string): key is Key {
  return key in en;
}

export function colorName(c: Color): string {
  return t(c === 'white' ? 'color.white' : 'color.black');
}

/** `a, b or c` in the current language. */
export function orList(items: string[]): string {
  return new Intl.ListFormat(locales[current], { type: 'disjunction' }).format(items);
}

/** `a, b and c` in the current language. */
export function andList(items: string[]): string {
  return new Intl.ListFormat(locales[current], { type: 'conjunction' }).format(items);
}

/** A date with its time, in the current language's format. */
export function dateTime(ms: number): string {
  return new Intl.DateTimeFormat(locales[current], { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(ms));
}

/** A date, in the current language's format. */
export function date(ms: number): string {
  return new Intl.DateTimeFormat(locales[current], { dateStyle: 'medium' }).format(new Date(ms));
}

/** A number with the current language's separators (`1,234.5`, `1 234,5`). */
export function num(x: number, digits = 0): string {
  return new Intl.NumberFormat(locales[current], { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x);
}

/** The headline of a result, as the asking player sees it: "You won", "Draw", "White wins". */
export function resultHeadline(r: Pick<ResultView, 'winner'>, mine: Color[]): string {
  if (r.winner === null) return t('result.draw');
  if (mine.length === 1) return t(mine[0] === r.winner ? 'result.you_won' : 'result.you_lost');
  return t(r.winner === 'white' ? 'result.white_wins' : 'result.black_wins');
}

/** How the game ended, in a sentence: from the result's stable `reason` code and its winner.
 * `mine`: the asking player's sides; the player who left a game is told "You left the game",
 * not "Black left the game". */
export function resultReason(r: Pick<ResultView, 'winner' | 'reason'>, mine: Color[] = []): string {
  if (r.reason === 'abandoned' && r.winner && mine.length === 1 && mine[0] !== r.winner) return t('reason.abandoned_you');
  const key = r.winner ? `reason.${r.reason}.${r.winner}` : `reason.${r.reason}`;
  return has(key) ? t(key) : t('reason.other', { reason: r.reason });
}

/** A result in one line: "White wins · A White man reached the far row (breakthrough)." */
export function resultLine(r: Pick<ResultView, 'winner' | 'reason'>, mine: Color[] = []): string {
  return `${resultHeadline(r, mine)} · ${resultReason(r)}`;
}

/** Codes whose page words are generic ("The server did not understand the request."): for
 * these the server's own message says what was wrong, so the page shows it (browser findings
 * 1, 13, 22; `muted` tells until when, finding 15). */
const SERVER_WORDED = new Set(['bad_request', 'not_found', 'conflict', 'forbidden', 'too_large', 'muted']);

/** The server's message as a sentence: capital first letter, a full stop at the end. */
function sentence(message: string): string {
  // A mute's end as the server's clock: the minutes left say it to a person.
  const m = message.replace(/\s*\(until Unix ms \d+\)/, '').trim();
  const s = m.charAt(0).toUpperCase() + m.slice(1);
  return /[.!?…]$/.test(s) ? s : `${s}.`;
}

/** An API error (or any failure) in words, by its code. For a generic code (`bad_request`,
 * `conflict`, ...) or a code the page does not know, the server's message says what was wrong:
 * English pages show it alone, other languages after their own generic words (the server speaks
 * English). */
export function errorWords(err: unknown): string {
  const code = (err as { code?: unknown })?.code;
  const raw = (err as { message?: unknown })?.message;
  const message = typeof raw === 'string' && raw.trim() && code !== 'network' ? raw : '';
  if (typeof code === 'string') {
    const key = `error.${code}`;
    const known = has(key);
    if (message && (!known || SERVER_WORDED.has(code))) {
      const words = known ? t(key) : t('error.other', { code });
      return current === 'en' ? sentence(message) : `${words} ${sentence(message)}`;
    }
    if (known) return t(key);
    return t('error.other', { code });
  }
  return t('error.other', { code: err instanceof Error ? err.name : 'error' });
}
