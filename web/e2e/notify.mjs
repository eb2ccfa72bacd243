// Notifications (issue 38) in two browsers: a challenge pops up on a page that is not the home
// page and is accepted from there; the challenger's bell counts the acceptance live and lists it;
// a correspondence move raises the opponent's bell and title on another page, but not while that
// player looks at the game itself; a finished game's badge says so; the bell and the pop-up on
// a 390 px phone; a gone opponent's countdown and claim; a conditional premove entered on the page plays itself; the offer of notifications on this device after a first correspondence game.

import { api, base, check, eq, newPage, screenshot, suite } from './lib.mjs';

const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const n = Date.now() % 1000000;
const [ann, bob] = [`nann_${n}`, `nbob_${n}`];
/** @type {{ ann?: import('playwright-core').Page, bob?: import('playwright-core').Page, game?: string }} */
const s = {};

/** A page of a new account `name`, on `path`. */
async function player(browser, name, path, options) {
  const page = await newPage(browser, options);
  await page.goto(`${base}/rules`);
  eq((await api(page, 'POST', '/api/accounts', { username: name, password: 'correct horse' })).status, 201, `${name} registers`);
  await page.goto(`${base}${path}`);
  await page.waitForSelector('#notify-bell');
  return page;
}

const count = page => page.$eval('#notify-count', e => ((/** @type {HTMLElement} */ (e)).hidden ? 0 : Number(e.textContent)));

/** Plays the first legal move of the game for `page`'s player. */
async function move(page, id) {
  const g = (await api(page, 'GET', `/api/games/${id}`)).json;
  const r = await api(page, 'POST', `/api/games/${id}/moves`, { move: g.legal[0].text, ply: g.ply });
  eq(r.status, 200, 'the move is played');
}

async function challengePopsUpAnywhere(browser) {
  s.ann = await player(browser, ann, '/rules', { pushOffer: true });
  s.bob = await player(browser, bob, '/stats');
  eq(await count(s.bob), 0, 'no notification yet');
  const c = await api(s.bob, 'POST', '/api/challenges', { username: ann, variant: 'iceage', time_control: { kind: 'correspondence', days: 3 }, color: 'white' });
  eq(c.status, 201, 'Bob challenges Ann');
  // Ann is on the rules page: the challenge pops up there, with who and the terms.
  const pop = await s.ann.waitForSelector('#challenge-popup:not([hidden])', { timeout: 10000 });
  eq(await pop.$eval('.challenge-popup-who', e => e.textContent), `${bob} challenges you`, 'the pop-up says who');
  check((await pop.$eval('.challenge-popup-terms', e => e.textContent)).includes('3 days'), 'and the clock');
  eq(await s.ann.getAttribute('#challenge-popup', 'role'), 'alertdialog', 'announced as an alert dialog');
  await screenshot(s.ann, 'notify-challenge-popup', 'challenge-popup.png');
  await s.ann.click('#challenge-popup .popup-accept');
  await s.ann.waitForURL(/\/game\/[\w-]+$/, { timeout: 10000 });
  s.game = new URL(s.ann.url()).pathname.split('/').pop();
  check(await s.ann.isHidden('#challenge-popup'), 'the pop-up is gone once answered');
  // Her first correspondence game: the page offers notifications on this device, once.
  const offer = await s.ann.waitForSelector('#push-offer', { timeout: 10000 });
  check((await offer.textContent()).includes('when it is your move'), 'the offer says what it is for');
  // In the page's flow above it, not over its controls (browser finding 4 of round 5).
  const lies = await s.ann.evaluate(() => {
    const box = document.getElementById('push-offer');
    const app = document.getElementById('app');
    return { next: box?.nextElementSibling?.id, box: box?.getBoundingClientRect().bottom ?? 0, app: app?.getBoundingClientRect().top ?? 0 };
  });
  check(lies.next === 'app' && lies.box <= lies.app + 1, `the offer stands above the page, covering none of it (${JSON.stringify(lies)})`);
  await screenshot(s.ann, 'notify-push-offer');
  await s.ann.click('#push-offer-later');
  await s.ann.waitForSelector('#push-offer', { state: 'detached' });
  await s.ann.reload();
  await s.ann.waitForSelector('.game .cg-wrap');
  await s.ann.waitForTimeout(500);
  check(!(await s.ann.$('#push-offer')), '"not now" is remembered');
  // Bob's bell counts the acceptance without a reload, and so does his title.
  await s.bob.waitForFunction(() => document.querySelector('#notify-count')?.textContent === '1', null, { timeout: 10000 });
  check((await s.bob.title()).startsWith('(1) '), `the title counts it: ${await s.bob.title()}`);
  eq(await s.bob.getAttribute('#notify-bell', 'aria-label'), 'Notifications: 1 unread', 'the bell says the count');
  await s.bob.click('#notify-bell');
  const item = await s.bob.waitForSelector('#notify-panel .notify-item');
  eq(await item.$eval('.notify-text', e => e.textContent), `${ann} accepted your challenge`, 'the list words it');
  await s.bob.waitForFunction(() => (/** @type {HTMLElement | null} */ (document.querySelector('#notify-count')))?.hidden === true);
  eq((await api(s.bob, 'GET', '/api/notifications')).json.unread, 0, 'opening the list marked it read');
  await screenshot(s.bob, 'notify-list', 'notifications.png');
  // The item leads to the game.
  await item.click();
  await s.bob.waitForURL(new RegExp(`/game/${s.game}$`));
}

async function correspondenceMovesRaiseTheBell(browser) {
  const { ann: a, bob: b, game } = s;
  if (!a || !b || !game) throw new Error('needs the first scenario');
  // Bob (White) moves while Ann looks at the game: her count stays at 0, the move is on screen.
  await move(b, game);
  await a.waitForTimeout(1500);
  eq(await count(a), 0, 'no count for the game on the screen');
  eq((await api(a, 'GET', '/api/notifications')).json.unread, 0, 'and it was marked read');
  // Ann goes elsewhere and moves by the API; Bob, on another page now, is told.
  await b.goto(`${base}/my`);
  await b.waitForSelector('#notify-bell');
  await move(a, game);
  await b.waitForFunction(() => document.querySelector('#notify-count')?.textContent === '1', null, { timeout: 10000 });
  const list = (await api(b, 'GET', '/api/notifications')).json;
  eq([list.items[0].kind, list.items[0].game, list.items[0].by], ['your_move', game, ann], 'your move, in this game, by Ann');
  // Ann resigns, on the game page: its badge no longer says "live", and Bob is told.
  eq((await api(a, 'POST', `/api/games/${game}/resign`)).status, 200, 'Ann resigns');
  await a.waitForSelector('.live.over', { timeout: 10000 });
  eq(await a.textContent('.live'), '■ game over', 'the badge says the game is over');
  await b.waitForFunction(() => document.querySelector('#notify-count')?.textContent === '2', null, { timeout: 10000 });
}

async function phoneBell(browser) {
  const page = await player(browser, `nph_${n}`, '/rules', phone);
  const box = await page.$eval('#notify-bell', e => { const r = e.getBoundingClientRect(); return [r.width, r.height]; });
  check(box[0] >= 44 && box[1] >= 44, `the bell is a 44 px tap target on a phone (${box})`);
  const c = await api(s.bob ?? page, 'POST', '/api/challenges', { username: `nph_${n}`, variant: 'antarctos', time_control: { kind: 'correspondence', days: 2 } });
  eq(c.status, 201, 'a challenge to the phone player');
  await page.waitForSelector('#challenge-popup:not([hidden])', { timeout: 10000 });
  // Logged in with a count on the bell: the header stays two rows (brand, account, bell; the
  // links and the language), the logo on one line (it took four rows, "❄ / icebound").
  await page.waitForSelector('#notify-count:not([hidden])', { timeout: 10000 });
  const head = await page.evaluate(() => {
    const top = document.querySelector('header.top');
    // Rows: the children's vertical middles, a new row from 20 px below the last.
    const mids = [...(top?.children ?? [])].map(e => e.getBoundingClientRect()).filter(r => r.height > 0)
      .map(r => r.top + r.height / 2).sort((x, y) => x - y);
    const rows = mids.filter((m, i) => i === 0 || m - mids[i - 1] > 20);
    const brand = document.querySelector('header.top .brand')?.getBoundingClientRect();
    return { height: top?.getBoundingClientRect().height ?? 0, rows: rows.length, brand: brand?.height ?? 0, right: top?.scrollWidth ?? 0 };
  });
  check(head.rows <= 2 && head.height <= 100, `the phone header is at most two rows (${JSON.stringify(head)})`);
  check(head.brand <= 50, `the logo does not wrap (${head.brand} px high)`);
  check(head.right <= 390, `nothing in the header passes the edge (${head.right})`);
  const right = await page.$eval('#challenge-popup', e => e.getBoundingClientRect().right);
  check(right <= 390, `the pop-up fits the phone (right edge ${right})`);
  for (const b of await page.$$('#challenge-popup button')) {
    const r = await b.boundingBox();
    check(r !== null && r.height >= 44 && r.width >= 44, 'its buttons are tap targets');
  }
  await screenshot(page, 'notify-phone-popup');
  await page.click('#challenge-popup .popup-decline');
  await page.waitForSelector('#challenge-popup', { state: 'hidden' });
  await page.click('#notify-bell');
  await page.waitForSelector('#notify-panel .notify-item');
  const panel = await page.$eval('#notify-panel', e => { const r = e.getBoundingClientRect(); return [r.left, r.right]; });
  check(panel[0] >= 0 && panel[1] <= 390, `the list fits the phone (${panel})`);
}

/** The first `n` moves of Antarctos from the start, each the first legal one. */
async function antarctosLine(page, n) {
  const g = (await api(page, 'POST', '/api/games', { variant: 'antarctos', opponent: 'local' })).json;
  const moves = [];
  for (let i = 0; i < n; i++) {
    const v = (await api(page, 'GET', `/api/games/${g.id}`)).json;
    moves.push(v.legal[0].text);
    eq((await api(page, 'POST', `/api/games/${g.id}/moves`, { move: v.legal[0].text, ply: v.ply })).status, 200, 'a scratch move');
  }
  return moves;
}

/** "accepted your challenge" is read on the game's page, as "your move" is: it stayed unread
 * while the challenger played the game. */
async function acceptedIsReadOnItsGamePage(browser) {
  const { ann: a, bob: b } = s;
  if (!a || !b) throw new Error('needs the first scenario');
  await api(b, 'POST', '/api/notifications/read', { all: true });
  await b.goto(`${base}/rules`);
  await b.waitForSelector('#notify-bell');
  const c = await api(b, 'POST', '/api/challenges', { username: ann, variant: 'antarctos', time_control: { kind: 'correspondence', days: 2 }, color: 'white' });
  eq(c.status, 201, 'Bob challenges Ann');
  const g = (await api(a, 'POST', `/api/challenges/${c.json.id}/accept`)).json;
  await b.waitForFunction(() => document.querySelector('#notify-count')?.textContent === '1', null, { timeout: 10000 });
  await b.goto(`${base}/game/${g.id}`);
  await b.waitForSelector('.game .cg-wrap');
  await b.waitForFunction(() => (/** @type {HTMLElement | null} */ (document.querySelector('#notify-count')))?.hidden === true, null, { timeout: 10000 });
  const list = (await api(b, 'GET', '/api/notifications')).json;
  eq([list.unread, list.items[0].kind, list.items[0].game, list.items[0].read], [0, 'challenge_accepted', g.id, true], 'the acceptance is read on its game page');
}

async function conditionalPremove(browser) {
  const { ann: a, bob: b } = s;
  if (!a || !b) throw new Error('needs the first scenario');
  const c = await api(b, 'POST', '/api/challenges', { username: ann, variant: 'antarctos', time_control: { kind: 'correspondence', days: 5 }, color: 'white' });
  eq(c.status, 201, 'Bob challenges Ann to Antarctos');
  const g = (await api(a, 'POST', `/api/challenges/${c.json.id}/accept`)).json;
  const line = await antarctosLine(a, 2);
  await a.goto(`${base}/game/${g.id}`);
  await a.waitForSelector('#conditional summary');
  await a.click('#conditional summary');
  // A bad second move is named as a player counts: "move 2", not "moves[1]".
  await a.fill('#cond-moves', `${line[0]} h8-a1`);
  await a.click('#cond-save');
  await a.waitForFunction(() => document.querySelector('#conditional p.error')?.textContent, null, { timeout: 5000 });
  const said = await a.textContent('#conditional p.error');
  check(said.startsWith('move 2 of the line:'), `the bad move is counted from 1: "${said}"`);
  await a.fill('#cond-moves', line.join(' '));
  await a.click('#cond-save');
  await a.waitForSelector('#cond-cancel');
  eq(await a.textContent('#conditional .cond-line li'), `If ${line[0]}, you play ${line[1]}`, 'the line is shown to its author');
  await screenshot(a, 'notify-conditional');
  // Bob plays the expected move: Ann's reply is played by itself, on her screen too.
  const v = (await api(b, 'GET', `/api/games/${g.id}`)).json;
  const r = await api(b, 'POST', `/api/games/${g.id}/moves`, { move: line[0], ply: v.ply });
  eq([r.status, r.json.ply], [200, 2], 'the answer to the move already has the reply');
  await a.waitForFunction(() => document.querySelectorAll('.moves button.move').length === 2, null, { timeout: 10000 });
  check(!(await a.$('#cond-cancel')), 'the line is used up');
}

async function goneCountdown(browser) {
  const w = await newPage(browser);
  await w.goto(`${base}/`);
  const made = await api(w, 'POST', '/api/games', { variant: 'antarctos', opponent: 'friend', color: 'white', time_control: { kind: 'realtime', initial_s: 180, increment_s: 2 } });
  eq(made.status, 201, 'a 3+2 friend game');
  const b = await newPage(browser);
  await b.goto(`${base}/`);
  eq((await api(b, 'POST', `/api/join/${made.json.invite_url.replace('/join/', '')}`)).status, 200, 'the friend joins');
  // Both sides move first: a claim before the second move aborts the game.
  for (const p of [w, b]) {
    const v = (await api(p, 'GET', `/api/games/${made.json.id}`)).json;
    eq((await api(p, 'POST', `/api/games/${made.json.id}/moves`, { move: v.legal[0].id, ply: v.ply })).status, 200, 'a first move');
  }
  for (const p of [w, b]) {
    await p.goto(`${base}/game/${made.json.id}`);
    await p.waitForSelector('.live.on');
  }
  // Black closes the tab: White sees the countdown, then may claim.
  await b.close();
  await w.waitForSelector('#gone', { timeout: 10000 });
  check(/You can claim victory in \d+ s/.test(await w.textContent('#gone')), `a countdown: "${await w.textContent('#gone')}"`);
  await screenshot(w, 'notify-gone-countdown');
  await w.waitForSelector('#gone-win', { timeout: 15000 });
  check(!(await w.$('#gone-draw')), 'no draw to claim in Antarctos (A15)');
  await w.click('#gone-win');
  await w.waitForSelector('.live.over', { timeout: 10000 });
  const view = (await api(w, 'GET', `/api/games/${made.json.id}`)).json;
  eq([view.status, view.result?.winner, view.result?.reason], ['finished', 'white', 'abandoned'], 'the claim wins the game');
  eq(await w.textContent('.over-reason'), 'Black left the game.', 'the winner is told who left');
  // The player who left comes back: told "You left the game", not "Black left the game".
  const back = await b.context().newPage();
  await back.goto(`${base}/game/${made.json.id}`);
  await back.waitForSelector('.over-reason');
  eq(await back.textContent('.over-reason'), 'You left the game.', 'the player who left is told so as "you"');
}

await suite([
  ['a challenge pops up on any page', challengePopsUpAnywhere],
  ['correspondence moves raise the bell', correspondenceMovesRaiseTheBell],
  ['the bell on a phone', phoneBell],
  ['an accepted challenge is read on its game page', acceptedIsReadOnItsGamePage],
  ['a conditional premove plays itself', conditionalPremove],
  ['a gone opponent: countdown, then claim', goneCountdown],
]);
