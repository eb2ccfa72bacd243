// Clocks on the game page (issue 13): a timed friend game shows both clocks, the running one
// ticks down from the server's time and passes to the opponent with the increment after a
// move; under ten seconds it shows tenths and warns; when it reaches zero the game is lost
// on time without a reload; a correspondence game shows the days and the deadline; my games
// shows the control.

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

async function realtime(browser) {
  const { a, b, id } = await timedGame(browser, 'antarctos', { kind: 'realtime', initial_s: 180, increment_s: 2 });
  eq((await a.textContent('#time-control')).trim(), '3+2 · Casual', 'the control is named under the title');
  check(await a.isVisible('.clock[data-color=white].running'), "White's clock runs once the friend joined");
  check(!(await a.isVisible('.clock[data-color=black].running')), "Black's does not");
  const w0 = seconds(await face(a, 'white'));
  check(w0 <= 180 && w0 >= 175, `White's clock starts near 3:00, shows ${w0} s`);
  await a.waitForTimeout(2200);
  const w1 = seconds(await face(a, 'white'));
  check(w1 <= w0 - 1, `the running clock ticks down (${w0} -> ${w1})`);
  eq(seconds(await face(b, 'black')), 180, "the waiting side's clock stands at 3:00");
  await clickSquare(a, 'c3');
  await clickSquare(a, 'd4');
  await waitForMoves(b, 1);
  await b.waitForSelector('.clock[data-color=black].running');
  const after = seconds(await face(b, 'white'));
  check(after >= w1 && after <= 182, `the increment is added after the move: White shows ${after} s`);
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

await suite([
  ['a real-time clock ticks, passes with the increment, fits a phone', realtime],
  ['low time warns, and the flag ends the game on the page', lowTimeAndFlag],
  ['a correspondence clock shows days and the deadline', correspondence],
]);
