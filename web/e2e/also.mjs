// The "Also" items of issue 41 in a browser, at a desktop's width and a 390 px phone's: the
// lobby shows each seek's rating and its rating range, "Rated" is ticked for an account with no
// empty hint beside it, a seek with a range is hidden from an anonymous player, the game page
// shows each account's rating beside its name while playing and, once rated, the name once
// with the new rating and change; the statistics page says draws are counted; a phone has a
// menu button whose list holds every link, "Leaderboard" too; an import with a bad move opens
// up to the move before it, marked.

import { api, base, check, eq, newPage, screenshot, suite } from './lib.mjs';

const stamp = Date.now() % 1000000;
const ann = `ann_a${stamp}`;
const bob = `bob_a${stamp}`;
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
let annPage;
let bobPage;
let gameId = '';

async function register(browser, name, options = {}) {
  const page = await newPage(browser, options);
  await page.goto(`${base}/`);
  const r = await api(page, 'POST', '/api/accounts', { username: name, password: 'correct horse' });
  eq(r.status, 201, `${name} registers`);
  await page.goto(`${base}/`);
  await page.waitForSelector('#lobby');
  return page;
}

/** Whether `selector` is shown with a size (not hidden, not an empty box). */
const shown = (page, selector) => page.$$eval(selector, els => els.filter(e => {
  const r = e.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden';
}).length);

async function seekWithRange(browser) {
  annPage = await register(browser, ann);
  bobPage = await register(browser, bob, PHONE);
  // "Rated" is ticked for an account, in every form of the lobby, and no empty hint stands
  // beside it.
  await annPage.click('.lobby-new-seek summary');
  for (const box of ['#quick-rated', '#seek-rated']) check(await annPage.isChecked(box), `${box} is ticked for an account`);
  eq(await shown(annPage, '.time-picker .tc-rated .hint'), 0, 'no empty hint beside "Rated"');
  await annPage.selectOption('#seek-tc', 'unlimited');
  check(!(await annPage.isChecked('#seek-rated')), 'an unlimited game is never rated');
  check(await annPage.isVisible('.time-picker .tc-rated .hint'), 'and the hint says why');
  await annPage.selectOption('#seek-tc', '5+3');
  check(await annPage.isChecked('#seek-rated'), 'a clock gives "Rated" back');
  // A half-wrong range is refused by the page, with words.
  await annPage.fill('#seek-range-min', '1700');
  await annPage.fill('#seek-range-max', '1400');
  await annPage.click('#seek-submit');
  await annPage.waitForFunction(() => /lowest first/.test(document.querySelector('#lobby-error')?.textContent ?? ''));
  check(true, 'a range upside down is refused');
  await annPage.fill('#seek-range-min', '1400');
  await annPage.fill('#seek-range-max', '1600');
  await annPage.selectOption('#seek-color', 'white');
  await annPage.click('#seek-submit');
  await annPage.waitForSelector('#seeks li.seek.mine .seek-range');
  eq(await annPage.textContent('#seeks li.seek.mine .seek-range'), '1400–1600', 'ann sees her range');
  eq(await annPage.textContent('#seeks li.seek.mine .seek-rating'), '1500?', 'and her own rating, provisional');
  // Bob (rated 1500, on a phone) sees the rating and the range.
  const row = `#seeks li.seek:has(.seek-player:text-is("${ann}"))`;
  await bobPage.waitForSelector(row);
  eq(await bobPage.textContent(`${row} .seek-rating`), '1500?', 'bob sees ann\'s rating');
  eq(await bobPage.textContent(`${row} .seek-range`), '1400–1600', 'and her range');
  const wide = await bobPage.evaluate(() => document.documentElement.scrollWidth);
  check(wide <= 390, `the lobby fits a 390 px phone (${wide} px)`);
  await screenshot(bobPage, 'also-lobby-phone');
  // An anonymous player never sees it.
  const anon = await newPage(browser);
  await anon.goto(`${base}/`);
  await anon.waitForSelector('#seeks li');
  const seen = (await api(anon, 'GET', '/api/seeks')).json.filter(s => s.username === ann);
  eq(seen.length, 0, 'an anonymous player is outside every range');
  check(!(await anon.isChecked('#quick-rated')), 'and has "Rated" off');
  await anon.context().close();
  await bobPage.click(`${row} button.accept`);
  await bobPage.waitForURL(/\/game\/\w{8}$/);
  gameId = bobPage.url().split('/').pop();
}

async function ratingsBesideNames() {
  await bobPage.waitForSelector('.rating-badge.rating-now[data-color="white"]');
  eq(await bobPage.textContent('.rating-badge[data-color="white"] .rating-after'), '1500?', 'ann\'s rating beside her name');
  eq(await bobPage.textContent('.rating-badge[data-color="black"] .rating-after'), '1500?', 'bob\'s beside his');
  eq(await bobPage.textContent('.player .seat[data-color="white"] a.seat-name'), ann, 'ann\'s name links to her profile');
  await screenshot(bobPage, 'also-game-phone');
  for (const [i, [page, move]] of [[annPage, 'c3-d4'], [bobPage, 'f6-g5']].entries()) {
    eq((await api(page, 'POST', `/api/games/${gameId}/moves`, { move, ply: i })).status, 200, `${move} is played`);
  }
  eq((await api(annPage, 'POST', `/api/games/${gameId}/resign`)).status, 200, 'ann resigns');
  await annPage.goto(`${base}/game/${gameId}`);
  await annPage.waitForSelector('.rating-badge[data-color="black"] .rating-diff');
  const line = await annPage.textContent('.player .seat[data-color="black"]');
  eq(line.split(bob).length - 1, 1, `bob's name shows once after the rated game ("${line.trim()}")`);
  check(/1662\?\s*\+162/.test(line), `his new rating and change follow it ("${line.trim()}")`);
}

async function statsSaysDraws() {
  await annPage.goto(`${base}/stats`);
  await annPage.waitForSelector('#stats h1');
  eq(await annPage.textContent('#stats h1'), 'Statistics of won games', 'the seed\'s own heading');
  check(/draws are counted/.test(await annPage.textContent('#stats .stats-draws-note')), 'and under it: draws are counted');
}

async function phoneMenu() {
  const page = bobPage;
  await page.goto(`${base}/stats`);
  await page.waitForSelector('#menu-toggle');
  check(!(await page.isVisible('#main-nav')), 'on a phone the links wait behind the menu button');
  eq(await page.getAttribute('#menu-toggle', 'aria-expanded'), 'false', 'the button says it is closed');
  await page.click('#menu-toggle');
  eq(await page.getAttribute('#menu-toggle', 'aria-expanded'), 'true', 'and open');
  const links = await page.$$eval('#main-nav a', as => as.map(a => {
    const r = a.getBoundingClientRect();
    return { href: a.getAttribute('href'), left: r.left, right: r.right, height: r.height };
  }));
  check(links.length >= 9, `every link is in the list (${links.length})`);
  for (const l of links) check(l.left >= 0 && l.right <= 390 && l.height >= 44, `${l.href} is whole and tappable (${JSON.stringify(l)})`);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  check(wide <= 390, `nothing runs past the edge (${wide} px)`);
  await screenshot(page, 'also-menu-phone', 'menu-phone.png');
  await page.click('#main-nav a[href="/leaderboard"]');
  await page.waitForURL(/\/leaderboard/);
  check(!(await page.isVisible('#main-nav')), 'the menu closes on the new page');
  // On a desktop the links stand in the header and no menu button shows.
  await annPage.goto(`${base}/`);
  await annPage.waitForSelector('#main-nav a');
  check(await annPage.isVisible('#main-nav a[href="/tv"]'), 'desktop: the links in the header');
  check(!(await annPage.isVisible('#menu-toggle')), 'desktop: no menu button');
  await desktopHeader(annPage);
}

/** The header in `lang` is one row, its links, account, bell and language side by side. */
async function oneRow(page, lang) {
  await page.selectOption('header.top select.lang', lang);
  await page.waitForFunction(l => document.documentElement.lang === l, lang);
  const rows = await page.$eval('header.top', el => {
    const tops = new Set([...el.querySelectorAll('#main-nav > *, .account-links, #account-link, .notify, select.lang')]
      .filter(e => e.getBoundingClientRect().height > 0)
      .map(e => Math.round(e.getBoundingClientRect().top + e.getBoundingClientRect().height / 2)));
    return { height: el.getBoundingClientRect().height, centres: [...tops] };
  });
  check(rows.height < 70 && Math.max(...rows.centres) - Math.min(...rows.centres) < 12, `${lang}: the header is one row (${JSON.stringify(rows)})`);
}

/** A desktop header is one row at 1280 px, logged in, in every language (it wrapped to two in
 * issue 41 and pushed the home page down): the less used links wait under "More", the player
 * search behind a magnifier; both open by keyboard and close on Escape. */
async function desktopHeader(page) {
  eq(page.viewportSize()?.width, 1280, 'a 1280 px desktop');
  try {
    for (const lang of ['ru', 'tr']) await oneRow(page, lang);
  } finally {
    await page.selectOption('header.top select.lang', 'en');
  }
  await oneRow(page, 'en');
  check(!(await page.isVisible('#main-nav a[href="/leaderboard"]')), 'the leaderboard waits under More');
  await page.focus('#nav-more');
  await page.keyboard.press('Enter');
  eq(await page.getAttribute('#nav-more', 'aria-expanded'), 'true', 'More opens from the keyboard');
  check(await page.isVisible('#main-nav a[href="/leaderboard"]'), 'and shows the leaderboard');
  check(await page.isVisible('#main-nav a[href="/following"]'), 'and the followed players');
  await screenshot(page, 'also-more-open');
  await page.keyboard.press('Escape');
  check(!(await page.isVisible('#main-nav a[href="/leaderboard"]')), 'Escape closes it');
  eq(await page.getAttribute('#nav-more', 'aria-expanded'), 'false', 'and says so');
  check(!(await page.isVisible('#player-search')), 'the player search waits behind its button');
  await page.click('#player-search-open');
  check(await page.evaluate(() => document.activeElement?.id === 'player-search'), 'its button opens the field, focused');
  await page.keyboard.press('Escape');
  check(!(await page.isVisible('#player-search')), 'Escape closes the field');
  await page.click('#main-nav a[href="/tv"]');
  await page.waitForURL(/\/tv$/);
  await page.click('#nav-more');
  await page.click('#main-nav a[href="/games/search"]');
  await page.waitForURL(/\/games\/search$/);
  check(await page.$eval('#nav-more', b => b.classList.contains('active')), 'on a page under More, More is marked');
}

async function importUpToBadMove() {
  const page = annPage;
  await page.goto(`${base}/analysis/antarctos`);
  await page.click('#import summary');
  await page.fill('#import-text', '[Event "cut"]\n\n1. c3-d4 f6-g5 2. d4-e7 b6-a5 *\n');
  await page.click('#import-open');
  await page.waitForSelector('#import-result .import-cut');
  const words = await page.textContent('#import-result a.import-game');
  check(/opened up to move 2: d4-e7 cannot be played \(2 left out\)/.test(words), `the game opens up to its bad move ("${words}")`);
  await screenshot(page, 'also-import-cut');
  await page.click('#import-result a.import-game');
  await page.waitForURL(/\/analysis\/import\/\w+/);
  await page.waitForSelector('#nav-last');
  await page.click('#nav-last');
  await page.waitForFunction(() => /Imported up to here/.test(/** @type {HTMLTextAreaElement | null} */ (document.querySelector('#comment'))?.value ?? ''), null, { timeout: 15000 });
  check(true, 'the last good move carries the mark, naming the bad move');
}

await suite([
  ['a seek with a range, rated by default', seekWithRange],
  ['ratings beside the names, the name once', ratingsBesideNames],
  ['the statistics say draws are counted', statsSaysDraws],
  ['a phone menu', phoneMenu],
  ['an import up to its last good move', importUpToBadMove],
]);
