// The community of issue 41 in browsers: two accounts follow each other and chat in a game
// (canned phrases, each shown in the reader's words; the page fits a 390 px phone), one
// reports a message, then blocks the other: the blocked player's messages and challenges no
// longer reach the blocker. A moderator (granted with `icebound admin grant-mod`, as the
// operator does) finds the reported message on `/mod`, pages its reports, closes and reopens,
// marks and unmarks the reported player with its buttons. A player mutes the other player's
// chat in one game ("Mute opponent"); an account sets "takes challenges from" on `/account`.

import { execFileSync } from 'node:child_process';
import { api, base, check, eq, newPage, registered, screenshot, sleep, suite } from './lib.mjs';

const stamp = Date.now() % 1_000_000;
const ann = `ann_${stamp}`;
const bob = `bob_${stamp}`;
const mira = `mira_${stamp}`;

/** The texts of the chat lines shown on `page`. */
const lines = page => page.$$eval('.chat-list .chat-line .chat-text', els => els.map(e => e.textContent));

let annPage;
let bobPage;

async function chatInAGame(browser) {
  annPage = await registered(browser, ann);
  // Bob reads on a phone.
  bobPage = await registered(browser, bob, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  eq((await api(annPage, 'POST', `/api/players/${bob}/follow`)).status, 204, 'Ann follows Bob');
  eq((await api(bobPage, 'POST', `/api/players/${ann}/follow`)).status, 204, 'Bob follows Ann');
  // A finished game first: a new account reports once it has one (or is 10 minutes old).
  const first = await api(annPage, 'POST', '/api/games', { variant: 'antarctos', opponent: 'friend', color: 'white' });
  eq((await api(bobPage, 'POST', `/api${first.json.invite_url}`)).status, 200, 'Bob joins a first game');
  // Two moves each: a game of fewer plies does not count (hostile finding 1).
  for (const p of [annPage, bobPage, annPage, bobPage]) {
    const v = await api(p, 'GET', `/api/games/${first.json.id}`);
    eq((await api(p, 'POST', `/api/games/${first.json.id}/moves`, { move: v.json.legal[0].id, ply: v.json.ply })).status, 200, 'a move of the first game');
  }
  eq((await api(bobPage, 'POST', `/api/games/${first.json.id}/resign`)).status, 200, 'Bob resigns the first game');
  const g = await api(annPage, 'POST', '/api/games', { variant: 'antarctos', opponent: 'friend', color: 'white' });
  eq(g.status, 201, 'Ann makes a friend game');
  const joined = await api(bobPage, 'POST', `/api${g.json.invite_url}`);
  eq(joined.status, 200, 'Bob joins it');
  const id = g.json.id;
  await annPage.goto(`${base}/game/${id}`);
  await bobPage.goto(`${base}/game/${id}`);
  await annPage.waitForSelector('.chat .chat-phrase');
  await bobPage.waitForSelector('.chat .chat-phrase');
  // During the game the players have their room alone: the watchers' is theirs after the end.
  eq(await annPage.$$eval('.chat-tab', t => t.map(e => e.dataset.room)), ['players'], 'a player of a game in progress has no watchers\' room');
  await annPage.click('.chat-phrase[data-phrase=good_luck]');
  await bobPage.waitForFunction(() => [...document.querySelectorAll('.chat-list .chat-text')].some(e => e.textContent === 'Good luck'), null, { timeout: 10000 });
  check((await lines(annPage)).includes('Good luck'), 'Ann sees her phrase too');
  await bobPage.click('.chat-phrase[data-phrase=have_fun]');
  await annPage.waitForFunction(() => [...document.querySelectorAll('.chat-list .chat-text')].some(e => e.textContent === 'Have fun'), null, { timeout: 10000 });
  // A 390 px phone: the game page with its chat does not overflow.
  const width = await bobPage.evaluate(() => document.documentElement.scrollWidth);
  check(width <= 390, `the game page with its chat fits 390 px (scroll width ${width})`);
  await bobPage.$eval('.chat', el => el.scrollIntoView());
  await screenshot(bobPage, 'chat-phone');
  // Bob reports Ann's message.
  const report = await bobPage.$('.chat-line:has(.chat-text:text-is("Good luck")) .chat-report');
  check(report !== null, 'Bob can report Ann\'s message');
  // One tap asks first (a tester filed a report by a stray tap): dismissed, nothing is sent.
  bobPage.once('dialog', d => d.dismiss());
  await report?.click();
  await bobPage.waitForTimeout(300);
  check(!(await bobPage.$$eval('.chat-report', bs => bs.some(b => b.textContent === 'Reported'))), 'a dismissed confirmation files no report');
  bobPage.once('dialog', d => d.accept());
  await report?.click();
  await bobPage.waitForFunction(() => [...document.querySelectorAll('.chat-report')].some(b => b.textContent === 'Reported'), null, { timeout: 10000 });
  // Bob blocks Ann: her next message does not reach him, and her challenges stop.
  eq((await api(bobPage, 'POST', `/api/players/${ann}/block`)).status, 204, 'Bob blocks Ann');
  await annPage.click('.chat-phrase[data-phrase=well_played]');
  await annPage.waitForFunction(() => [...document.querySelectorAll('.chat-list .chat-text')].some(e => e.textContent === 'Well played'), null, { timeout: 10000 });
  await sleep(1500);
  check(!(await lines(bobPage)).includes('Well played'), 'the blocked player\'s message never reaches the blocker');
  await bobPage.reload();
  await bobPage.waitForSelector('.chat .chat-phrase');
  await sleep(800);
  const after = await lines(bobPage);
  check(after.includes('Have fun') && !after.includes('Well played') && !after.includes('Good luck'),
    `after a reload the blocker's history has none of the blocked player's messages (${JSON.stringify(after)})`);
  const challenge = await api(annPage, 'POST', '/api/challenges', { username: bob, variant: 'antarctos', time_control: { kind: 'correspondence', days: 1 } });
  eq(challenge.status, 403, 'the blocked player\'s challenge is refused');
  eq(challenge.json.error?.code, 'not_accepted', 'as a player who takes no challenges');
  // Ann mutes Bob in this game: his next message reaches his own page, never hers.
  await annPage.waitForSelector('.chat-mute-label:not([hidden])', { timeout: 10000 });
  await annPage.click('.chat-mute');
  await annPage.waitForFunction(() => /** @type {HTMLInputElement | null} */ (document.querySelector('.chat-mute'))?.checked === true, null, { timeout: 10000 });
  const muted = await api(annPage, 'GET', `/api/games/${id}/chat`);
  eq(muted.json.opponent_muted, true, 'the toggle mutes the opponent on the server');
  await bobPage.click('.chat-phrase[data-phrase=thanks]');
  await bobPage.waitForFunction(() => [...document.querySelectorAll('.chat-list .chat-text')].some(e => e.textContent === 'Thanks'), null, { timeout: 10000 });
  await sleep(1500);
  check(!(await lines(annPage)).includes('Thanks'), 'a muted opponent\'s message never reaches the muting player');
}

async function takesChallengesFrom(browser) {
  const page = annPage ?? await registered(browser, `cf_${stamp}`);
  await page.goto(`${base}/account`);
  await page.waitForSelector('#challenges-from:not([disabled])', { timeout: 10000 });
  eq(await page.$eval('#challenges-from', s => s.value), 'everyone', 'everyone by default');
  await page.selectOption('#challenges-from', 'nobody');
  await page.waitForFunction(() => document.querySelector('#challenges-from-result')?.textContent === 'Saved.', null, { timeout: 10000 });
  eq((await api(page, 'GET', '/api/me/challenges-from')).json.from, 'nobody', 'the page saved "nobody"');
  await page.reload();
  await page.waitForSelector('#challenges-from:not([disabled])', { timeout: 10000 });
  eq(await page.$eval('#challenges-from', s => s.value), 'nobody', 'shown again after a reload');
  await page.selectOption('#challenges-from', 'following');
  await page.waitForFunction(() => document.querySelector('#challenges-from-result')?.textContent === 'Saved.', null, { timeout: 10000 });
  eq((await api(page, 'GET', '/api/me/challenges-from')).json.from, 'following', 'the page saved "following"');
}

async function reportReachesModerators(browser) {
  const page = await registered(browser, mira);
  const cmd = JSON.parse(process.env.ICEBOUND_SERVER_CMD ?? 'null');
  check(Array.isArray(cmd), 'the harness gives the server\'s command line (ICEBOUND_SERVER_CMD)');
  const db = cmd[cmd.indexOf('--database') + 1];
  execFileSync(cmd[0], ['admin', 'grant-mod', mira, '--database', db]);
  await page.goto(`${base}/mod`);
  await page.waitForSelector('#mod-reports li', { timeout: 10000 });
  const quoted = await page.$$eval('.report-message', els => els.map(e => e.textContent));
  check(quoted.includes('Good luck'), `the moderator sees the reported message (${JSON.stringify(quoted)})`);
  // The room around it (browser finding 14): who said what before and after, the report's line marked.
  const around = await page.$$eval('.mod-around li', els => els.map(e => ({ text: e.textContent ?? '', reported: e.classList.contains('reported') })));
  check(around.some(l => l.reported && l.text.includes(ann) && l.text.includes('Good luck')), `the reported line is marked with its author (${JSON.stringify(around)})`);
  check(around.some(l => !l.reported && l.text.includes(bob) && l.text.includes('Have fun')), `the other player's answer is shown around it (${JSON.stringify(around)})`);
  await screenshot(page, 'mod-chat-report');
  // Paging as the API pages (50): one page here, both buttons off.
  eq(await page.$eval('#mod-page', e => e.textContent), 'Page 1', 'the first page');
  check(await page.$eval('#mod-prev', b => b.disabled), 'no newer page than the first');
  check(await page.$eval('#mod-next', b => b.disabled), 'no older page after a short one');
  // The reported player (Ann): close then reopen, mark then unmark, by the buttons.
  const act = async (label, action) => {
    await page.fill('.mod-report .mod-reason', `e2e ${action}`);
    // A mark and a close ask once more (a tester marked a player by one click).
    let asked = false;
    const accept = d => { asked = true; d.accept(); };
    page.on('dialog', accept);
    await page.click(`.mod-report button:text-is("${label}")`);
    page.off('dialog', accept);
    eq(asked, ['mark', 'close', 'remove_chat'].includes(action), `${action} asks for a confirmation only if grave`);
    // The log says the action in words; its code stays in `data-action`.
    await page.waitForFunction(a => [...document.querySelectorAll('#mod-log .mod-action')].some(l => /** @type {HTMLElement} */ (l).dataset.action === a), action, { timeout: 10000 });
  };
  await act('Close the account', 'close');
  eq((await api(page, 'GET', `/api/players/${ann}/social`)).json.closed, true, 'closed by the button');
  await act('Reopen the account', 'reopen');
  eq((await api(page, 'GET', `/api/players/${ann}/social`)).json.closed, false, 'reopened by the button');
  await act('Mark as booster', 'mark');
  eq((await api(page, 'GET', `/api/players/${ann}/social`)).json.mark, 'booster', 'marked by the button');
  await act('Take the mark off', 'unmark');
  eq((await api(page, 'GET', `/api/players/${ann}/social`)).json.mark, null, 'unmarked by the button');
  // The reported message itself goes (hostile finding 7): logged as remove_chat.
  await act('Remove the message', 'remove_chat');
  const id = await page.$eval('.report-message', e => e.dataset.message);
  await page.waitForSelector(`.mod-around li.reported.removed[data-message="${id}"]`, { timeout: 10000 });
  eq((await api(page, 'POST', `/api/mod/chat/${id}/remove`, { reason: 'again' })).status, 404, 'removed once: a second removal finds nothing');
}

await suite([
  ['chat in a game, report, block', chatInAGame],
  ['takes challenges from, on the account page', takesChallengesFrom],
  ['a reported message reaches the moderators', reportReachesModerators],
]);
