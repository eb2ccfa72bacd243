// Accounts (issue 13): a new player registers from the log-in page and keeps the games this
// browser played; another browser logs in (a wrong password said so) and finds them; a new
// password logs the other browser out; log-out makes the browser anonymous again; the pages
// speak Russian and Turkish and fit a phone.

import { api, base, check, eq, newPage, screenshot, suite } from './lib.mjs';

const name = `e2e_${Date.now() % 1000000}`;
const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
let gameId = '';

async function registerKeepsGames(browser) {
  const page = await newPage(browser);
  await page.goto(`${base}/`);
  gameId = (await api(page, 'POST', '/api/games', { variant: 'antarctos', opponent: 'local' })).json.id;
  await page.waitForSelector('#account-link');
  eq(await page.textContent('#account-link'), 'Log in', 'an anonymous player is offered to log in');
  await page.click('#account-link');
  await page.waitForSelector('#register-form');
  // The page says what is wrong before asking the server.
  await page.fill('#register-name', 'a b');
  await page.fill('#register-password', 'correct horse');
  await page.click('#register-submit');
  eq(await page.textContent('#register-error'), '3 to 20 letters (A-Z), digits, _ or -.', 'a bad name is explained');
  await page.fill('#register-name', name);
  await page.fill('#register-password', 'short');
  await page.click('#register-submit');
  eq(await page.textContent('#register-error'), 'At least 8 characters.', 'a short password is explained');
  await page.fill('#register-password', 'correct horse');
  await page.click('#register-submit');
  await page.waitForFunction(() => location.pathname === '/my');
  await page.waitForFunction(n => document.querySelector('#account-link')?.textContent === n, name);
  await page.waitForSelector(`a[href="/game/${gameId}"]`);
  check(true, 'the browser\'s game is the account\'s');
  await screenshot(page, 'registered');
}

async function logInElsewhere(browser) {
  const page = await newPage(browser);
  await page.goto(`${base}/login`);
  await page.waitForSelector('#login-form');
  await page.fill('#login-name', name);
  await page.fill('#login-password', 'wrong horse');
  await page.click('#login-submit');
  await page.waitForFunction(() => document.querySelector('#login-error')?.textContent);
  eq(await page.textContent('#login-error'), 'Wrong username or password.', 'a wrong password is said plainly');
  await page.fill('#login-name', name.toUpperCase());
  await page.fill('#login-password', 'correct horse');
  await page.click('#login-submit');
  await page.waitForFunction(() => location.pathname === '/my');
  await page.waitForSelector(`a[href="/game/${gameId}"]`);
  eq(await page.textContent('#account-link'), name, 'logged in under the name as registered');
  // A new password here logs the first browser out.
  await page.click('#account-link');
  await page.waitForSelector('#password-form');
  eq(await page.textContent('#account-name'), `Logged in as ${name}`, 'the account page');
  await page.fill('#old-password', 'correct horse');
  await page.fill('#new-password', 'battery staple');
  await page.click('#password-submit');
  await page.waitForFunction(() => document.querySelector('#password-result')?.textContent);
  eq(await page.textContent('#password-result'), 'The password is changed; your other devices are logged out.', 'the password changes');
  const first = browser.contexts()[0].pages()[0];
  eq((await api(first, 'GET', '/api/me')).json.username, null, 'the other browser is logged out');
  await page.click('#logout');
  await page.waitForFunction(() => location.pathname === '/' && document.querySelector('#account-link')?.textContent === 'Log in');
  eq((await api(page, 'GET', '/api/my-games')).json.length, 0, 'a logged-out browser is anonymous again');
}

async function languagesAndPhone(browser) {
  const page = await newPage(browser, phone);
  await page.goto(`${base}/login`);
  await page.waitForSelector('#login-form');
  for (const [lang, title, button] of [['ru', 'Вход', 'Зарегистрироваться'], ['tr', 'Giriş yap', 'Kaydol']]) {
    await page.selectOption('select.lang', lang);
    await page.waitForFunction(t => document.querySelector('#login-form h1')?.textContent === t, title);
    eq(await page.textContent('#register-submit'), button, `${lang}: the register button`);
  }
  await page.selectOption('select.lang', 'en');
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  check(width <= 390, `the log-in page fits a phone (${width} px)`);
  await page.fill('#login-name', name);
  await page.fill('#login-password', 'battery staple');
  await page.click('#login-submit');
  await page.waitForFunction(() => location.pathname === '/my');
  await screenshot(page, 'phone-logged-in', 'account-phone.png');
}

/** Vacation (issue 38): taken from the account page, it stops the account's correspondence
 * clock, which the opponent's page says; ended from the same page, the days it lasted stay
 * taken. */
async function vacation(browser) {
  const ann = await newPage(browser);
  await ann.goto(`${base}/`);
  const name = `vac${Date.now() % 1000000}`;
  eq((await api(ann, 'POST', '/api/accounts', { username: name, password: 'correct horse' })).status, 201, 'Ann registers');
  const made = (await api(ann, 'POST', '/api/games', { variant: 'iceage', opponent: 'friend', color: 'white', time_control: { kind: 'correspondence', days: 1 } })).json;
  const bob = await newPage(browser);
  await bob.goto(`${base}/`);
  eq((await api(bob, 'POST', `/api/join/${made.invite_url.replace('/join/', '')}`)).status, 200, 'a friend joins');
  eq((await api(ann, 'POST', `/api/games/${made.id}/moves`, { move: 'g1f3', ply: 0 })).status, 200, 'Ann moves');
  eq((await api(bob, 'POST', `/api/games/${made.id}/moves`, { move: 'g8f6', ply: 1 })).status, 200, 'the friend answers');
  await ann.goto(`${base}/account`);
  await ann.waitForSelector('#vacation-left:not(:empty)');
  eq(await ann.textContent('#vacation-left'), `30 of 30 days left in ${new Date().getUTCFullYear()}`, 'the days a year');
  await ann.fill('#vacation-days', '3');
  await ann.click('#vacation-submit');
  await ann.waitForSelector('#vacations li');
  check((await ann.textContent('#vacations li')).startsWith('On vacation now, until'), `said: ${await ann.textContent('#vacations li')}`);
  eq(await ann.textContent('#vacation-left'), `27 of 30 days left in ${new Date().getUTCFullYear()}`, 'three days taken');
  await screenshot(ann, 'account-vacation');
  // The friend's page: Ann's clock stands, and says until when.
  await bob.goto(`${base}/game/${made.id}`);
  await bob.waitForSelector('.clock.vacation');
  check((await bob.textContent('.clock.vacation')).startsWith('On vacation until'), `the clock says so: ${await bob.textContent('.clock.vacation')}`);
  await screenshot(bob, 'game-opponent-on-vacation');
  // Ann comes back: the clock runs again.
  await ann.click('.vacation-end');
  await ann.waitForFunction(() => document.querySelectorAll('#vacations li').length === 0);
  await bob.reload();
  await bob.waitForSelector('.clock.running');
  eq(await bob.$$eval('.clock.vacation', x => x.length), 0, 'no longer on vacation');
  await api(ann, 'DELETE', '/api/session', {});
}

await suite([
  ['registering keeps the browser\'s games', registerKeepsGames],
  ['another browser logs in, changes the password, logs out', logInElsewhere],
  ['Russian, Turkish and a phone', languagesAndPhone],
  ['a vacation from the account page stops the correspondence clock', vacation],
]);
