// The browser testers' round of issue 41, third fixes: the pages show the server's own words
// when a request fails (an unknown player in the game search, a rematch after a block, a
// refused chat text, a moderator's action without a reason), a refused chat text stays in its
// box with the reason beside it, `/mod` links a reported message's game and says the log's
// actions in words, `/games/search` fits a 390 px phone, an empty `/tv` says so with a link to
// the lobby, and a logged-out watcher is asked to log in instead of a chat that always fails.

import { execFileSync } from 'node:child_process';
import { api, base, check, clickNav, eq, newPage, registered, screenshot, suite } from './lib.mjs';

const stamp = Date.now() % 1_000_000;
const ann = `ann3_${stamp}`;
const bob = `bob3_${stamp}`;
const moe = `moe3_${stamp}`;
const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** A friend game of `white` and `black`: its id. */
async function friendGame(white, black) {
  const g = await api(white, 'POST', '/api/games', { variant: 'antarctos', opponent: 'friend', color: 'white' });
  eq(g.status, 201, 'a friend game is made');
  eq((await api(black, 'POST', `/api${g.json.invite_url}`)).status, 200, 'the friend joins');
  return g.json.id;
}

/** The text of `selector` once it is not empty. */
async function textOf(page, selector) {
  await page.waitForFunction(s => (document.querySelector(s)?.textContent ?? '').trim() !== '', selector, { timeout: 10000 });
  return (await page.textContent(selector)).trim();
}

let annPage;
let bobPage;
let ongoing = '';

async function searchWords(browser) {
  annPage = await registered(browser, ann);
  await annPage.goto(`${base}/games/search?player=nobody_${stamp}`);
  const words = await textOf(annPage, '#search-results .error');
  check(words.includes(`nobody_${stamp}`), `an unknown player is named in the search's error (${words})`);
  check(!words.includes('This game does not exist'), 'not "This game does not exist"');
  await annPage.goto(`${base}/games/search?from=2026-05-02&to=2026-05-01`);
  const range = await textOf(annPage, '#search-results .error');
  check(!range.includes('did not understand'), `a day range upside down says what is wrong (${range})`);
}

async function chatRefusedKeepsText(browser) {
  bobPage = await registered(browser, bob, phone);
  ongoing = await friendGame(annPage, bobPage);
  await annPage.goto(`${base}/game/${ongoing}`);
  await annPage.waitForSelector('.chat .chat-input');
  // A new account writes the phrases only: the text stays, the reason shows in the chat box.
  await annPage.fill('.chat .chat-input', 'hello bob, nice to meet you');
  await annPage.press('.chat .chat-input', 'Enter');
  const why = await textOf(annPage, '.chat .chat-error');
  check(why.includes('phrases only'), `the refusal's reason is beside the chat box (${why})`);
  eq(await annPage.inputValue('.chat .chat-input'), 'hello bob, nice to meet you', 'the refused text stays in the box');
  eq((await annPage.textContent('#message'))?.trim() ?? '', '', 'the status area does not carry the chat\'s refusal');
  await screenshot(annPage, 'chat-refused');
}

async function anonymousWatcher(browser) {
  const guest = await newPage(browser, phone);
  await guest.goto(`${base}/game/${ongoing}`);
  await guest.waitForSelector('.chat #chat-login', { state: 'visible', timeout: 10000 });
  check(await guest.$eval('.chat .chat-writer', el => /** @type {HTMLElement} */ (el).hidden), 'a logged-out watcher gets no chat buttons');
  eq(await guest.getAttribute('#chat-login', 'href'), `/login?next=${encodeURIComponent(`/game/${ongoing}`)}`, 'the note links to the log-in page, which comes back to the game');
}

async function rematchAfterBlock() {
  // Two moves each: a finished game of 4 plies counts (a new account reports after one).
  for (const p of [annPage, bobPage, annPage, bobPage]) {
    const v = await api(p, 'GET', `/api/games/${ongoing}`);
    eq((await api(p, 'POST', `/api/games/${ongoing}/moves`, { move: v.json.legal[0].id, ply: v.json.ply })).status, 200, 'a move');
  }
  eq((await api(bobPage, 'POST', `/api/games/${ongoing}/resign`)).status, 200, 'Bob resigns');
  eq((await api(annPage, 'POST', `/api/players/${bob}/block`)).status, 204, 'Ann blocks Bob');
  await annPage.goto(`${base}/game/${ongoing}`);
  await annPage.click('#rematch');
  const words = await textOf(annPage, '#message');
  check(words.includes('blocked'), `the rematch's refusal says why (${words})`);
  check(!words.includes('changed meanwhile'), 'not "the game changed meanwhile"');
  eq((await api(annPage, 'DELETE', `/api/players/${bob}/block`)).status, 204, 'Ann unblocks Bob');
}

async function searchOnAPhone() {
  await bobPage.goto(`${base}/games/search?player=${ann}`);
  await bobPage.waitForSelector('#search-results tr[data-game] a.search-open', { timeout: 10000 });
  const width = await bobPage.evaluate(() => document.documentElement.scrollWidth);
  check(width <= 390, `the search page with results fits 390 px (scroll width ${width})`);
  const box = await bobPage.$eval('#search-results tr[data-game] a.search-open', a => a.getBoundingClientRect().right);
  check(box <= 390, `a found game opens from the row's first cell, on screen (right edge ${box})`);
  const labels = await bobPage.$$eval('#game-search label', ls => ls.map(l => getComputedStyle(l).flexDirection));
  check(labels.every(d => d === 'column'), 'each field\'s label stands above it');
  await screenshot(bobPage, 'search-phone');
}

async function modWords(browser) {
  // Bob reports Ann's phrase in their game: the report names the message and its room.
  await bobPage.goto(`${base}/game/${ongoing}`);
  await annPage.goto(`${base}/game/${ongoing}`);
  await annPage.waitForSelector('.chat .chat-phrase');
  await annPage.click('.chat-phrase[data-phrase=good_game]');
  const history = async () => (await api(bobPage, 'GET', `/api/games/${ongoing}/chat`)).json;
  /** @type {{ id: string, author: string | null } | null} */
  let message = null;
  for (let i = 0; i < 50 && !message; i++) {
    const h = /** @type {{ players?: { id: string, author: string | null }[] }} */ (await history());
    message = (h.players ?? []).find(m => m.author === ann) ?? null;
    if (!message) await bobPage.waitForTimeout(200);
  }
  check(message !== null, 'Ann\'s phrase is in the game\'s history');
  const reported = await api(bobPage, 'POST', '/api/reports', { username: ann, reason: 'abuse', message: message?.id });
  eq(reported.status, 201, 'Bob reports the message');

  const page = await registered(browser, moe);
  modPage = page;
  const cmd = JSON.parse(process.env.ICEBOUND_SERVER_CMD ?? 'null');
  check(Array.isArray(cmd), 'the harness gives the server\'s command line (ICEBOUND_SERVER_CMD)');
  const db = cmd[cmd.indexOf('--database') + 1];
  execFileSync(cmd[0], ['admin', 'grant-mod', moe, '--database', db]);
  await page.goto(`${base}/mod`);
  const item = `#mod-reports li[data-id="${reported.json.id}"]`;
  await page.waitForSelector(item, { timeout: 10000 });
  eq(await page.getAttribute(`${item} a.report-game`, 'href'), `/game/${ongoing}`, 'the reported message links its game');
  eq((await page.textContent(`${item} .mod-standing`))?.trim(), 'Nothing in force.', 'the report says nothing is in force on Ann');
  // No reason: said before anything is sent.
  await page.click(`${item} button:text-is("Mute for an hour")`);
  const note = await textOf(page, `${item} .mod-note`);
  check(note.includes('Write a reason first'), `a missing reason is asked for (${note})`);
  await page.fill(`${item} .mod-reason`, 'rude after the game');
  await page.click(`${item} button:text-is("Mute for an hour")`);
  await page.waitForFunction(() => [...document.querySelectorAll('#mod-log .mod-action')].some(e => e.textContent === 'muted'), null, { timeout: 10000 });
  // The report itself now says the mute is in force, and until when (browser finding 14).
  await page.waitForSelector(`${item} .mod-standing.in-force[data-muted="true"]`, { timeout: 10000 });
  const standing = await page.textContent(`${item} .mod-standing`);
  check(/^Muted until /.test(standing ?? ''), `the report shows the mute in force (${standing})`);
  // Its buttons follow the standing (browser finding 8 of round 4): muted, so Unmute and no Mute.
  const buttons = await page.$$eval(`${item} .actions button`, els => els.map(e => e.textContent));
  check(!buttons.includes('Mute for an hour') && buttons.includes('Unmute') && !buttons.includes('Reopen the account') && !buttons.includes('Take the mark off') && buttons.includes('Close the account'),
    `the actions follow the standing (${JSON.stringify(buttons)})`);
  const codes = await page.$$eval('#mod-log .mod-action', els => els.map(e => e.textContent));
  check(!codes.includes('mute') && !codes.includes('grant_mod'), `the log's actions are words (${JSON.stringify(codes)})`);
  await screenshot(page, 'mod-words');
}

async function menuAndPlayerSearch() {
  // On a phone: the menu holds watching, the game search, the following list and a player search.
  const page = bobPage;
  await page.goto(`${base}/rules`);
  await page.click('#menu-toggle');
  for (const href of ['/tv', '/games/search', '/following']) {
    check(await page.isVisible(`#main-nav a[href="${href}"]`), `the phone menu links ${href}`);
  }
  check(!(await page.isVisible('#main-nav a[href="/mod"]')), 'a player gets no moderation link');
  await page.fill('#player-search', ann.slice(0, 6).toUpperCase());
  const link = `#player-found a[href="/@/${ann}"]`;
  await page.waitForSelector(link, { timeout: 10000 });
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  check(wide <= 390, `the menu with its found players fits 390 px (${wide} px)`);
  await screenshot(page, 'player-search-phone');
  await page.click(link);
  await page.waitForURL(new RegExp(`/@/${ann}$`));
  await page.goto(`${base}/rules`);
  await page.click('#menu-toggle');
  await page.fill('#player-search', `zz${stamp}`);
  await page.waitForSelector('#player-found li.muted', { timeout: 10000 });
  const api1 = await api(page, 'GET', '/api/players/search?q=a');
  eq(api1.status, 400, 'one character is refused');
}

async function moderatorMenu() {
  // The moderator of the scenario above gets /mod in the header.
  const page = /** @type {import('./lib.mjs').Page} */ (modPage);
  await page.goto(`${base}/rules`);
  await page.waitForSelector('#main-nav a[href="/mod"]', { state: 'attached', timeout: 10000 });
  await clickNav(page, '/mod');
  await page.waitForURL(/\/mod$/);
}

/** @type {import('./lib.mjs').Page | null} */
let modPage = null;

async function emptyTv(browser) {
  const guest = await newPage(browser, phone);
  // No Ice Age Chess game runs in this script.
  await guest.goto(`${base}/tv/iceage`);
  const words = await textOf(guest, '#tv-none');
  check(words.includes('No game is being played'), `an empty TV says so (${words})`);
  eq(await guest.getAttribute('#tv-lobby', 'href'), '/', 'with a link to the lobby');
}

await suite([
  ['the game search names an unknown player', searchWords],
  ['a refused chat text stays, its reason beside the box', chatRefusedKeepsText],
  ['a logged-out watcher is asked to log in', anonymousWatcher],
  ['a rematch after a block says why', rematchAfterBlock],
  ['the game search fits a phone', searchOnAPhone],
  ['/mod: game link, reason first, log in words', modWords],
  ['an empty TV says so', emptyTv],
  ['the menu and the player search on a phone', menuAndPlayerSearch],
  ['a moderator finds /mod in the menu', moderatorMenu],
]);
