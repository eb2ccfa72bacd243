// The Ice Age made readable (Ice Age Chess, C5-C9), as a player meets it in headless Chromium:
// the countdown in Black moves, the marks of the frozen pieces, the new ice and the squares
// left empty (the same squares as the server's facts, kept through the reply), the step to the
// position just before the Ice Age, and the words when kings froze. The page computes none of
// it: every check compares what it shows with the server's GameView.

import {
  api, chessBoard, chessSquares, check, clickSquare, eq, newPage, screenshot, sortObj, startFromHome,
  statusText, suite, waitForMoves, waitForStatus,
} from './lib.mjs';

/** Black's 20th move is due: 20... Nh5 brings the seed's Ice Age (h8 freezes; f1, f6, e7 stay empty). */
const DUE = 'rnbqk1*r/pppp1p*1/****pnp1/4PP2/3P4/3B4/PPP2PPP/RNBQK1NR b - - 0 20';

const countdown = page => page.textContent('#ice-countdown').then(t => t.replace('❄', '').trim());
/** The marked squares of class `cls`, sorted. */
const marked = (page, cls) => page.$$eval(`.game .marks .mark.${cls}`, ms => ms.map(m => m.dataset.square).sort());

async function theCountdown(browser) {
  const page = await newPage(browser);
  const id = await startFromHome(page, { variant: 'iceage', opponent: 'local' });
  eq(await countdown(page), 'Ice Age in 20 Black moves', 'the countdown at the start');
  // The start has ice on ranks 3 to 6: a pawn's first move takes a cube.
  await clickSquare(page, 'e2');
  await clickSquare(page, 'd3');
  await waitForMoves(page, 1);
  eq(await countdown(page), 'Ice Age in 20 Black moves', 'after White\'s first move Black\'s 20th still brings it');
  await clickSquare(page, 'e7');
  await clickSquare(page, 'd6');
  await waitForMoves(page, 2);
  eq(await countdown(page), 'Ice Age in 19 Black moves', 'one Black move later: 19');
  eq((await api(page, 'GET', `/api/games/${id}`)).json.ice_age_in, 19, 'the page says the server\'s count');
  await screenshot(page, 'ice-countdown');

  const due = await newPage(browser);
  await startFromHome(due, { variant: 'iceage', opponent: 'local', fen: DUE });
  eq(await countdown(due), 'The Ice Age comes with Black\'s next move', 'the countdown when Black\'s next move brings it');
}

async function theMarksAndTheStepBack(browser) {
  const page = await newPage(browser);
  const id = await startFromHome(page, { variant: 'iceage', opponent: 'local', fen: DUE });
  await clickSquare(page, 'f6');
  await clickSquare(page, 'h5');
  await waitForMoves(page, 1);
  const facts = (await api(page, 'GET', `/api/games/${id}`)).json.moves[0].ice_age;
  eq(facts.closed, ['f1', 'f6', 'e7'], 'the server names the squares left empty');
  eq(await marked(page, 'frozen'), ['h8'], 'the frozen rook\'s square is marked');
  eq(await marked(page, 'new-ice'), [...facts.filled].sort(), 'the new ice is marked, square for square');
  eq(await marked(page, 'closed'), ['e7', 'f1', 'f6'], 'the squares left empty are marked');
  const panel = await page.textContent('#ice-panel');
  check(/Left empty, closed on all four sides by pieces or the edge: f1, f6 and e7/.test(panel), `the panel says which squares stayed empty and why, got "${panel}"`);
  check(/Frozen: black rook on h8/.test(panel), `the panel names the frozen rook, got "${panel}"`);
  check(panel.includes(`${facts.filled.length} empty squares filled with ice`), `the panel counts the new ice, got "${panel}"`);
  await screenshot(page, 'ice-marks', 'iceage-marks.png');

  // The position just before the Ice Age, and back.
  await page.click('#ice-before');
  await page.waitForSelector('#ice-before[aria-pressed="true"]');
  eq(sortObj(await chessBoard(page)), sortObj(chessSquares(facts.before_fen)), 'the board shows the position the Ice Age was judged on');
  check((await page.textContent('#ice-panel')).includes('Before the Ice Age: Black\'s move 20 has just been played'), 'the panel says which position is shown');
  // The marks stay on the position before: they show which piece is about to freeze.
  eq(await marked(page, 'frozen'), ['h8'], 'the rook about to freeze is marked on the position before');
  await screenshot(page, 'ice-before');
  await page.click('#ice-before');
  await page.waitForSelector('#ice-before[aria-pressed="false"]');
  const view = (await api(page, 'GET', `/api/games/${id}`)).json;
  eq(sortObj(await chessBoard(page)), sortObj(chessSquares(view.fen)), 'back to the position after it');

  // The marks stay through the reply, and go with the next move.
  await clickSquare(page, 'd3');
  await clickSquare(page, 'e4');
  await waitForMoves(page, 2);
  eq(await marked(page, 'frozen'), ['h8'], 'the marks stay through the reply to the Ice Age');
  check(await page.isVisible('#ice-panel'), 'and so does the account');
  await clickSquare(page, 'h5');
  await clickSquare(page, 'f4');
  await waitForMoves(page, 3);
  eq(await marked(page, 'frozen'), [], 'the next move clears the marks');
}

async function frozenKings(browser) {
  const page = await newPage(browser);
  await startFromHome(page, { variant: 'iceage', opponent: 'local', fen: '7k/8/8/8/8/8/8/K7 b - - 0 20' });
  await clickSquare(page, 'h8');
  await clickSquare(page, 'g8');
  await waitForStatus(page, 'finished');
  const panel = await page.textContent('#ice-panel');
  check(/Frozen: white king on a1 and black king on g8|Frozen: black king on g8 and white king on a1/.test(panel), `both kings are named frozen, got "${panel}"`);
  const status = await statusText(page);
  const over = await page.textContent('#game-over');
  check(status === 'Draw' && /Both kings froze in the Ice Age/.test(over), `the end says who won when the kings froze (C7: nobody), got "${status}" / "${over}"`);
  check(/both kings froze/i.test(panel), `the Ice Age's account says it too, got "${panel}"`);
  await screenshot(page, 'ice-kings-frozen');
}

await suite([
  ['the countdown to the next Ice Age, in Black moves', theCountdown],
  ['an Ice Age\'s marks, the squares left empty, the position before', theMarksAndTheStepBack],
  ['kings that froze: who won', frozenKings],
]);
