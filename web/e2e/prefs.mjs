// Issue 41's "Also" preferences and profile in a browser, at a desktop's width and a 390 px
// phone's: an account sets a board theme, dark colours and zen mode on /account, and after a
// reload (its browser's copy wiped) sees them kept from the server, the game page in zen mode
// and "z" leaving it; an anonymous player's choices stay in localStorage across a reload; a
// correspondence move waits for its confirm button (cancel puts it back, confirm sends it), on
// the desktop and on the phone; a bio and country show on the profile as text, with the
// recent activity.

import { api, base, check, clickSquare, eq, newPage, openGame, registered, screenshot, suite, waitForMoves } from './lib.mjs';

const stamp = Date.now() % 1000000;
const ann = `ann_p${stamp}`;
const bob = `bob_p${stamp}`;
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
let annPage;
let bobPage;
let gameId = '';


/** Waits for the "Saved." of the preferences form after a change. */
async function saved(page) {
  await page.waitForFunction(() => document.querySelector('#prefs-result')?.textContent === 'Saved.');
  await page.evaluate(() => { const m = document.querySelector('#prefs-result'); if (m) m.textContent = ''; });
}

const rootData = (page, key) => page.evaluate(k => document.documentElement.dataset[k], key);

/** A correspondence game of Antarctos, ann White and bob Black, made through the API. */
async function newCorrespondenceGame() {
  const seek = await api(annPage, 'POST', '/api/seeks', {
    variant: 'antarctos', time_control: { kind: 'correspondence', days: 3 }, rated: true, color: 'white',
  });
  eq(seek.status, 201, 'ann seeks a correspondence game');
  const g = await api(bobPage, 'POST', `/api/seeks/${seek.json.id}/accept`, {});
  eq(g.status, 201, 'bob accepts it');
  return g.json.id;
}

async function accountKeepsTheme(browser) {
  annPage = await registered(browser, ann);
  bobPage = await registered(browser, bob, PHONE);
  const page = annPage;
  await page.goto(`${base}/account`);
  await page.waitForSelector('#prefs #pref-antarctos_board');
  await page.selectOption('#pref-antarctos_board', 'abyss');
  await saved(page);
  await page.selectOption('#pref-mode', 'dark');
  await saved(page);
  await page.check('#pref-zen');
  await saved(page);
  eq(await rootData(page, 'antarctosBoard'), 'abyss', 'the board theme applies at once');
  eq(await rootData(page, 'mode'), 'dark', 'and the dark colours');
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  eq(bg, 'rgb(15, 22, 29)', 'the page is dark');
  const server = await api(page, 'GET', '/api/me/prefs');
  eq([server.json.antarctos_board, server.json.mode, server.json.zen], ['abyss', 'dark', true], 'kept on the server');
  // This browser's copy wiped: the reload takes them from the account.
  await page.evaluate(() => localStorage.removeItem('icebound.prefs'));
  await page.reload();
  await page.waitForFunction(() => document.documentElement.dataset.antarctosBoard === 'abyss' && document.documentElement.dataset.zen === 'on');
  await page.waitForSelector('#pref-antarctos_board');
  eq(await page.inputValue('#pref-antarctos_board'), 'abyss', 'after a reload the account\'s theme is kept');
  check(await page.isChecked('#pref-zen'), 'and zen mode');
  await screenshot(page, 'prefs-account-dark');
  // The game page in zen mode: no chat, no names, no tools; the board in the abyss colours.
  gameId = await newCorrespondenceGame();
  await openGame(page, gameId);
  await page.waitForSelector('html[data-zen="on"] section.game');
  for (const hidden of ['.chat-wrap', '.seat-name', '.tools']) check(!(await page.isVisible(hidden)), `zen mode hides ${hidden}`);
  check(await page.isVisible('#zen-leave'), 'and offers to leave it');
  const board = await page.$eval('.game .cg-wrap cg-board', b => getComputedStyle(b).backgroundColor);
  eq(board, 'rgb(31, 51, 73)', 'the Antarctos board is the abyss theme');
  await screenshot(page, 'prefs-zen');
  await page.keyboard.press('z');
  await page.waitForSelector('html[data-zen="off"] section.game');
  check(await page.isVisible('.seat-name'), '"z" leaves zen mode: the names are back');
  await page.waitForFunction(async () => (await (await fetch('/api/me/prefs')).json()).zen === false);
  check(true, 'and the account keeps zen mode off');
}

async function anonymousKeepsTheme(browser) {
  const page = await newPage(browser, PHONE);
  await page.goto(`${base}/account`);
  await page.waitForSelector('#prefs #pref-iceage_board');
  await page.selectOption('#pref-iceage_board', 'green');
  await saved(page);
  await page.check('#pref-zen');
  await saved(page);
  const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('icebound.prefs') ?? '{}'));
  eq([kept.iceage_board, kept.zen], ['green', true], 'an anonymous player\'s choices are in localStorage');
  eq((await api(page, 'GET', '/api/me/prefs')).status, 401, 'and not on the server');
  await page.reload();
  await page.waitForSelector('#pref-iceage_board');
  eq(await rootData(page, 'iceageBoard'), 'green', 'after a reload the board theme applies');
  eq(await page.inputValue('#pref-iceage_board'), 'green', 'and the form shows it');
  check(await page.isChecked('#pref-zen'), 'zen mode is kept');
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  check(wide <= 390, `the preferences fit a 390 px phone (${wide} px)`);
  await screenshot(page, 'prefs-anonymous-phone');
  await page.context().close();
}

async function confirmMoves() {
  const page = annPage;
  await page.goto(`${base}/account`);
  await page.waitForSelector('#pref-confirm_move');
  await page.check('#pref-confirm_move');
  await saved(page);
  await openGame(page, gameId);
  await clickSquare(page, 'c3');
  await clickSquare(page, 'd4');
  await page.waitForSelector('#confirm-move');
  let g = await api(page, 'GET', `/api/games/${gameId}`);
  eq(g.json.ply, 0, 'the move waits for its confirmation: nothing sent');
  await page.click('#confirm-move-no');
  await page.waitForSelector('#confirm-move', { state: 'detached' });
  const back = await page.$$eval('.game cg-board piece', ps => ps.length);
  check(back > 0, 'cancel puts the board back');
  g = await api(page, 'GET', `/api/games/${gameId}`);
  eq(g.json.ply, 0, 'and sends nothing');
  await clickSquare(page, 'c3');
  await clickSquare(page, 'd4');
  await page.click('#confirm-move-yes');
  await waitForMoves(page, 1);
  g = await api(page, 'GET', `/api/games/${gameId}`);
  eq(g.json.ply, 1, 'confirm sends the move');
  // Bob, on a phone, asks for confirmation too (through the API: his page takes it at load).
  const set = await api(bobPage, 'PUT', '/api/me/prefs', { confirm_move: true });
  eq(set.status, 200, 'bob sets move confirmation');
  await openGame(bobPage, gameId);
  await bobPage.waitForFunction(() => JSON.parse(localStorage.getItem('icebound.prefs') ?? '{}').confirm_move === true);
  await clickSquare(bobPage, 'f6');
  await clickSquare(bobPage, 'g5');
  await bobPage.waitForSelector('#confirm-move');
  const box = await bobPage.locator('#confirm-move-yes').boundingBox();
  check(box && box.x >= 0 && box.x + box.width <= 390 && box.height >= 44, `the confirm button is whole and tappable on a phone (${JSON.stringify(box)})`);
  await screenshot(bobPage, 'prefs-confirm-phone');
  await bobPage.click('#confirm-move-yes');
  await waitForMoves(bobPage, 2);
  eq((await api(bobPage, 'GET', `/api/games/${gameId}`)).json.ply, 2, 'bob\'s confirmed move is sent');
  eq((await api(bobPage, 'POST', `/api/games/${gameId}/resign`, {})).status, 200, 'bob resigns');
}

async function bioAndCountry() {
  const page = annPage;
  const bio = 'I play <b>Antarctos</b> & "Ice Age"\nsecond line';
  await page.goto(`${base}/account`);
  await page.waitForSelector('#profile-form #profile-bio');
  await page.fill('#profile-bio', bio);
  await page.selectOption('#profile-country', 'FR');
  await page.click('#profile-save');
  await page.waitForFunction(() => document.querySelector('#profile-result')?.textContent === 'Profile saved.');
  check(true, 'the profile is saved');
  // A bio too long is refused by the server, with its words.
  await page.evaluate(() => document.querySelector('#profile-bio')?.removeAttribute('maxlength'));
  await page.fill('#profile-bio', 'x'.repeat(401));
  await page.click('#profile-save');
  await page.waitForFunction(() => /bio: 401 characters/i.test(document.querySelector('#profile-result')?.textContent ?? ''));
  check(true, 'a bio over 400 characters is refused, naming the field');
  for (const viewer of [page, bobPage]) {
    await viewer.goto(`${base}/@/${ann}`);
    await viewer.waitForSelector('#profile-bio');
    eq(await viewer.textContent('#profile-bio'), bio, 'the bio shows as written, as text');
    eq(await viewer.$$eval('#profile-bio *', els => els.length), 0, 'its markup is not read');
    eq(await viewer.textContent('#profile-country'), 'France', 'the country by name');
    await viewer.waitForSelector('#profile-activity li.act-game');
    eq(await viewer.getAttribute('#profile-activity li.act-game', 'data-outcome'), 'win', 'the activity shows the game won');
  }
  const wide = await bobPage.evaluate(() => document.documentElement.scrollWidth);
  check(wide <= 390, `the profile fits a 390 px phone (${wide} px)`);
  await screenshot(bobPage, 'prefs-profile-phone');
}

await suite([
  ['an account keeps its theme and zen mode', accountKeepsTheme],
  ['an anonymous browser keeps its own', anonymousKeepsTheme],
  ['a correspondence move waits for its confirmation', confirmMoves],
  ['a bio and a country on the profile', bioAndCountry],
]);
