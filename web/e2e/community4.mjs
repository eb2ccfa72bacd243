// The browser round of issue 41, fourth fixes: a Challenge button on another player's profile
// and in the following list opens the lobby's challenge form with the name filled in (browser
// finding 4); a game page whose log-in ended (a log-out in another tab) says so and stops
// reconnecting, and the header offers the log-in again; the following list shows a player
// online while any page of the site is open, and refreshes by itself (browser finding 2).

import { api, base, check, eq, newPage, PASSWORD, registered, screenshot, sleep, suite } from './lib.mjs';

const stamp = Date.now() % 1_000_000;
const ann = `ann4_${stamp}`;
const bob = `bob4_${stamp}`;
const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** @type {import('./lib.mjs').Page} */
let annPage;
/** @type {import('./lib.mjs').Page} */
let bobPage;

async function challengeFromProfile(browser) {
  annPage = await registered(browser, ann);
  bobPage = await registered(browser, bob, phone);
  await annPage.goto(`${base}/@/${bob}`);
  await annPage.waitForSelector('#challenge-button');
  eq(await annPage.getAttribute('#challenge-button', 'href'), `/?challenge=${bob}`, 'the profile\'s Challenge leads to the lobby\'s form');
  await annPage.click('#challenge-button');
  await annPage.waitForURL(new RegExp(`/\\?challenge=${bob}$`));
  await annPage.waitForSelector('#challenge-form');
  eq(await annPage.inputValue('#challenge-user'), bob, 'the name is filled in');
  check(await annPage.$eval('#lobby-challenge', d => /** @type {HTMLDetailsElement} */ (d).open), 'the form is open');
  check(await annPage.evaluate(() => document.activeElement?.id === 'challenge-variant'), 'the game is the next thing to pick');
  await screenshot(annPage, 'challenge-form-filled');
  await annPage.click('#challenge-submit');
  await annPage.waitForFunction(() => document.querySelector('#challenges-out li.challenge') !== null, null, { timeout: 10000 });
  check((await annPage.textContent('#challenges-out li.challenge')).includes(bob), 'the challenge to the profile\'s player is sent');
  // No button on one's own profile, nor for a visitor who is not logged in.
  await annPage.goto(`${base}/@/${ann}`);
  await annPage.waitForSelector('#following-link');
  eq(await annPage.locator('#challenge-button').count(), 0, 'no Challenge on one\'s own profile');
  const anon = await newPage(browser);
  await anon.goto(`${base}/@/${bob}`);
  await anon.waitForSelector('#profile-social p');
  eq(await anon.locator('#challenge-button').count(), 0, 'none for an anonymous visitor');
  // A name that is not one (too long, odd characters) is not put in the form.
  await anon.goto(`${base}/?challenge=${encodeURIComponent('<b>x</b>')}`);
  await anon.waitForSelector('#lobby-challenge');
  check(!(await anon.$eval('#lobby-challenge', d => /** @type {HTMLDetailsElement} */ (d).open)), 'a bad name leaves the form closed');
  await anon.context().close();
}

async function challengeFromFollowing() {
  const followed = await api(bobPage, 'POST', `/api/players/${ann}/follow`);
  check(followed.status < 300, `bob follows ann (${followed.status})`);
  // Two games in play are two links with their numbers (browser finding 9 of round 4).
  const games = [];
  for (let i = 1; i <= 2; i += 1) {
    const g = await api(bobPage, 'POST', '/api/games', { variant: 'antarctos', opponent: 'friend', color: 'white', time_control: { kind: 'realtime', initial_s: 300, increment_s: 3 } });
    eq((await api(annPage, 'POST', `/api${g.json.invite_url}`)).status, 200, `ann joins bob's game ${i}`);
    games.push(g.json.id);
  }
  await bobPage.goto(`${base}/following`);
  await bobPage.waitForSelector(`#following li[data-username="${ann}"] a[href="/game/${games[1]}"]`, { timeout: 15000 });
  const words = await bobPage.$$eval(`#following li[data-username="${ann}"] a[href^="/game/"]`, els => els.map(e => e.textContent));
  eq(JSON.stringify(words), JSON.stringify(['watch game 1', 'watch game 2']), 'two games in play are two numbered links');
  for (const id of games) eq((await api(bobPage, 'POST', `/api/games/${id}/abort`, {})).status, 200, 'the game is aborted');
  await bobPage.goto(`${base}/following`);
  const link = `#following li[data-username="${ann}"] a.following-challenge`;
  await bobPage.waitForSelector(link);
  const box = await bobPage.$eval(link, a => { const r = a.getBoundingClientRect(); return { w: r.width, h: r.height }; });
  check(box.w >= 44 && box.h >= 44, `the list's Challenge is a whole tap target on a phone (${JSON.stringify(box)})`);
  await bobPage.click(link);
  await bobPage.waitForSelector('#challenge-form');
  eq(await bobPage.inputValue('#challenge-user'), ann, 'the followed player\'s name is filled in');
  const top = await bobPage.$eval('#lobby-challenge', el => el.getBoundingClientRect().top);
  check(top > -2 && top < 844, `the form is on the phone's screen (${Math.round(top)} px)`);
  await screenshot(bobPage, 'challenge-from-following-phone');
}

async function loginEndedOnGamePage(browser) {
  // Ann plays bob; her game page is open when her log-in ends in another tab.
  const g = await api(annPage, 'POST', '/api/games', { variant: 'antarctos', opponent: 'friend', color: 'white' });
  eq(g.status, 201, 'a friend game is made');
  eq((await api(bobPage, 'POST', `/api${g.json.invite_url}`)).status, 200, 'the friend joins');
  await annPage.goto(`${base}/game/${g.json.id}`);
  await annPage.waitForSelector('.live.on', { timeout: 10000 });
  let sockets = 0;
  annPage.on('websocket', () => { sockets += 1; });
  const other = await annPage.context().newPage();
  await other.goto(`${base}/account`);
  eq((await api(other, 'DELETE', '/api/session', {})).status, 200, 'ann logs out in another tab');
  await annPage.waitForFunction(() => /log-in ended/.test(document.body.textContent ?? ''), null, { timeout: 10000 });
  check(true, 'the game page says the log-in ended');
  await annPage.waitForSelector('#account-link[href^="/login"]', { timeout: 10000 });
  eq(await annPage.getAttribute('#account-link', 'href'), `/login?next=${encodeURIComponent(`/game/${g.json.id}`)}`,
    'the header offers the log-in again, back to this game');
  await sleep(5000);
  eq(sockets, 1, 'and the page opens one socket, a watcher\'s (browser finding 3 of round 5)');
  check(!(await annPage.isVisible('.live.off')), 'nor says it is reconnecting');
  await screenshot(annPage, 'login-ended');
  await other.close();
  // The game ends (a game in play counts as online, whatever the pages).
  eq((await api(bobPage, 'POST', `/api/games/${g.json.id}/abort`, {})).status, 200, 'bob aborts the game');
  void browser;
}

async function followingRefreshes() {
  // Ann's log-in ended above. Bob's list, left open, follows her coming and going by itself:
  // "online" is any page of the site open, not only the lobby (browser finding 2).
  await bobPage.goto(`${base}/following`);
  const dot = `#following li[data-username="${ann}"] .online-dot`;
  await bobPage.waitForSelector(dot);
  const online = () => bobPage.$eval(dot, d => d.classList.contains('on'));
  check(!(await online()), 'ann, logged out, is offline');
  const r = await api(annPage, 'POST', '/api/session', { username: ann, password: PASSWORD });
  eq(r.status, 200, 'ann logs in again');
  await annPage.goto(`${base}/rules`);
  await bobPage.waitForFunction(s => document.querySelector(s)?.classList.contains('on'), dot, { timeout: 20000 });
  check(true, 'ann reading the rules shows as online, without a reload');
  await annPage.context().close();
  await bobPage.waitForFunction(s => document.querySelector(s) && !document.querySelector(s)?.classList.contains('on'), dot, { timeout: 20000 });
  check(true, 'her tab closed, she shows as offline, without a reload');
}

await suite([
  ['a profile\'s Challenge fills in the lobby\'s form', challengeFromProfile],
  ['the following list\'s Challenge, on a phone', challengeFromFollowing],
  ['a game page whose log-in ended says so and stays closed', loginEndedOnGamePage],
  ['the following list follows who is online by itself', followingRefreshes],
]);
