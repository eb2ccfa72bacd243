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

await suite([
  ['registering keeps the browser\'s games', registerKeepsGames],
  ['another browser logs in, changes the password, logs out', logInElsewhere],
  ['Russian, Turkish and a phone', languagesAndPhone],
]);
