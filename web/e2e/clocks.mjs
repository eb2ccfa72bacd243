// Clocks on the game page (issue 13): a timed friend game shows both clocks, standing with a
// first-move countdown until each side has moved once (as lichess), then the running one
// ticks down from the server's time and passes to the opponent with the increment after a
// move; a first move that never comes aborts the game; under ten seconds it shows tenths and warns; when it reaches zero the game is lost
// on time without a reload; a correspondence game shows the days and the deadline; my games
// shows the control; a game against the computer can have a clock.

import { api, base, check, clickSquare, eq, newPage, suite, waitForMoves, waitForStatus } from './lib.mjs';

/** A friend game of `control` made by `a` through the API and joined by `b`; both pages open. */
async function timedGame(browser, variant, control) {
  const a = await newPage(browser);
  await a.goto(`${base}/`);
  const made = await api(a, 'POST', '/api/games', { variant, opponent: 'friend', color: 'white', time_control: control });
  eq(made.status, 201, 'a timed friend game is made');
  const b = await newPage(browser);
  await b.goto(`${base}/`);
  const invite = made.json.invite_url.replace('/join/', '');
  eq((await api(b, 'POST', `/api/join/${invite}`)).status, 200, 'the friend joins');
  for (const p of [a, b]) {
    await p.goto(`${base}/game/${made.json.id}`);
    await p.waitForSelector('.game .cg-wrap cg-board piece');
  }
  return { a, b, id: made.json.id };
}

const face = (page, color) => page.textContent(`.clock[data-color=${color}]`);
const seconds = text => {
  const parts = text.trim().split(':').map(Number);
  return parts.length === 2 ? parts[0] * 60 + parts[1] : parts[0];
};

const firstMoveSeconds = async page => {
  const m = /within (\d+) s/.exec(await page.textContent('#first-move'));
  return m ? Number(m[1]) : NaN;
};

async function realtime(browser) {
  const { a, b, id } = await timedGame(browser, 'antarctos', { kind: 'realtime', initial_s: 180, increment_s: 2 });
  eq((await a.textContent('#time-control')).trim(), '3+2 · Casual', 'the control is named under the title');
  // As lichess: no main clock runs before each side's first move; a countdown says how long
  // the side to move has for it.
  check(await a.isVisible('#first-move'), 'the first-move countdown is shown');
  const wait0 = await firstMoveSeconds(a);
  check(wait0 >= 25 && wait0 <= 30, `White has 30 s for the first move: "${await a.textContent('#first-move')}"`);
  check((await a.textContent('#first-move')).startsWith('You must move within'), 'the player to move is told "You"');
  check((await b.textContent('#first-move')).startsWith('White must move within'), 'the friend sees it too');
  check(!(await a.isVisible('.clock.running')), 'no main clock runs before the first moves');
  await a.waitForTimeout(2200);
  const wait1 = await firstMoveSeconds(a);
  check(wait1 <= wait0 - 1, `the first-move countdown ticks (${wait0} -> ${wait1})`);
  eq(seconds(await face(a, 'white')), 180, "White's clock stands at 3:00 while the first move is awaited");
  await clickSquare(a, 'c3');
  await clickSquare(a, 'd4');
  await waitForMoves(b, 1);
  await b.waitForFunction(() => /^You must move within/.test(document.querySelector('#first-move')?.textContent ?? ''));
  check((await a.textContent('#first-move')).startsWith('Black must move within'), 'White is told Black must move');
  eq(seconds(await face(b, 'white')), 180, "White's first move is not charged and earns no increment");
  check(!(await b.isVisible('.clock.running')), "Black's main clock does not run before its first move");
  await clickSquare(b, 'f6');
  await clickSquare(b, 'g5');
  await waitForMoves(a, 2);
  await a.waitForSelector('.clock[data-color=white].running');
  check(!(await a.isVisible('#first-move')), 'the countdown goes once both sides moved');
  eq(seconds(await face(a, 'black')), 180, "Black's first move is not charged either");
  const w0 = seconds(await face(a, 'white'));
  check(w0 <= 180 && w0 >= 177, `White's main clock starts at 3:00 with Black's first move, shows ${w0} s`);
  await a.waitForTimeout(2200);
  const w1 = seconds(await face(a, 'white'));
  check(w1 <= w0 - 1, `the running clock ticks down (${w0} -> ${w1})`);
  await clickSquare(a, 'd4');
  await clickSquare(a, 'e5');
  await waitForMoves(b, 3);
  await b.waitForSelector('.clock[data-color=black].running');
  const after = seconds(await face(b, 'white'));
  check(after > w1 && after <= 182, `the increment is added after the move: White shows ${after} s`);
  // Phone: the clocks stay beside the names and readable.
  await b.setViewportSize({ width: 390, height: 844 });
  await b.waitForTimeout(300);
  const box = await b.$eval('.clock[data-color=black]', e => { const r = e.getBoundingClientRect(); return { right: r.right, w: r.width }; });
  check(box.right <= 390 && box.w > 30, `on a phone the clock fits the screen (${JSON.stringify(box)})`);
  const my = await a.goto(`${base}/my`).then(() => a.waitForSelector(`tr[data-id="${id}"]`)).then(() => a.textContent(`tr[data-id="${id}"]`));
  check(my.includes('3+2'), `my games names the control: ${my}`);
}

async function lowTimeAndFlag(browser) {
  const { a, b } = await timedGame(browser, 'iceage', { kind: 'realtime', initial_s: 15, increment_s: 0 });
  // Both sides move once, then White's 15 s run out with the page open.
  await clickSquare(a, 'g1');
  await clickSquare(a, 'f3');
  await waitForMoves(b, 1);
  await clickSquare(b, 'g8');
  await clickSquare(b, 'f6');
  await waitForMoves(a, 2);
  await a.waitForFunction(() => /^\d\.\d$/.test(document.querySelector('.clock[data-color=white]')?.textContent ?? ''), null, { timeout: 12000 });
  check(await a.isVisible('.clock[data-color=white].low.running'), 'under ten seconds the clock shows tenths and warns');
  await waitForStatus(a, 'finished', 15000);
  await waitForStatus(b, 'finished', 5000);
  const words = await a.textContent('#game-over');
  check(/ran out of time/.test(words), `the end says White ran out of time: "${words}"`);
  eq((await face(a, 'white')).trim(), '0.0', 'the flagged clock shows 0.0');
  check(!(await a.isVisible('.clock.running')), 'no clock runs after the end');
}

async function firstMoveMissed(browser) {
  // A ¼-minute game waits its 15 s (never more than the initial time) for White's first move.
  const { a, b } = await timedGame(browser, 'antarctos', { kind: 'realtime', initial_s: 15, increment_s: 0 });
  const wait = await firstMoveSeconds(b);
  check(wait >= 11 && wait <= 15, `White has 15 s for the first move: "${await b.textContent('#first-move')}"`);
  await waitForStatus(b, 'aborted', 20000);
  await waitForStatus(a, 'aborted', 5000);
  check(!(await a.isVisible('#first-move')), 'the countdown goes with the abort');
  const words = await a.textContent('#notice');
  check(/White did not make a first move in time/.test(words ?? ''), `the page says why: "${words}"`);
}

async function correspondence(browser) {
  const { a, b } = await timedGame(browser, 'antarctos', { kind: 'correspondence', days: 2 });
  const control = (await a.textContent('#time-control')).trim();
  check(/^2 days per move · Casual · Time runs out on .+/.test(control), `the control and the deadline are written out (a phone has no hover): "${control}"`);
  const w = (await face(a, 'white')).trim();
  check(/^1 d 23 h$|^2 d 0 h$/.test(w), `White's time shows in days and hours: "${w}"`);
  const title = await a.getAttribute('.clock[data-color=white]', 'title');
  check(/^Time runs out on /.test(title ?? ''), `the deadline is told: "${title}"`);
  eq((await face(b, 'black')).trim(), '2 days per move', "the waiting side shows the period");
}

async function engineWithClock(browser) {
  const page = await newPage(browser);
  await page.goto(`${base}/`);
  await page.check('input[name=opponent][value=engine]');
  check(await page.isVisible('#friend-tc'), 'a game against the computer offers a clock');
  check(!(await page.isVisible('#friend-rated')), 'but no rating: engine games are never rated');
  await page.selectOption('#friend-tc', '3+2');
  await page.click('#start');
  await page.waitForURL(/\/game\/[\w-]+$/, { timeout: 15000 });
  await page.waitForSelector('.clock[data-color=white]');
  const id = new URL(page.url()).pathname.split('/').pop();
  const view = (await api(page, 'GET', `/api/games/${id}`)).json;
  eq([view.clock?.kind, view.rated], ['realtime', false], 'the engine game has the clock asked for');
}

await suite([
  ['a game against the computer with a clock, from the home page', engineWithClock],
  ['a real-time clock ticks, passes with the increment, fits a phone', realtime],
  ['low time warns, and the flag ends the game on the page', lowTimeAndFlag],
  ['a first move that does not come aborts the game on the page', firstMoveMissed],
  ['a correspondence clock shows days and the deadline', correspondence],
]);
