// The numbered decisions of docs/rules/<game>.md (English, the law) and of their translations
// docs/rules/<game>.<lang>.md (Russian, Turkish), for the rules pages' list of exact rulings.
// Read by build.mjs (the module `virtual:decisions`) and by the browser test e2e/languages.mjs.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const rules = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'rules');

export const GAMES = ['antarctos', 'iceage'];
/** The languages of the rulings: English, then the translations. */
export const LANGS = ['en', 'ru', 'tr'];

/** The file of `game`'s decisions in `lang`, relative to the repository. */
export const fileOf = (game, lang) => `docs/rules/${lang === 'en' ? game : `${game}.${lang}`}.md`;

/** The numbered decisions of one file (`- A10. ...` with its indented lines; an id may carry a
 * marker, `- A19a *(added)*.`, in any language). */
export function parseDecisions(text) {
  const out = [];
  let cur = null;
  for (const line of text.split('\n')) {
    const m = /^- ([AC]\d+[a-z]?)(?: \*\([^)*]+\)\*)?\. (.*)$/.exec(line);
    if (m) {
      cur = { id: m[1], text: m[2] };
      out.push(cur);
    } else if (cur && /^ {2}\S|^ {4}/.test(line)) cur.text += ` ${line.trim()}`;
    else cur = null;
  }
  return out;
}

/** `game`'s decisions in `lang`, as the file holds them. */
export function decisions(game, lang = 'en') {
  const file = join(rules, fileOf(game, lang).slice('docs/rules/'.length));
  if (!existsSync(file)) {
    throw new Error(`${fileOf(game, lang)} is missing: every decision of ${fileOf(game, 'en')} needs its ${lang} translation there`);
  }
  return parseDecisions(readFileSync(file, 'utf8'));
}

const codeSpans = text => text.match(/`[^`]*`/g) ?? [];

/**
 * Every game's decisions in every language, `{antarctos: {en, ru, tr}, iceage: {...}}`.
 * Throws, naming the file and the ids, when a translation lacks a decision of the English file,
 * has one it does not have, or lists them in another order (so translations cannot drift
 * silently). `warn` hears of a translated decision that lacks a `code` span of the English one
 * (notation, positions and commands are kept as they are).
 * @param {(message: string) => void} [warn]
 */
export function allDecisions(warn = () => {}) {
  const out = {};
  const problems = [];
  for (const game of GAMES) {
    out[game] = {};
    const en = decisions(game, 'en');
    if (en.length === 0) problems.push(`${fileOf(game, 'en')} has no numbered decisions`);
    const enIds = en.map(d => d.id);
    for (const lang of LANGS) {
      const list = lang === 'en' ? en : decisions(game, lang);
      out[game][lang] = list;
      const ids = list.map(d => d.id);
      const file = fileOf(game, lang);
      const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
      if (twice.length) problems.push(`${file} numbers more than one decision ${[...new Set(twice)].join(', ')}`);
      if (lang === 'en') continue;
      const missing = enIds.filter(id => !ids.includes(id));
      const extra = ids.filter(id => !enIds.includes(id));
      if (missing.length) problems.push(`${file} lacks decision${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of ${fileOf(game, 'en')}`);
      if (extra.length) problems.push(`${file} has decision${extra.length > 1 ? 's' : ''} ${extra.join(', ')} that ${fileOf(game, 'en')} does not have`);
      if (!missing.length && !extra.length && !twice.length && ids.join() !== enIds.join()) {
        problems.push(`${file} lists its decisions in another order than ${fileOf(game, 'en')}: ${ids.join(' ')}`);
      }
      const empty = list.filter(d => !d.text.trim()).map(d => d.id);
      if (empty.length) problems.push(`${file}: decision${empty.length > 1 ? 's' : ''} ${empty.join(', ')} without text`);
      for (const d of list) {
        const original = en.find(e => e.id === d.id);
        if (!original) continue;
        const spans = codeSpans(d.text);
        const lost = codeSpans(original.text).filter(s => !spans.includes(s));
        if (lost.length) warn(`${file} ${d.id} lacks ${lost.join(' ')} of ${fileOf(game, 'en')}`);
      }
    }
  }
  if (problems.length) {
    throw new Error(`the translated rulings do not match the English ones:\n  ${problems.join('\n  ')}\n` +
      'Each docs/rules/<game>.<lang>.md translates every numbered decision of docs/rules/<game>.md, with the same ids in the same order.');
  }
  return out;
}
