// Tournaments (issue 40), as two new players would: ann creates an arena on /tournaments and
// joins it; bob (on a phone) finds it and joins; ann starts it; both are told "your game is
// ready" and are taken to the board; the game ends and bob's page shows the standings move
// without a reload (the live stream); the page fits a phone and speaks Russian and Turkish.

import { api, base, check, eq, newPage, registered, screenshot, suite } from './lib.mjs';

const stamp = Date.now() % 1000000;
const ann = `tann_${stamp}`;
const bob = `tbob_${stamp}`;
const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
let annPage;
let bobPage;
let id = '';


async function createAndJoin(browser) {
  annPage = await registered(browser, ann);
  bobPage = await registered(browser, bob, phone);
  await annPage.goto(`${base}/`);
  await annPage.click('header nav a[href="/tournaments"]');
  await annPage.waitForSelector('form.tournament-form');
  await annPage.selectOption('#t-kind', 'arena');
  await annPage.selectOption('#t-variant', 'antarctos');
  await annPage.fill('#t-minutes', '20');
  await annPage.fill('#t-starts', '10');
  await annPage.fill('#t-name', `Arena ${stamp}`);
  await annPage.click('#t-create');
  await annPage.waitForFunction(() => /^\/tournament\/\w{8}$/.test(location.pathname));
  id = annPage.url().split('/').pop();
  await annPage.waitForSelector('#tournament[data-status="created"]');
  eq(await annPage.textContent('#tournament h1'), `Arena ${stamp}`, 'the event page shows its name');
  check((await annPage.textContent('#countdown')).startsWith('Starts in'), 'the clock to the start');
  // "Play in it myself" is ticked by default: the creator is in.
  await annPage.waitForSelector('button[data-action="withdraw"]');
  check(true, 'ann, the creator, is entered at once');
  await bobPage.goto(`${base}/tournaments`);
  await bobPage.waitForSelector(`.tournament-list li[data-id="${id}"] a`);
  await bobPage.click(`.tournament-list li[data-id="${id}"] a`);
  await bobPage.waitForSelector('button[data-action="join"]');
  await bobPage.click('button[data-action="join"]');
  await bobPage.waitForSelector('button[data-action="withdraw"]');
  // ann's page hears of bob's entry from the stream.
  await annPage.waitForSelector(`#standings tr[data-username="${bob}"]`);
  check(true, 'the other player appears without a reload');
  await screenshot(annPage, 'tournament-created');
}

async function startAndPlay() {
  eq(await bobPage.locator('button[data-action="start"]').count(), 0, 'only the creator may start it');
  await annPage.click('button[data-action="start"]');
  await annPage.waitForSelector('#your-game a.button');
  await bobPage.waitForSelector('#your-game a.button');
  check(true, 'both are told their game is ready');
  await annPage.click('#your-game a.button');
  await annPage.waitForFunction(() => /^\/game\/\w{8}$/.test(location.pathname));
  const game = annPage.url().split('/').pop();
  const v = (await api(annPage, 'GET', `/api/tournaments/${id}`)).json;
  eq(v.pairings[0].game, game, 'the prompt leads to the paired game');
  const white = v.pairings[0].white === ann ? annPage : bobPage;
  const black = white === annPage ? bobPage : annPage;
  const winner = white === annPage ? ann : bob;
  eq((await api(white, 'POST', `/api/games/${game}/moves`, { move: 'c3-d4', ply: 0 })).status, 200, 'White moves');
  eq((await api(black, 'POST', `/api/games/${game}/moves`, { move: 'f6-g5', ply: 1 })).status, 200, 'Black moves');
  eq((await api(black, 'POST', `/api/games/${game}/resign`)).status, 200, 'Black resigns');
  // ann's game page (still open) offers no rematch, and takes her to her next arena game
  // once paired (as lichess does), which links back to the event.
  eq(await annPage.locator('#rematch').count(), 0, 'no rematch in a tournament');
  await annPage.waitForFunction(g => /^\/game\/\w{8}$/.test(location.pathname) && location.pathname !== `/game/${g}`, game, { timeout: 20000 });
  check(true, 'the finished arena game leads to the next one');
  await annPage.waitForSelector('a#to-tournament');
  eq(await annPage.getAttribute('a#to-tournament', 'href'), `/tournament/${id}`, 'the game page links back to its tournament');
  // bob's event page (never reloaded) shows the standings move.
  await bobPage.waitForFunction(w => document.querySelector('#standings tbody tr')?.getAttribute('data-username') === w
    && document.querySelector('#standings tbody tr strong')?.textContent === '2', winner);
  check(true, 'the standings move on the open page: the winner first with 2 points');
  eq(await bobPage.locator('#rules summary').count(), 1, 'the page says how the arena scores');
  await screenshot(bobPage, 'tournament-phone', 'tournament-phone.png');
}

async function phoneAndLanguages() {
  const width = await bobPage.evaluate(() => document.documentElement.scrollWidth);
  check(width <= 390, `the event page fits a phone (${width} px)`);
  for (const [lang, word] of [['ru', 'Таблица'], ['tr', 'Sıralama']]) {
    await bobPage.selectOption('select.lang', lang);
    await bobPage.waitForFunction(w => document.querySelector('#standings h2')?.textContent === w, word);
    check(true, `${lang}: the standings' heading`);
  }
  await bobPage.selectOption('select.lang', 'en');
}

await suite([
  ['create an arena and join it', createAndJoin],
  ['start, get paired, play, see the standings move', startAndPlay],
  ['a phone, Russian and Turkish', phoneAndLanguages],
]);
