// Ratings (issue 13): after a rated game between two accounts (set up through the API), the game
// page shows each side's change ("+162", "−162"), the profile shows the rating with "?" (still
// provisional), the rating graph and the game, and leads to it; the leaderboard and the
// statistics' rated table load; the profile fits a phone and speaks Russian and Turkish.

import { api, base, check, clickNav, eq, newPage, registered, screenshot, suite } from './lib.mjs';

const stamp = Date.now() % 1000000;
const ann = `ann_${stamp}`;
const bob = `bob_${stamp}`;
const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
let annPage;
let bobPage;
let gameId = '';


async function ratedGame(browser) {
  annPage = await registered(browser, ann);
  bobPage = await registered(browser, bob);
  // Rated games start from the start position (never a set-up one): two moves, then White
  // (ann) resigns.
  const g = (await api(annPage, 'POST', '/api/games', {
    variant: 'antarctos', opponent: 'friend', color: 'white',
    time_control: { kind: 'realtime', initial_s: 300, increment_s: 3 }, rated: true,
  })).json;
  gameId = g.id;
  eq((await api(bobPage, 'POST', `/api${g.invite_url}`)).status, 200, 'bob joins the rated game');
  const refused = await api(annPage, 'POST', '/api/games', {
    variant: 'antarctos', opponent: 'friend', color: 'white', fen: 'B:Wa5,d2,d4:Ba7,c7',
    time_control: { kind: 'realtime', initial_s: 300, increment_s: 3 }, rated: true,
  });
  eq(refused.status, 400, 'a rated game from a set-up position is refused');
  const moves = [[annPage, 'c3-d4'], [bobPage, 'f6-g5']];
  for (const [i, [page, move]] of moves.entries()) {
    eq((await api(page, 'POST', `/api/games/${gameId}/moves`, { move, ply: i })).status, 200, `${move} is played`);
  }
  eq((await api(annPage, 'POST', `/api/games/${gameId}/resign`)).status, 200, 'ann resigns');
  const view = (await api(bobPage, 'GET', `/api/games/${gameId}`)).json;
  eq(view.ratings?.black?.diff, 162, 'the API shows the winner\'s change');
}

async function gamePageShowsTheChange() {
  await bobPage.goto(`${base}/game/${gameId}`);
  await bobPage.waitForSelector('.rating-badge[data-color="black"] .rating-diff');
  eq(await bobPage.textContent('.rating-badge[data-color="black"] .rating-diff'), '+162', 'the winner\'s "+162"');
  eq(await bobPage.textContent('.rating-badge[data-color="white"] .rating-diff'), '−162', 'the loser\'s "−162"');
  eq(await bobPage.textContent('.rating-badge[data-color="black"] .rating-after'), '1662?', 'the new rating, provisional');
  await screenshot(bobPage, 'game-rated');
}

async function profile() {
  await annPage.goto(`${base}/game/${gameId}`);
  await annPage.waitForSelector('#profile-link');
  await annPage.click('#profile-link');
  await annPage.waitForFunction(n => location.pathname === `/@/${n}`, ann);
  await annPage.waitForSelector('#profile');
  const card = '.rating-card[data-variant="antarctos"][data-speed="realtime"] .rating-value';
  eq(await annPage.textContent(card), '1338?', 'the rating with "?" while provisional');
  eq(await annPage.textContent('.rating-card[data-variant="iceage"][data-speed="realtime"] .rating-value'), '1500?', 'an unplayed rating starts at 1500?');
  const dots = await annPage.locator('#rating-graph svg circle').count();
  eq(dots, 1, 'the graph has the rated game\'s point');
  check(await annPage.locator('#rating-graph svg polyline').count() === 1, 'the graph has its line');
  eq(await annPage.textContent('#record-losses'), '1', 'one loss counted');
  const row = `#profile-games tr[data-id="${gameId}"]`;
  await annPage.waitForSelector(row);
  eq(await annPage.textContent(`${row} .outcome`), 'Lost', 'the game\'s result from the player\'s side');
  eq(await annPage.textContent(`${row} .rating-diff`), '−162', 'the game\'s rating change');
  await annPage.selectOption('#games-filter', 'iceage');
  await annPage.waitForFunction(id => !document.querySelector(`#profile-games tr[data-id="${id}"]`), gameId);
  await annPage.selectOption('#games-filter', '');
  await annPage.waitForSelector(row);
  await screenshot(annPage, 'profile', 'profile.png');
  await annPage.click(`${row} a.button`);
  await annPage.waitForFunction(id => location.pathname === `/game/${id}`, gameId);
  check(true, 'the profile leads to the game');
  await annPage.goto(`${base}/@/nobody_${stamp}`);
  await annPage.waitForSelector('#profile-error');
  eq(await annPage.textContent('#profile-error'), 'No player has this name.', 'an unknown name is said plainly');
}

async function leaderboardAndStats() {
  await annPage.goto(`${base}/`);
  await clickNav(annPage, '/leaderboard');
  await annPage.waitForFunction(() => location.pathname === '/leaderboard/antarctos');
  await annPage.waitForSelector('#leaderboard .board[data-speed="correspondence"]');
  eq(await annPage.locator('#leaderboard .board').count(), 2, 'a list per speed class');
  // Provisional players are not listed.
  eq(await annPage.locator(`#leaderboard tr[data-username="${ann}"]`).count(), 0, 'a provisional rating is not on the leaderboard');
  await annPage.click('#leaderboard a[href="/leaderboard/iceage"]');
  await annPage.waitForSelector('#leaderboard[data-variant="iceage"]');
  await annPage.goto(`${base}/stats`);
  await annPage.waitForSelector('#rated-tables .stats-block[data-variant="antarctos"] table.stats');
  const black = await annPage.textContent('#rated-tables .stats-block[data-variant="antarctos"] tr.black td.num');
  check(Number(black.replace(/\D/g, '')) >= 1, `the rated table counts the game (${black})`);
  await annPage.selectOption('#rating-band', { label: '2000 and over' });
  await annPage.waitForFunction(() => !document.querySelector('#rated-tables .stats-block[data-variant="antarctos"] table.stats'));
  check(true, 'a band without games shows none');
}

async function phoneAndLanguages(browser) {
  const page = await newPage(browser, phone);
  await page.goto(`${base}/@/${ann}`);
  await page.waitForSelector('#profile-games tr');
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  // The widest element past the screen's edge, named when the page is too wide.
  const wide = width <= 390 ? '' : await page.evaluate(() => [...document.querySelectorAll('body *')]
    .filter(el => el.getBoundingClientRect().right > 391 && (!el.closest('.table-scroll') || el.classList.contains('table-scroll') || el.parentElement.classList.contains('table-scroll'))).map(el => `${el.tagName}.${el.className}:${Math.round(el.getBoundingClientRect().right)}`).slice(0, 8).join(' '));
  check(width <= 390, `the profile fits a phone (${width} px) ${wide}`);
  await screenshot(page, 'profile-phone', 'profile-phone.png');
  for (const [lang, title] of [['ru', `Игрок ${ann}`], ['tr', `Oyuncu ${ann}`]]) {
    await page.selectOption('select.lang', lang);
    await page.waitForFunction(t => document.querySelector('#profile h1')?.textContent === t, title);
    check(true, `${lang}: the profile's title`);
  }
  await page.selectOption('select.lang', 'en');
  await page.goto(`${base}/leaderboard/antarctos`);
  await page.waitForSelector('#leaderboard');
  const lw = await page.evaluate(() => document.documentElement.scrollWidth);
  check(lw <= 390, `the leaderboard fits a phone (${lw} px)`);
}

await suite([
  ['a rated game between two accounts', ratedGame],
  ['the game page shows the rating change', gamePageShowsTheChange],
  ['the profile: rating, graph, games', profile],
  ['the leaderboard and the rated statistics', leaderboardAndStats],
  ['a phone, Russian and Turkish', phoneAndLanguages],
]);
