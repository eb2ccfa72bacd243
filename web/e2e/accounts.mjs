// Accounts (issue 13): a new player registers from the log-in page and keeps the games this
// browser played; another browser logs in (a wrong password said so) and finds them; a new
// password logs the other browser out; log-out makes the browser anonymous again; the pages
// speak Russian and Turkish and fit a phone.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

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
  // "Forgot your password?" is inside the log-in card, not below it.
  const inCard = await page.evaluate(() => {
    const card = document.querySelector('#login-form')?.closest('.card');
    return !!card && card.contains(document.querySelector('#forgot'));
  });
  check(inCard, '"forgot your password" is in the log-in card');
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
  // The words are read above the board, not hidden behind it (the top seat's clock wrapped
  // under the name behind the board), on a desktop and on a phone.
  const clockAboveBoard = async (/** @type {import('playwright-core').Page} */ p, what) => {
    const r = await p.evaluate(() => {
      const face = document.querySelector('.player.top .clock.vacation');
      const board = document.querySelector('.board-box');
      if (!face || !board) return null;
      const f = face.getBoundingClientRect();
      const b = board.getBoundingClientRect();
      const hit = document.elementFromPoint(f.left + f.width / 2, f.bottom - 3);
      return { bottom: f.bottom, boardTop: b.top, seen: !!hit && face.contains(hit), text: face.textContent };
    });
    check(r !== null, `${what}: the opponent's clock on vacation is the top one`);
    check(r.bottom <= r.boardTop + 1, `${what}: the vacation clock ends above the board (${r.bottom} > ${r.boardTop})`);
    check(r.seen, `${what}: the vacation clock's last line is not covered (${r.text})`);
  };
  await clockAboveBoard(bob, 'desktop');
  const bobPhone = await newPage(browser, phone);
  await bobPhone.context().addCookies(await bob.context().cookies());
  await bobPhone.goto(`${base}/game/${made.id}`);
  await bobPhone.waitForSelector('.clock.vacation');
  await clockAboveBoard(bobPhone, 'phone');
  await screenshot(bobPhone, 'game-opponent-on-vacation-phone');
  await bobPhone.close();
  // Ann comes back: the clock runs again.
  await ann.click('.vacation-end');
  await ann.waitForFunction(() => document.querySelectorAll('#vacations li').length === 0);
  await bob.reload();
  await bob.waitForSelector('.clock.running');
  eq(await bob.$$eval('.clock.vacation', x => x.length), 0, 'no longer on vacation');
  await api(ann, 'DELETE', '/api/session', {});
}

/** The mails in the test SMTP server's maildir to `to`, decoded (quoted-printable), oldest first. */
function mailsTo(to) {
  const dir = process.env.ICEBOUND_TEST_MAILDIR;
  /** @type {[number, string][]} */
  const found = [];
  for (const sub of ['new', 'cur']) {
    let names = [];
    try { names = readdirSync(join(dir, sub)); } catch { continue; }
    for (const n of names) {
      const path = join(dir, sub, n);
      const text = readFileSync(path, 'utf8');
      if (text.split(/\r?\n/).some(l => l.toLowerCase() === `to: ${to}`.toLowerCase())) {
        found.push([statSync(path).mtimeMs, text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, x) => String.fromCharCode(parseInt(x, 16)))]);
      }
    }
  }
  return found.sort((a, b) => a[0] - b[0]).map(x => x[1]);
}

/** The path of the link after `marker` in the `n`th mail to `to` (waits up to 15 s). */
async function linkIn(page, to, n, marker) {
  for (let i = 0; i < 150; i++) {
    const mails = mailsTo(to);
    if (mails.length >= n) {
      const m = mails[n - 1].match(new RegExp(`${marker.replace(/[?/]/g, '\\$&')}[A-Za-z0-9]+`));
      if (m) return m[0];
    }
    await page.waitForTimeout(100);
  }
  throw new Error(`no mail ${n} to ${to} with ${marker}`);
}

/** E-mail (issue 38): an address set and confirmed from the account page through the mailed
 * link; a forgotten password reset from the log-in page through the mailed link. Without a
 * test SMTP server the page says that the site sends no mail. */
async function emailAndRecovery(browser) {
  const page = await newPage(browser);
  await page.goto(`${base}/`);
  const name = `em${Date.now() % 1000000}`;
  eq((await api(page, 'POST', '/api/accounts', { username: name, password: 'correct horse' })).status, 201, 'registers');
  await page.goto(`${base}/account`);
  await page.waitForSelector('#email-state:not(:empty)');
  eq(await page.textContent('#email-state'), 'No address yet.', 'no address at first');
  // The switches one per line, each a tap target with a box big enough to see; the labels
  // above their boxes with room between (they touched).
  const look = await page.evaluate(() => {
    const rect = (/** @type {Element | null} */ e) => e?.getBoundingClientRect() ?? null;
    const boxes = ['#email-digest', '#email-low-time'].map(sel => {
      const box = document.querySelector(sel);
      return { box: rect(box), label: rect(box?.closest('label') ?? null) };
    });
    const gaps = ['#email-input', '#vacation-start', '#vacation-days'].map(sel => {
      const input = document.querySelector(sel);
      const words = input?.closest('label')?.firstChild;
      if (!input || !words) return -1;
      const r = document.createRange();
      r.selectNodeContents(words);
      return Math.round(input.getBoundingClientRect().top - r.getBoundingClientRect().bottom);
    });
    return { boxes, gaps };
  });
  const [d, l] = look.boxes;
  check(d.label && l.label && l.label.top >= d.label.bottom - 1, `the two e-mail switches are on lines of their own (${JSON.stringify(look.boxes)})`);
  for (const b of look.boxes) {
    check(b.box.width >= 20 && b.box.height >= 20, `a switch's box is at least 20 px (${b.box.width}x${b.box.height})`);
    check(b.label.height >= 44, `a switch's label is a 44 px tap target (${b.label.height})`);
  }
  check(look.gaps.every(g => g >= 3), `"Address", "From" and "Days" stand apart from their boxes (gaps ${look.gaps})`);
  if (!process.env.ICEBOUND_TEST_MAILDIR) {
    eq(await page.textContent('#email-result'), 'This site sends no e-mail now.', 'without mail, said');
    await api(page, 'DELETE', '/api/session', {});
    return;
  }
  const address = `${name}@example.com`;
  await page.fill('#email-input', address);
  await page.click('#email-submit');
  await page.waitForFunction(() => document.querySelector('#email-result')?.textContent.startsWith('A link'));
  check((await page.textContent('#email-state')).includes('not confirmed yet'), 'unconfirmed until the link is opened');
  const verify = await linkIn(page, address, 1, '/api/email/verify?token=');
  // The link opened logged out (another browser, a phone's mail app): the page says the
  // address is confirmed, then asks to log in.
  await api(page, 'DELETE', '/api/session', {});
  await page.goto(`${base}${verify}`);
  await page.waitForURL(/\/account\?email=verified$/);
  await page.waitForSelector('#to-login');
  eq(await page.textContent('#email-result'), 'Your address is confirmed.', 'confirmed, said to a logged-out page');
  check(!(await page.getAttribute('#email-result', 'class'))?.includes('error'), 'not as an error');
  eq(await page.textContent('#account-logged-out'), 'You are not logged in.', 'then the log-in prompt');
  await screenshot(page, 'email-confirmed-logged-out');
  eq((await api(page, 'POST', '/api/session', { username: name, password: 'correct horse' })).status, 200, 'logs in again');
  // A second click on the link: the address is confirmed already, which is said without an error.
  await page.goto(`${base}${verify}`);
  await page.waitForURL(/\/account\?email=bad_link$/);
  await page.waitForFunction(() => document.querySelector('#email-state')?.textContent.includes('(confirmed)'));
  await page.waitForFunction(() => document.querySelector('#email-result')?.textContent === 'Your address is already confirmed.');
  check(!(await page.getAttribute('#email-result', 'class'))?.includes('error'), 'a used link of a confirmed address is no error');
  eq([await page.isChecked('#email-digest'), await page.isChecked('#email-low-time')], [true, true], 'both kinds on at first');
  await page.uncheck('#email-digest');
  await page.waitForFunction(async () => !(await (await fetch('/api/me/email')).json()).digest);
  eq(await page.isChecked('#email-digest'), false, 'the digest turned off');
  await screenshot(page, 'account-email');
  await api(page, 'DELETE', '/api/session', {});
  // Forgot the password: from the log-in page.
  await page.goto(`${base}/login`);
  await page.click('#forgot summary');
  await page.fill('#forgot-name', name);
  await page.click('#forgot-submit');
  await page.waitForFunction(() => document.querySelector('#forgot-result')?.textContent.startsWith('If this account'));
  const reset = await linkIn(page, address, 2, '/reset?token=');
  await page.goto(`${base}${reset}`);
  await page.fill('#reset-password', 'a brand new one');
  await page.click('#reset-submit');
  await page.waitForSelector('#reset-login');
  eq((await api(page, 'POST', '/api/session', { username: name, password: 'a brand new one' })).status, 200, 'the new password logs in');
  // The link works once.
  await page.goto(`${base}${reset}`);
  await page.fill('#reset-password', 'yet another one');
  await page.click('#reset-submit');
  await page.waitForFunction(() => document.querySelector('#reset-result')?.classList.contains('error'));
  eq(await page.textContent('#reset-result'), 'This reset link is unknown, used or expired: ask for a new one. Forgot your password? Ask for a new link',
    'a used link is said so, not "the server did not understand"');
  // A link cut short (no token) says so before the form is filled, and leads to a new one.
  await api(page, 'DELETE', '/api/session', {});
  await page.goto(`${base}/reset`);
  await page.waitForSelector('#reset-incomplete');
  check((await page.textContent('#reset-incomplete')).startsWith('This link is incomplete'), `no token, said: ${await page.textContent('#reset-incomplete')}`);
  await page.click('#reset-incomplete a');
  await page.waitForFunction(() => location.pathname === '/login' && document.querySelector('#forgot')?.hasAttribute('open'));
  check(await page.isVisible('#forgot-name'), 'the link opens "forgot your password"');
}

await suite([
  ['registering keeps the browser\'s games', registerKeepsGames],
  ['another browser logs in, changes the password, logs out', logInElsewhere],
  ['Russian, Turkish and a phone', languagesAndPhone],
  ['a vacation from the account page stops the correspondence clock', vacation],
  ['an e-mail address confirmed by its link, and a password reset by mail', emailAndRecovery],
]);
