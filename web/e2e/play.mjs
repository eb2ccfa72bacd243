// End-to-end test of the page in headless Chromium (Debian's /usr/bin/chromium driven by
// playwright-core; no browser is ever downloaded). Run by crates/cli/tests/browser.rs, which starts
// the real server; by hand:
//   node web/e2e/play.mjs --url http://127.0.0.1:8080 [--out DIR] [--publish]
// --publish copies a few screenshots into docs/screenshots/.
//
// It plays, through clicks on the board:
//  1. Antarctos from the seed's example 2 (same screen): a simple move, Black's forced jump
//     sequence d6xb4xd2xf4 entered hop by hop (checking the captured man and the melted ice after
//     each hop), then White's f2xd4xb6xd8 entered by clicking its final square only; the result.
//  2. Ice Age Chess from a FEN with Black to make its 20th move: Black's move brings the Ice Age
//     (ice on the board and an event in the move list), White answers by dragging a piece, then a
//     draw offer is accepted.
//  3. A game against the engine (its reply arrives over the WebSocket), a friend game joined
//     through the invitation link from a second browser (live update), my games, statistics,
//     the rules page's examples; and every worked example of the rules page checked against
//     the server's own rules through the API.

import { chromium } from 'playwright-core';
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}
const base = arg('url', process.env.ICEBOUND_URL ?? 'http://127.0.0.1:8080');
const out = arg('out', null) ?? mkdtempSync(join(tmpdir(), 'icebound-e2e-'));
const publish = process.argv.includes('--publish') || process.env.ICEBOUND_PUBLISH_SCREENSHOTS === '1';
mkdirSync(out, { recursive: true });

let failures = 0;
let checks = 0;
function check(cond, what) {
  checks++;
  if (!cond) {
    failures++;
    console.error(`FAIL: ${what}`);
    throw new Error(what);
  }
}
function eq(actual, expected, what) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  check(a === e, `${what}: expected ${e}, got ${a}`);
}

// ---------- positions, compared as sets (the texts' square order is free on input) ----------

/** Antarctos A18 text -> {turn, white[], black[], ice[]} with sorted squares. */
function antarctosSets(fen) {
  const fields = fen.trim().split(':');
  const r = { turn: fields[0].toUpperCase(), white: [], black: [], ice: [] };
  for (const f of fields.slice(1)) {
    const key = { W: 'white', B: 'black', I: 'ice' }[f.charAt(0).toUpperCase()];
    if (key) r[key] = f.slice(1).split(',').map(s => s.trim().toLowerCase()).filter(Boolean).sort();
  }
  return r;
}

/** What the board shows: square -> class list of the piece, read from chessgroundx's nodes. */
async function boardPieces(page, selector = '.game .cg-wrap') {
  return page.$eval(selector, wrap => {
    const out = {};
    for (const p of wrap.querySelectorAll('cg-board piece')) {
      if (p.classList.contains('ghost') || p.classList.contains('fading')) continue;
      out[p.cgKey] = [...p.classList].filter(c => c.endsWith('-piece') || c === 'white' || c === 'black').sort().join(' ');
    }
    return out;
  });
}

/** The Antarctos board as sets, for comparison with antarctosSets(). */
async function antarctosBoard(page) {
  const pieces = await boardPieces(page);
  const r = { white: [], black: [], ice: [], captured: [] };
  for (const [sq, cls] of Object.entries(pieces)) {
    if (cls.includes('m-piece')) r[cls.includes('white') ? 'white' : 'black'].push(sq);
    else if (cls.includes('i-piece')) r.ice.push(sq);
    else if (cls.includes('x-piece')) r.captured.push(sq);
  }
  for (const k of Object.keys(r)) r[k].sort();
  return r;
}

/** Ice Age Chess FEN board -> square -> letter ('*' for ice). */
function chessSquares(fen) {
  const out = {};
  const rows = fen.trim().split(/\s+/)[0].split('/');
  rows.forEach((row, i) => {
    const rank = 8 - i;
    let file = 0;
    for (const c of row) {
      if (/\d/.test(c)) file += Number(c);
      else {
        out[`${'abcdefgh'[file]}${rank}`] = c;
        file++;
      }
    }
  });
  return out;
}

/** The chess board as square -> FEN letter ('*' for ice), read from the page. */
async function chessBoard(page) {
  const pieces = await boardPieces(page);
  const out = {};
  for (const [sq, cls] of Object.entries(pieces)) {
    const role = cls.split(' ').find(c => c.endsWith('-piece')).charAt(0);
    out[sq] = role === 'i' ? '*' : cls.includes('white') ? role.toUpperCase() : role;
  }
  return out;
}

const sortObj = o => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));

// ---------- driving the board ----------

/** The page coordinates of the centre of a square of the game board. */
async function squareCenter(page, square, selector = '.game .cg-wrap') {
  const box = await page.locator(`${selector} cg-board`).boundingBox();
  const white = await page.$eval(selector, w => w.classList.contains('orientation-white'));
  const file = square.charCodeAt(0) - 97;
  const rank = Number(square[1]) - 1;
  const size = box.width / 8;
  const col = white ? file : 7 - file;
  const row = white ? 7 - rank : rank;
  return { x: box.x + (col + 0.5) * size, y: box.y + (row + 0.5) * size };
}

async function clickSquare(page, square) {
  const { x, y } = await squareCenter(page, square);
  await page.mouse.click(x, y);
  await page.waitForTimeout(120);
}

async function dragPiece(page, from, to) {
  const a = await squareCenter(page, from);
  const b = await squareCenter(page, to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 5 });
  await page.mouse.move(b.x, b.y, { steps: 5 });
  await page.mouse.up();
  await page.waitForTimeout(120);
}

/** The move texts of the move list, in order. */
async function moveTexts(page) {
  return page.$$eval('#moves button.move', bs => bs.map(b => b.textContent.trim()));
}

async function waitForMoves(page, n) {
  await page.waitForFunction(k => document.querySelectorAll('#moves button.move').length >= k, n, { timeout: 15000 });
  await page.waitForTimeout(250);
}

async function statusText(page) {
  return (await page.textContent('#status')).trim();
}

let shot = 0;
const shots = [];
async function screenshot(page, name) {
  shot++;
  await page.waitForTimeout(400); // let chessgroundx finish its move animation
  const file = join(out, `${String(shot).padStart(2, '0')}-${name}.png`);
  await page.screenshot({ path: file });
  shots.push(file);
  console.log(`screenshot ${file}`);
  return file;
}

async function api(page, method, path, body) {
  // Outside the page but with its cookie, as the page itself would send it: its Origin, JSON.
  const res = await page.request.fetch(`${base}${path}`, {
    method,
    headers: method === 'GET' ? {} : { 'content-type': 'application/json', origin: new URL(base).origin },
    data: body === undefined ? (method === 'GET' ? undefined : '{}') : JSON.stringify(body),
  });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status(), json };
}

async function gameId(page) {
  await page.waitForURL(/\/game\/[\w-]+$/, { timeout: 15000 });
  return new URL(page.url()).pathname.split('/').pop();
}

/** Starts a game from the home page's form. */
async function startFromHome(page, { variant, opponent, level, color, fen }) {
  await page.goto(`${base}/`);
  await page.check(`input[name=variant][value=${variant}]`);
  await page.check(`input[name=opponent][value=${opponent}]`);
  if (level) await page.selectOption('#level', String(level));
  if (color && opponent !== 'local') await page.check(`input[name=color][value=${color}]`);
  if (fen) {
    await page.click('details summary');
    await page.fill('#fen', fen);
  }
  await page.click('#start');
  const id = await gameId(page);
  await page.waitForSelector('.game .cg-wrap cg-board piece');
  await page.waitForTimeout(300);
  return id;
}

// ---------- the scenarios ----------

async function antarctosLocal(page) {
  console.log('-- Antarctos, same screen, from the seed\'s example 2');
  const id = await startFromHome(page, { variant: 'antarctos', opponent: 'local', fen: 'W:Wb4,e3,f2:Bc7,d6:Ic3' });
  const start = await antarctosBoard(page);
  eq(start, { white: ['b4', 'e3', 'f2'], black: ['c7', 'd6'], ice: ['c3'], captured: [] }, 'Antarctos start board');
  check((await statusText(page)).includes('White'), 'White to move at the start');
  await screenshot(page, 'antarctos-start');
  await page.click('#flip');
  check(await page.$eval('.game .cg-wrap', w => w.classList.contains('orientation-black')), 'flip shows the board from Black');
  await page.click('#flip');
  await page.click('#copy-fen');
  eq(await page.evaluate(() => navigator.clipboard.readText()), 'W:Wf2,e3,b4:Bd6,c7:Ic3', 'copy position text puts the position on the clipboard');

  // 1. b4-c5 by clicking the man, then its square.
  await clickSquare(page, 'b4');
  const dests = await page.$$eval('.game cg-board square.move-dest', s => s.length);
  check(dests >= 1, 'legal destinations are shown after selecting a man');
  await clickSquare(page, 'c5');
  await waitForMoves(page, 1);
  eq(await moveTexts(page), ['b4-c5'], 'move list after 1. b4-c5');
  eq(await antarctosBoard(page), { white: ['c5', 'e3', 'f2'], black: ['c7', 'd6'], ice: ['c3'], captured: [] }, 'board after 1. b4-c5');
  check((await statusText(page)).includes('Black'), 'Black to move after 1. b4-c5');

  // 1... d6xb4xd2xf4 hop by hop.
  await clickSquare(page, 'd6');
  await clickSquare(page, 'b4');
  eq(await antarctosBoard(page), { white: ['e3', 'f2'], black: ['b4', 'c7'], ice: ['c3'], captured: ['c5'] }, 'after the hop d6xb4: c5 shown captured (A8)');
  check(await page.isVisible('#cancel-jump'), 'the jump sequence in progress can be cancelled');
  eq(await moveTexts(page), ['b4-c5'], 'no move is sent before the sequence is complete');
  await screenshot(page, 'antarctos-hop');
  await clickSquare(page, 'd2');
  eq(await antarctosBoard(page), { white: ['e3', 'f2'], black: ['c7', 'd2'], ice: [], captured: ['c5'] }, 'after the hop xd2: the ice on c3 melted (A7)');
  await clickSquare(page, 'f4');
  await waitForMoves(page, 2);
  eq(await moveTexts(page), ['b4-c5', 'd6xb4xd2xf4'], 'move list after 1... d6xb4xd2xf4');
  eq(await antarctosBoard(page), { white: ['f2'], black: ['c7', 'f4'], ice: ['c5', 'e3'], captured: [] }, 'board after 1... d6xb4xd2xf4: captured men are ice');

  // 2. f2xd4xb6xd8 by clicking the final square only (one sequence leads there).
  await clickSquare(page, 'f2');
  await clickSquare(page, 'd8');
  await waitForMoves(page, 3);
  eq(await moveTexts(page), ['b4-c5', 'd6xb4xd2xf4', 'f2xd4xb6xd8'], 'move list after 2. f2xd4xb6xd8');
  eq(await antarctosBoard(page), { white: ['d8'], black: ['f4'], ice: ['c7'], captured: [] }, 'final board');
  await page.waitForFunction(() => document.querySelector('#status')?.dataset.status === 'finished', null, { timeout: 10000 });
  const status = await statusText(page);
  check(/White wins/.test(status) && /breakthrough/i.test(status), `result in words, got "${status}"`);
  const game = (await api(page, 'GET', `/api/games/${id}`)).json;
  eq(game.result?.result, '1-0', 'server result');
  await screenshot(page, 'antarctos-won');

  // The record download link and the rematch button are there.
  const href = await page.getAttribute('#download', 'href');
  const record = await api(page, 'GET', href);
  check(record.status === 200 && String(record.json).includes('d6xb4xd2xf4'), 'the PDN record holds the jump sequence');
  check(await page.isVisible('#rematch'), 'rematch is offered after the game');
  return id;
}

async function iceAgeLocal(page, examples) {
  console.log('-- Ice Age Chess, same screen, Black\'s 20th move brings the Ice Age');
  const ex = examples.find(e => e.variant === 'iceage');
  const id = await startFromHome(page, { variant: 'iceage', opponent: 'local', fen: ex.fen });
  eq(sortObj(await chessBoard(page)), sortObj(chessSquares(ex.fen)), 'Ice Age Chess start board');
  check((await statusText(page)).includes('Black'), 'Black to move at the start');

  // 20... Nh5 by clicking.
  await clickSquare(page, 'f6');
  await clickSquare(page, 'h5');
  await waitForMoves(page, 1);
  eq(await moveTexts(page), ['Nh5'], 'move list after 20... Nh5');
  const event = await page.textContent('#moves .move-event');
  check(/Ice Age/.test(event) && /Rh8/.test(event), `the Ice Age is an event in the move list, got "${event}"`);
  check(await page.isVisible('.event-banner'), 'the Ice Age is announced beside the board');
  const after = ex.steps[0].fen;
  eq(sortObj(await chessBoard(page)), sortObj(chessSquares(after)), 'board after the Ice Age (h8 frozen; f1, f6, e7 empty)');
  const view = (await api(page, 'GET', `/api/games/${id}`)).json;
  eq(view.fen, after, 'server position after the Ice Age equals the rules page\'s');
  await screenshot(page, 'iceage-after-ice-age');

  // 21. Bxe4 by dragging the bishop onto the ice on e4.
  await dragPiece(page, 'd3', 'e4');
  await waitForMoves(page, 2);
  eq(await moveTexts(page), ['Nh5', 'Bxe4'], 'move list after 21. Bxe4 (drag)');
  const board = await chessBoard(page);
  eq([board.e4, board.d3 ?? null], ['B', null], 'the bishop stands on e4');

  // A draw offer (for the side to move, White), accepted for Black.
  await page.click('#offer-draw');
  await page.waitForSelector('#accept-draw');
  await page.click('#accept-draw');
  await page.waitForFunction(() => document.querySelector('#status')?.dataset.status === 'finished', null, { timeout: 10000 });
  const status = await statusText(page);
  check(/[Dd]raw/.test(status) && /agreement/.test(status), `draw by agreement in words, got "${status}"`);
  await screenshot(page, 'iceage-draw');
  await page.click('#rematch');
  await page.waitForURL(u => !u.pathname.endsWith(id), { timeout: 15000 });
  const rematch = await gameId(page);
  await page.waitForSelector('.game .cg-wrap cg-board piece');
  eq(sortObj(await chessBoard(page)), sortObj(chessSquares(ex.fen)), 'the rematch starts from the same position');
  eq((await api(page, 'GET', `/api/games/${rematch}`)).json.rematch_of, id, 'the rematch points back to the game');
  return id;
}

async function engineGame(page) {
  console.log('-- Antarctos against the engine, level 1');
  await startFromHome(page, { variant: 'antarctos', opponent: 'engine', level: 1, color: 'white' });
  check((await statusText(page)).includes('Your move'), 'your move first as White');
  await clickSquare(page, 'c3');
  await clickSquare(page, 'd4');
  await waitForMoves(page, 2); // the engine's reply arrives over the WebSocket
  const moves = await moveTexts(page);
  eq(moves[0], 'c3-d4', 'our move in the list');
  check(/^[a-h][1-8][-x]/.test(moves[1]), `the engine's reply is in the list, got "${moves[1]}"`);
  check((await statusText(page)).includes('Your move'), 'our move again after the engine replied');
  await screenshot(page, 'antarctos-engine');
  page.once('dialog', d => d.accept());
  await page.click('#resign');
  await page.waitForFunction(() => document.querySelector('#status')?.dataset.status === 'finished', null, { timeout: 10000 });
  const status = await statusText(page);
  check(/White resigned/.test(status), `resignation in words, got "${status}"`);
}

async function friendGame(browser, page) {
  console.log('-- Ice Age Chess with a friend through the invitation link');
  await startFromHome(page, { variant: 'iceage', opponent: 'friend', color: 'white' });
  const url = await page.inputValue('#invite-url');
  check(url.startsWith(base) && url.includes('/join/'), `invitation link shown, got "${url}"`);
  const friendContext = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  const friend = await friendContext.newPage();
  watchErrors(friend);
  await friend.goto(url);
  await friend.waitForURL(/\/game\/[\w-]+$/, { timeout: 15000 });
  await friend.waitForSelector('.game .cg-wrap cg-board piece');
  check(await friend.$eval('.game .cg-wrap', w => w.classList.contains('orientation-black')), 'the friend plays Black, board seen from Black');
  // White moves h2xg3; the friend's page updates live.
  await clickSquare(page, 'h2');
  await clickSquare(page, 'g3');
  await waitForMoves(page, 1);
  await waitForMoves(friend, 1);
  eq(await moveTexts(friend), ['hxg3'], 'the friend sees the move live (WebSocket)');
  check((await statusText(friend)).includes('Your move'), 'the friend is to move');
  await screenshot(friend, 'iceage-friend');
  // A link that leads nowhere says so in words (not the API's raw message).
  const stray = await friendContext.newPage();
  await stray.goto(`${base}/join/nosuchinvitation`);
  await stray.waitForSelector('p.error', { timeout: 10000 });
  const strayText = await stray.textContent('p.error');
  check(strayText === 'This invitation link does not lead to any game.', `a bad invitation link explained, got "${strayText}"`);
  await friendContext.close();
}

async function otherPages(page) {
  console.log('-- my games, statistics, rules');
  await page.goto(`${base}/my`);
  await page.waitForSelector('#my-games');
  const rows = await page.$$eval('#my-games tbody tr', trs => trs.map(tr => tr.className));
  check(rows.length >= 5, `my games lists this browser's games, got ${rows.length}`);
  const firstFinished = rows.indexOf('finished');
  check(firstFinished === -1 || rows.slice(firstFinished).every(c => c === 'finished'), 'unfinished games come first');
  check(await page.isVisible('text=Return to game'), '"Return to game" is offered');
  await screenshot(page, 'my-games');

  await page.goto(`${base}/stats`);
  await page.waitForSelector('#stats');
  const antarctos = await page.textContent('#stats [data-variant=antarctos]');
  check(/White\s*\d+\s*\(\d+\.\d\d %\)/.test(antarctos), `Antarctos statistics with percentages, got "${antarctos}"`);
  const iceage = await page.textContent('#stats [data-variant=iceage]');
  check(/Draws\s*[1-9]\d*\s*\(/.test(iceage), `Ice Age Chess statistics count the drawn game, got "${iceage}"`);
  // The engine's runs stored before the server started (crates/cli/tests/browser.rs): a 4-game
  // self-play run and a 2-game match of Antarctos; none of Ice Age Chess.
  const selfplayRows = await page.$$eval('#stats [data-variant=antarctos] .lab-selfplay tbody tr',
    trs => trs.map(tr => [...tr.querySelectorAll('td')].map(td => td.textContent.trim())));
  check(selfplayRows.length === 1, `one Antarctos self-play run shown, got ${JSON.stringify(selfplayRows)}`);
  const [setting, games, whiteWins, blackWins, draws, score] = selfplayRows[0];
  eq([setting, games], ['level=1', '4'], 'self-play run setting and games');
  const counted = [whiteWins, blackWins, draws].map(text => {
    check(/^\d+ \(\d+\.\d\d %\)$/.test(text), `self-play count with a percentage, got "${text}"`);
    return Number(text.split(' ')[0]);
  });
  check(counted[0] + counted[1] + counted[2] === 4, `self-play results add up to 4 games, got ${counted}`);
  check(/^\d\.\d{3} \(\d\.\d{3}–\d\.\d{3}\)$/.test(score), `White's score with its interval, got "${score}"`);
  const matchRow = await page.textContent('#stats [data-variant=antarctos] .lab-matches tbody tr');
  check(/level=1\s*vs\s*level=2/.test(matchRow), `the match A vs B is shown, got "${matchRow}"`);
  const icePlay = await page.textContent('#stats [data-variant=iceage] .lab-selfplay');
  check(icePlay.includes('cargo run --release -- selfplay --variant iceage --games 1000 --level 2 --database'),
    `no Ice Age Chess runs: the page gives the command, got "${icePlay}"`);
  // Pasted into a shell as it is: a '?' would be a glob (zsh stops with "no matches found").
  const command = await page.textContent('#stats [data-variant=iceage] .lab-command');
  check(!/[?*[\]]/.test(command), `the suggested command has no shell glob characters, got "${command}"`);
  await screenshot(page, 'statistics');
  // A phone-sized window: the wide run tables scroll inside the card, the page itself does not
  // scroll sideways, and a count with its percentage stays on one line.
  await page.setViewportSize({ width: 400, height: 800 });
  const narrow = await page.evaluate(() => {
    const lines = td => {
      const range = document.createRange();
      range.selectNodeContents(td);
      return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;
    };
    const counts = [...document.querySelectorAll('#stats .lab-selfplay tbody td.num')];
    return {
      page: document.documentElement.scrollWidth,
      window: window.innerWidth,
      wrapped: counts.filter(td => lines(td) > 1).map(td => td.textContent),
    };
  });
  check(narrow.page <= narrow.window, `at 400 px the page does not scroll sideways (${narrow.page} px wide)`);
  eq(narrow.wrapped, [], 'at 400 px no self-play figure breaks across lines');
  await screenshot(page, 'statistics-narrow');
  await page.setViewportSize({ width: 1280, height: 800 });
  check(/continue \(elo0=0,elo1=10,/.test(matchRow), `the undecided SPRT is shown, got "${matchRow}"`);
  // In Russian the match row says "против", not the English "vs", and the SPRT is "не решено".
  await page.selectOption('header.top select', 'ru');
  await page.waitForSelector('#stats .lab-matches');
  const ruMatch = await page.textContent('#stats [data-variant=antarctos] .lab-matches tbody tr');
  check(/level=1\s*против\s*level=2/.test(ruMatch), `the Russian match row is translated, got "${ruMatch}"`);
  check(ruMatch.includes('не решено (elo0=0,elo1=10,'), `the Russian SPRT verdict is translated, got "${ruMatch}"`);
  await page.selectOption('header.top select', 'en');
  await page.waitForSelector('#stats .lab-matches');

  await page.goto(`${base}/rules/antarctos`);
  await page.waitForSelector('#example-1 cg-board piece');
  for (let i = 0; i < 3; i++) await page.click('#example-1 [data-action=next]');
  const moves = await page.$$eval('#example-1 .example-moves li.done', l => l.map(x => x.textContent));
  eq(moves, ['c7-b6', 'a5xc7', 'a7xc5xe3xc1'], 'rules example 1 stepped to its end');
  await page.locator('#example-1').scrollIntoViewIfNeeded();
  await screenshot(page, 'rules-example');
}

/** Every worked example of the rules page, played by the server's rules through the API: each
 * step's position must be the server's. */
async function examplesAgree(page, examples) {
  console.log('-- the rules page\'s examples against the server');
  for (const ex of examples) {
    const created = await api(page, 'POST', '/api/games', { variant: ex.variant, opponent: 'local', color: 'white', fen: ex.fen });
    check(created.status === 201, `example "${ex.title}" starts (${created.status} ${JSON.stringify(created.json)})`);
    let g = created.json;
    for (const step of ex.steps) {
      const r = await api(page, 'POST', `/api/games/${g.id}/moves`, { move: step.move, ply: g.ply });
      check(r.status === 200, `example "${ex.title}": ${step.move} accepted (${r.status} ${JSON.stringify(r.json)})`);
      g = r.json;
      const last = g.moves[g.moves.length - 1];
      eq(last.path, step.path, `example "${ex.title}": path of ${step.move}`);
      if (ex.variant === 'antarctos') eq(antarctosSets(g.fen), antarctosSets(step.fen), `example "${ex.title}": position after ${step.move}`);
      else eq(g.fen, step.fen, `example "${ex.title}": position after ${step.move}`);
    }
    check(g.status === 'finished' || ex.variant === 'iceage', `example "${ex.title}" ends the game`);
  }
}

// ---------- main ----------

const pageErrors = [];
function watchErrors(page) {
  page.on('pageerror', e => pageErrors.push(e.message));
  page.on('console', m => {
    if (m.type() === 'error' && !/WebSocket|favicon/.test(m.text())) pageErrors.push(m.text());
  });
}

// A phone-sized window: the move list sits below the board; a new move scrolls the list
// (to its last move), never the page, so the board stays where the player left it.
async function phoneGamePage(browser) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US' });
  const page = await context.newPage();
  watchErrors(page);
  const created = await api(page, 'POST', '/api/games', { variant: 'iceage', opponent: 'local' });
  eq(created.status, 201, 'phone: a local Ice Age Chess game is created');
  const id = created.json.id;
  let g = created.json;
  for (let i = 0; i < 30 && g.status === 'ongoing'; i++) {
    g = (await api(page, 'POST', `/api/games/${id}/moves`, { move: g.legal[i % g.legal.length].id, ply: g.ply })).json;
  }
  await page.goto(`${base}/game/${id}`);
  await waitForMoves(page, 30);
  eq(await page.evaluate(() => window.scrollY), 0, 'phone: opening a game with 30 moves leaves the page at its top');
  const list = await page.evaluate(() => {
    const box = document.querySelector('#moves');
    return { scrolled: box.scrollTop, overflows: box.scrollHeight > box.clientHeight };
  });
  check(!list.overflows || list.scrolled > 0, 'phone: the move list itself scrolls to the last move');
  g = (await api(page, 'POST', `/api/games/${id}/moves`, { move: g.legal[0].id, ply: g.ply })).json;
  await waitForMoves(page, 31);
  eq(await page.evaluate(() => window.scrollY), 0, 'phone: a new move does not scroll the page');
  await screenshot(page, 'phone-game');
  await context.close();
}

async function loadExamples() {
  const src = readFileSync(join(repo, 'web/src/rules_content.ts'), 'utf8');
  const js = esbuild.transformSync(src, { loader: 'ts', format: 'esm' }).code;
  const file = join(out, 'rules_content.mjs');
  writeFileSync(file, js);
  return (await import(pathToFileURL(file).href)).examples;
}

async function waitForServer() {
  const deadline = Date.now() + 60000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${base}/api/stats`);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise(r => setTimeout(r, 250));
  }
  throw new Error(`the server at ${base} did not answer within 60 s`);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
let ok = false;
try {
  await waitForServer();
  const examples = await loadExamples();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  const page = await context.newPage();
  watchErrors(page);
  await examplesAgree(page, examples);
  await antarctosLocal(page);
  await iceAgeLocal(page, examples);
  await engineGame(page);
  await friendGame(browser, page);
  await otherPages(page);
  await phoneGamePage(browser);
  eq(pageErrors, [], 'no errors in the page');
  ok = failures === 0;
} catch (e) {
  console.error(e.stack ?? String(e));
  try {
    const pages = browser.contexts().flatMap(c => c.pages());
    if (pages[0]) await screenshot(pages[pages.length - 1], 'failure');
  } catch {
    // nothing more to show
  }
} finally {
  await browser.close();
}

if (publish) {
  const dir = join(repo, 'docs/screenshots');
  mkdirSync(dir, { recursive: true });
  for (const f of shots) {
    const name = f.split('/').pop().replace(/^\d+-/, '');
    if (['antarctos-hop.png', 'antarctos-won.png', 'iceage-after-ice-age.png', 'my-games.png', 'statistics.png', 'rules-example.png'].includes(name)) {
      copyFileSync(f, join(dir, name));
      console.log(`published docs/screenshots/${name}`);
    }
  }
}
console.log(`${checks} checks, ${failures} failed, screenshots in ${out}`);
if (pageErrors.length) console.error('page errors:', pageErrors);
process.exit(ok ? 0 : 1);
