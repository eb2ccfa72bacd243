// Every page in Russian and in Turkish, walked in headless Chromium: no text, tooltip, label or
// window title may be left in English. A word counts as English when it is a word of the page's
// English texts (web/src/lang/en.ts, the rules pages) that the language's own texts do not use;
// notation (move lists, position text, commands in <code>) is not language. The rules pages'
// exact rulings are unfolded and checked too: they are the translations docs/rules/<game>.<lang>.md,
// and a word of the English rulings (docs/rules/<game>.md) left in them counts as English. Also:
// dates in the language's own format, the statistics headings of the seed's page in each language,
// and results and server events worded in the language.

import { allDecisions } from '../decisions.mjs';
import {
  api, base, check, eq, loadModule, newPage, openGame, screenshot, suite, waitForMoves,
} from './lib.mjs';

const { en } = await loadModule('lang/en.ts');
const { ru } = await loadModule('lang/ru.ts');
const { tr } = await loadModule('lang/tr.ts');
const antarctos = await loadModule('rules_antarctos.ts');
const iceage = await loadModule('rules_iceage.ts');
const content = await loadModule('rules_content.ts');
/** The exact rulings as the build reads them: `{antarctos: {en, ru, tr}, iceage: {...}}`. */
const rulings = allDecisions();

/** Every text of the rules pages in language `l`. */
function rulesTexts(l) {
  const out = [antarctos.antarctosIntro[l], iceage.iceageIntro[l]];
  for (const s of [...antarctos.antarctosSections, ...iceage.iceageSections]) {
    out.push(s.heading[l], ...s.paragraphs.map(p => p.text[l]));
    if (s.diagram) out.push(s.diagram.caption[l]);
  }
  for (const e of content.examples) out.push(e.title[l], e.intro[l], ...e.steps.map(st => st.note[l]));
  return out;
}

/** The words of `text` written in Latin letters only: a Turkish word is one word, not the Latin
 * pieces between its own letters (`kazandıran` is not `ran`). */
const words = text => (text.match(/\p{L}{3,}/gu) ?? []).filter(w => /^[A-Za-z]+$/.test(w)).map(w => w.toLowerCase());
const vocabulary = texts => new Set(texts.flatMap(words));
/** Names and notation that are the same in every language. */
const SAME_EVERYWHERE = new Set(['icebound', 'antarctos', 'pdn', 'pgn', 'fen', 'san', 'uci', 'sprt', 'elo', 'köksal', 'karakus', 'llr', 'nxf', 'hxg',
  // Names in the exact rulings: chess and draughts federations, a hashing scheme, programs.
  'fide', 'fmjd', 'zobrist', 'fairy', 'stockfish', 'chessgroundx']);
const english = vocabulary([...Object.values(en), ...rulesTexts('en')]);
const own = { ru: vocabulary([...Object.values(ru), ...rulesTexts('ru')]), tr: vocabulary([...Object.values(tr), ...rulesTexts('tr')]) };
/** The words of the English rulings too: the unfolded rulings are checked against them. A
 * translation's own words are not added to `own`, so a word left in English is still caught. */
const rulingsEnglish = new Set([...english, ...vocabulary(Object.values(rulings).flatMap(g => g.en.map(d => d.text)))]);

/** The visible texts of the page (and its labels, tooltips, placeholders and title), or of the
 * element `root` only, that hold an English word (a word of `vocab`), for language `l`. */
async function englishLeft(page, l, { root = null, vocab = english } = {}) {
  const texts = await page.evaluate(root => {
    const skip = el => el.closest('code, pre, .fen, #moves, .cg-wrap, .example-moves, option, [data-notation]');
    const visible = el => {
      const r = el.getBoundingClientRect();
      const st = getComputedStyle(el);
      return r.width > 0 && r.height > 0 && st.visibility !== 'hidden' && st.display !== 'none';
    };
    const top = root ? document.querySelector(root) : document.body;
    const out = root ? [] : [document.title];
    const walker = document.createTreeWalker(top, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || !n.textContent.trim() || skip(el) || !visible(el)) continue;
      out.push(n.textContent.trim());
    }
    for (const el of top.querySelectorAll('[title], [aria-label], [placeholder], [alt]')) {
      if (skip(el)) continue;
      for (const a of ['title', 'aria-label', 'placeholder', 'alt']) if (el.getAttribute(a)) out.push(el.getAttribute(a));
    }
    return out;
  }, root);
  return texts.filter(text => words(text).some(w => vocab.has(w) && !own[l].has(w) && !SAME_EVERYWHERE.has(w)));
}

/** Unfolds the rulings of the rules page shown and checks them: every decision of `game`, in
 * language `l` (the translation's own text, marked with its language), and no English left. */
async function checkRulings(page, game, l, left) {
  await page.click('#rulings summary');
  await page.waitForSelector('#rulings dd', { state: 'visible' });
  const shown = await page.$$eval('#rulings dt', dts => dts.map(dt => ({
    id: dt.textContent, anchor: dt.id, lang: dt.nextElementSibling?.getAttribute('lang'), text: dt.nextElementSibling?.textContent ?? '',
  })));
  const want = rulings[game][l];
  eq(shown.map(d => d.id), rulings[game].en.map(d => d.id), `${game}: every ruling is listed in ${l}, in the English order`);
  eq(shown.map(d => d.anchor), rulings[game].en.map(d => d.id.toLowerCase()), `${game}: the rulings' anchors (#a10) are the same in ${l}`);
  eq(shown.filter(d => d.lang !== l).map(d => d.id), [], `${game}: every ruling is marked lang="${l}"`);
  const strip = text => text.replace(/[`*]/g, '').replace(/\s+/g, ' ').trim();
  const wrong = shown.filter((d, i) => strip(d.text) !== strip(want[i]?.text ?? '')).map(d => d.id);
  eq(wrong, [], `${game}: every ruling shows the text of ${game}.${l}.md`);
  if (l === 'ru') eq(shown.filter(d => !/[а-яё]/i.test(d.text)).map(d => d.id), [], `${game}: every ruling reads in Russian`);
  for (const text of await englishLeft(page, l, { root: '#rulings', vocab: rulingsEnglish })) left.push(`${game} rulings: "${text}"`);
}

/** Games in every state the pages can show, made through the API in this browser's name. */
async function makeGames(page) {
  const post = (path, body) => api(page, 'POST', path, body).then(r => r.json);
  const ongoing = await post('/api/games', { variant: 'antarctos', opponent: 'engine', level: 1, color: 'white' });
  await post(`/api/games/${ongoing.id}/moves`, { move: 'c3-d4', ply: 0 });
  const finished = await post('/api/games', { variant: 'antarctos', opponent: 'local' });
  let g = finished;
  for (const mv of ['c3-d4', 'f6-g5']) g = await post(`/api/games/${g.id}/moves`, { move: mv, ply: g.ply });
  await post(`/api/games/${g.id}/resign`, {});
  const waiting = await post('/api/games', { variant: 'iceage', opponent: 'friend', color: 'black' });
  const ice = await post('/api/games', { variant: 'iceage', opponent: 'local', fen: content.examples[3].fen });
  await post(`/api/games/${ice.id}/moves`, { move: 'Nh5', ply: 0 });
  const offer = await post('/api/games', { variant: 'iceage', opponent: 'local' });
  await post(`/api/games/${offer.id}/draw`, { action: 'offer' });
  return { ongoing: ongoing.id, finished: finished.id, waiting: waiting.id, ice: ice.id, offer: offer.id };
}

async function walk(browser, l) {
  const page = await newPage(browser, { locale: l === 'ru' ? 'ru-RU' : 'tr-TR' });
  await page.goto(`${base}/`);
  await page.evaluate(lang => localStorage.setItem('icebound.lang', lang), l);
  const games = await makeGames(page);
  const left = [];
  const visit = async (path, ready, what = path) => {
    await page.goto(`${base}${path}`);
    await page.waitForSelector(ready, { timeout: 15000 });
    await page.waitForTimeout(300);
    for (const text of await englishLeft(page, l)) left.push(`${what}: "${text}"`);
  };
  await visit('/', '#new-game');
  check(await page.isVisible('#intro'), `the home page's intro is shown in ${l}`);
  await visit('/my', '#my-games');
  await visit(`/game/${games.ongoing}`, '#moves button.move', 'game against the computer');
  await page.click('#moves button.move[data-ply="1"]');
  for (const text of await englishLeft(page, l)) left.push(`looking back: "${text}"`);
  await visit(`/game/${games.finished}`, '#game-over:not([hidden])', 'finished game');
  await visit(`/game/${games.waiting}`, '#waiting', 'waiting room');
  await visit(`/game/${games.ice}`, '#ice-panel:not([hidden])', 'Ice Age');
  await page.click('#ice-before');
  for (const text of await englishLeft(page, l)) left.push(`before the Ice Age: "${text}"`);
  await visit(`/game/${games.offer}`, '#draw-offer', 'draw offer');
  await visit('/rules/antarctos', '#example-1 cg-board piece');
  await page.click('#example-1 [data-action=next]');
  for (const text of await englishLeft(page, l)) left.push(`rules example: "${text}"`);
  await checkRulings(page, 'antarctos', l, left);
  await visit('/rules/iceage', '.diagram cg-board piece');
  await checkRulings(page, 'iceage', l, left);
  await visit('/stats', '#stats');
  await visit(`/analysis/game/${games.finished}`, '#tree button.move', 'analysis board');
  await page.click('#tree button.move'); // the finished game's last position has nothing to search
  await page.click('#engine-toggle');
  await page.waitForSelector('#engine-score', { timeout: 20000 });
  for (const text of await englishLeft(page, l)) left.push(`computer analysis: "${text}"`);
  await page.click('#engine-toggle');
  await visit('/analysis/iceage', '#analysis-status', 'analysis board, Ice Age Chess');
  await visit('/training/antarctos', '#puzzle[data-phase="play"] cg-board piece', 'puzzle trainer');
  await visit('/training/antarctos/streak', '#puzzle[data-phase="play"] #streak-score', 'puzzle streak');
  await visit('/training/dashboard', '#dashboard-login', 'puzzle dashboard, logged out');
  await visit('/no/such/page', '#not-found');
  await visit('/join/nosuchinvitation', '#dead-end');
  await visit('/game/nosuchgame', '#dead-end');
  await screenshot(page, `languages-${l}`);
  eq(left, [], `every page in ${l} is free of English`);
  return { page, games };
}

async function russian(browser) {
  const { page, games } = await walk(browser, 'ru');
  // Dates in Russian.
  await page.goto(`${base}/my`);
  await page.waitForSelector('#my-games time');
  const [shown, expected] = await page.$eval('#my-games time', t => [t.textContent,
    new Intl.DateTimeFormat('ru-RU', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(t.getAttribute('datetime')))]);
  eq(shown, expected, 'my games dates are Russian');
  check(/[а-я]/.test(shown), `a Russian month name, got "${shown}"`);
  // The statistics page's own headings.
  await page.goto(`${base}/stats`);
  await page.waitForSelector('#stats');
  eq(await page.textContent('#stats h1'), 'Статистика выигранных партий', 'statistics heading in Russian');
  const rows = await page.$$eval('#stats [data-variant=antarctos] table.stats:not(.lab) th', ths => ths.map(t => t.textContent));
  eq(rows.slice(0, 3), ['белые', 'чёрные', 'Ничья'], 'the rows of the seed\'s table in Russian');
  // A result and a server event in Russian.
  await openGame(page, games.finished);
  eq(await page.textContent('#status'), 'Чёрные выиграли', 'the result in Russian');
  eq((await page.textContent('#game-over .over-reason')).trim(), 'Белые сдались.', 'the reason in Russian');
  const created = (await api(page, 'POST', '/api/games', { variant: 'iceage', opponent: 'engine', level: 1, color: 'white' })).json;
  await api(page, 'POST', `/api/games/${created.id}/moves`, { move: 'hxg3', ply: 0 });
  await openGame(page, created.id);
  await waitForMoves(page, 2);
  await page.click('#offer-draw');
  await page.waitForSelector('#notice:not([hidden])');
  eq(await page.textContent('#notice'), 'Компьютер отклонил ничью: игра продолжается', 'a server event worded in Russian');
  eq(await page.title(), 'Ваш ход · Шахматы ледникового периода · icebound', 'a Russian window title with the turn');
}

async function turkish(browser) {
  const { page, games } = await walk(browser, 'tr');
  await page.goto(`${base}/my`);
  await page.waitForSelector('#my-games time');
  const [shown, expected] = await page.$eval('#my-games time', t => [t.textContent,
    new Intl.DateTimeFormat('tr-TR', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(t.getAttribute('datetime')))]);
  eq(shown, expected, 'my games dates are Turkish');
  await page.goto(`${base}/stats`);
  await page.waitForSelector('#stats');
  eq(await page.textContent('#stats h1'), 'Kazanılmış oyunların istatistiği', 'the seed page\'s own heading');
  const rows = await page.$$eval('#stats [data-variant=antarctos] table.stats:not(.lab) th', ths => ths.map(t => t.textContent));
  eq(rows.slice(0, 3), ['beyaz', 'siyah', 'Berabere'], 'the seed page\'s own rows');
  await openGame(page, games.ice);
  const account = await page.textContent('#ice-panel');
  check(account.includes('Siyahın 20. hamlesinden sonra Buz Çağı') && account.includes('h8 karesindeki siyah kale'), `the Ice Age in Turkish, got "${account}"`);
  await screenshot(page, 'iceage-turkish', 'iceage-ice-age-tr.png');
}

await suite([
  ['Russian: every page, dates, statistics, results, events', russian],
  ['Turkish: every page, dates, statistics, the Ice Age', turkish],
]);
