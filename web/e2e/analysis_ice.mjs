// The Ice Age on the analysis board (issue 42), as on the game page: the countdown, the
// account of what froze, its marks on the board and the position before it, for a position
// set up on the board and for an imported record whose `{Ice Age: ...}` comment is shown. A
// move played on the board marks what froze whether the board's engine runs in the browser
// (the .wasm's board view, with no position request) or on the server (`POST /api/positions`).
//
// A site built without the wasm toolchain (no /engine/manifest.json) has no engine in the
// browser: the local case then says so and passes, except under CI=true, where it fails.

import { api, base, check, clickSquare, eq, newPage, screenshot, suite } from './lib.mjs';

const manifest = await fetch(`${base}/engine/manifest.json`).then(r => (r.ok ? r.json() : null), () => null);

/** Black to move, its 20th move brings the Ice Age (testdata/records/ice-age-comments.pgn). */
const FEN = '4k3/3pp3/8/1P6/7P/8/3P4/4K2R b K - 0 20';
const PGN = `[Event "Ice Age on the board"]\n[Variant "Ice Age"]\n[SetUp "1"]\n[FEN "${FEN}"]\n[Result "*"]\n\n20... e6 {Ice Age: Rh1, Ph4, Pb5 frozen} *\n`;

const marks = (page, cls) => page.$$eval(`.cg-wrap .marks .mark.${cls}`, els => els.map(e => /** @type {HTMLElement} */ (e).dataset.square).sort());

async function countdownOnTheBoard(browser) {
  const page = await newPage(browser);
  await page.goto(`${base}/analysis/iceage?fen=${encodeURIComponent(FEN)}`);
  await page.waitForFunction(() => document.querySelector('#ice-countdown')?.textContent.includes('Ice Age'));
  eq((await page.textContent('#ice-countdown')).trim(), '❄ The Ice Age comes with Black\'s next move', 'the countdown, as on the game page');
  check(await page.isHidden('#ice-panel'), 'no Ice Age yet: no account');
}

async function importedIceAge(browser) {
  const page = await newPage(browser);
  await page.goto(`${base}/`);
  const read = await api(page, 'POST', '/api/import', { text: PGN });
  eq(read.status, 200, `the record is imported: ${JSON.stringify(read.json)}`);
  const id = read.json.games[0].id;
  await page.goto(`${base}/analysis/import/${id}`);
  await page.waitForSelector('#nav-next');
  await page.click('#nav-next');
  await page.waitForSelector('#ice-panel:not([hidden]) .ice-title');
  const text = await page.textContent('#ice-panel');
  check(text.includes('Ice Age after Black\'s move 20'), `the account's title: ${text}`);
  for (const sq of ['h1', 'h4', 'b5']) check(text.includes(sq), `the account names the frozen piece on ${sq}: ${text}`);
  // The record's comment, as the rules write it (C13: pawns by square, in board order).
  check(text.includes('Ice Age: b5, h4, Rh1 frozen'), `the record's Ice Age comment is shown: ${text}`);
  await page.waitForFunction(() => document.querySelectorAll('.cg-wrap .marks .mark.frozen').length === 3);
  eq(await marks(page, 'frozen'), ['b5', 'h1', 'h4'], 'the frozen squares are marked on the board');
  check((await marks(page, 'new-ice')).length > 10, 'the new ice is marked');
  await screenshot(page, 'analysis-ice-age');
  // The position just before it: the rook is back on h1, no marks.
  await page.click('#ice-before');
  await page.waitForFunction(() => document.querySelector('#ice-before')?.getAttribute('aria-pressed') === 'true');
  await page.waitForFunction(() => document.querySelectorAll('.cg-wrap .marks .mark').length === 0);
  await page.waitForSelector('.cg-wrap piece.r-piece.white', { timeout: 5000 });
  check(await page.$('.cg-wrap piece.r-piece.white') !== null, 'before the Ice Age the white rook stands');
  await page.click('#ice-before');
  await page.waitForFunction(() => document.querySelectorAll('.cg-wrap .marks .mark.frozen').length === 3);
  await page.waitForSelector('.cg-wrap piece.r-piece.white', { state: 'detached', timeout: 5000 });
  check(await page.$('.cg-wrap piece.r-piece.white') === null, 'after it the rook is ice');
}

/** Plays 20... e6 on the board set up at FEN, with the board's engine in the browser (`local`)
 * or on the server, and checks the marks of the Ice Age it brings and where the moves came from. */
async function marksOfAMoveOnTheBoard(browser, local) {
  const page = await newPage(browser);
  await page.addInitScript(where => localStorage.setItem('icebound.engine', where), local ? 'browser' : 'server');
  const asked = [];
  page.on('request', r => { if (/\/api\/positions\b/.test(r.url())) asked.push(new URL(r.url()).pathname); });
  await page.goto(`${base}/analysis/iceage?fen=${encodeURIComponent(FEN)}`);
  await page.waitForSelector('.cg-wrap cg-board piece');
  await page.waitForFunction(() => document.querySelector('#ice-countdown')?.textContent.includes('Ice Age'));
  if (manifest) {
    await page.waitForSelector('#engine-local');
    eq(await page.isChecked('#engine-local'), local, `the board's engine runs ${local ? 'in the browser' : 'on the server'}`);
  }
  await clickSquare(page, 'e7');
  await clickSquare(page, 'e6');
  await page.waitForSelector('#ice-panel:not([hidden]) .ice-title', { timeout: 10000 });
  await page.waitForFunction(() => document.querySelectorAll('.cg-wrap .marks .mark.frozen').length === 3);
  eq(await marks(page, 'frozen'), ['b5', 'h1', 'h4'], 'the frozen squares are marked on the board');
  eq((await marks(page, 'new-ice')).length, 56, 'every other empty square is marked as new ice (C6)');
  const text = await page.textContent('#ice-panel');
  for (const sq of ['h1', 'h4', 'b5']) check(text.includes(sq), `the account names the frozen piece on ${sq}: ${text}`);
  if (local) eq(asked, [], 'the engine in the browser gave the moves and their Ice Age: no position request');
  else check(asked.length > 0, 'the server gave the moves and their Ice Age (POST /api/positions)');
  await page.context().close();
}

async function marksWithTheLocalEngine(browser) {
  if (!manifest) {
    const msg = 'analysis_ice.mjs: the server has no engine for the browser (/engine/manifest.json: built without scripts/build-wasm.sh)';
    if (process.env.CI === 'true') throw new Error(msg);
    console.log(`SKIPPED: ${msg}`);
    return;
  }
  await marksOfAMoveOnTheBoard(browser, true);
}

await suite([
  ['a move on the board marks what froze, engine in the browser', marksWithTheLocalEngine],
  ['a move on the board marks what froze, engine on the server', b => marksOfAMoveOnTheBoard(b, false)],
  ['the countdown on a position set up on the analysis board', countdownOnTheBoard],
  ['an imported Ice Age: account, comment, marks and the position before', importedIceAge],
]);
