// The engine in the browser and the site with the server gone (issue 42, "Done means"): the
// analysis board runs its engine and solver in the browser by default (a switch falls back to
// the server's, remembered); then, on the seed's worked example 1 (Antarctos, Black to move
// and win: c7-b6 a5xc7 a7xc5xe3xc1), the server is stopped (crates/cli/tests/browser.rs gives
// its process id in ICEBOUND_SERVER_PID) and the engine's line and the solver's proof still come,
// "in your browser", with no analysis request sent; the page reloads from the service worker
// (web/src/sw.js);
// and a game against the computer at level 1 is played to its end offline, kept in the
// browser's storage, with the normal game-over box and an upload that says it failed; the board
// editor judges positions with the engine in the browser and opens the analysis board. Then the
// server comes back (the harness gives its command line in ICEBOUND_SERVER_CMD): the upload
// stores the game, unrated and `offline: true`, and a second press stores no second game.
//
// A site built without the wasm toolchain (no /engine/manifest.json) has no engine in the
// browser: the script then says so and passes, except under CI=true, where it fails.

import { spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { api, base, check, clickNav, clickSquare, eq, newPage, screenshot, suite } from './lib.mjs';

const EXAMPLE_1 = 'B:Wa5,d2,d4:Ba7,c7';
const LINE = ['c7-b6', 'a5xc7', 'a7xc5xe3xc1'];
/** Requests the page must not send while the engine runs in the browser. */
const ANALYSIS = /\/api\/(analysis|solve|positions)\b/;

const manifest = await fetch(`${base}/engine/manifest.json`).then(r => (r.ok ? r.json() : null), () => null);
if (!manifest) {
  const msg = 'offline.mjs: the server has no engine for the browser (/engine/manifest.json: built without scripts/build-wasm.sh)';
  if (process.env.CI === 'true') {
    console.error(`FAIL: ${msg}`);
    process.exit(1);
  }
  console.log(`SKIPPED: ${msg}`);
  process.exit(0);
}
// The player's side of the offline game is chosen by the same engine, here under Node.js.
const wasm = new Uint8Array(await (await fetch(`${base}${manifest.wasm}`)).arrayBuffer());
// (Imported by its URL: the loader is plain JavaScript that e2e's type check does not read.)
const { loadEngine } = await import(new URL('../wasm/icebound-engine.mjs', import.meta.url).href);
const player = await loadEngine(wasm);

/** The pages of the scenarios after the server stopped (one browser context). */
let offline = null;
let serviceWorker = false;

const pv = page => page.$$eval('#engine-pv button.move', bs => bs.map(b => b.textContent.trim()));
/** What the board shows of the engine besides its score: how many lines (one: neither engine
 * has multi-PV) and the arrows and circles drawn over the board (chessground's shapes). */
const drawing = page => page.evaluate(() => ({
  lines: document.querySelectorAll('#engine-pv').length,
  shapes: document.querySelectorAll('.cg-wrap svg.cg-shapes line, .cg-wrap svg.cg-shapes circle').length,
}));

async function openExample(page) {
  await page.goto(`${base}/analysis/antarctos?fen=${encodeURIComponent(EXAMPLE_1)}`);
  await page.waitForSelector('.cg-wrap cg-board piece');
  await page.waitForSelector('#engine-local');
}

async function lineInBrowser(page) {
  await page.click('#engine-toggle');
  await page.waitForFunction(() => document.querySelector('#engine-score')?.textContent.includes('Black wins in 3 plies'), null, { timeout: 20000 });
  eq((await pv(page)).slice(0, 3), LINE, 'the engine\'s line starts with the seed\'s (c7-b6 a5xc7 a7xc5xe3xc1)');
  check((await page.textContent('#engine')).includes('in your browser'), 'the line is marked "in your browser"');
}

async function switchFallsBack(browser) {
  const page = await newPage(browser);
  const asked = [];
  page.on('request', r => { if (ANALYSIS.test(r.url())) asked.push(new URL(r.url()).pathname); });
  await openExample(page);
  check(await page.isChecked('#engine-local'), 'the engine runs in the browser by default');
  await lineInBrowser(page);
  eq(asked, [], 'no analysis, solve or position request while the engine runs in the browser');
  const local = await drawing(page);
  await page.uncheck('#engine-local');
  await page.waitForFunction(() => document.querySelector('#engine')?.textContent.includes('on the server'), null, { timeout: 20000 });
  check(asked.includes('/api/analysis/stream'), `switched off, the server's engine analyses (requests: ${asked.join(', ')})`);
  await page.waitForFunction(() => document.querySelector('#engine-score')?.textContent.includes('Black wins in 3 plies'), null, { timeout: 20000 });
  eq((await pv(page)).slice(0, 3), LINE, 'the server\'s line is the same');
  // The same lines and arrows as with the server's engine (issue 42): one line each, and
  // neither draws arrows of its own over the board.
  eq(await drawing(page), local, 'the board shows the server\'s engine as it showed the browser\'s');
  eq(local, { lines: 1, shapes: 0 }, 'one line, no engine arrows');
  await page.reload();
  await page.waitForSelector('#engine-local');
  check(!(await page.isChecked('#engine-local')), 'the switch is remembered across a reload');
  await page.check('#engine-local');
  await page.context().close();
}

async function serverStopped(browser) {
  const page = await newPage(browser);
  offline = page;
  const asked = [];
  page.on('request', r => { if (ANALYSIS.test(r.url())) asked.push(new URL(r.url()).pathname); });
  await openExample(page);
  // The service worker (when the site has one) must hold the page before the server goes.
  serviceWorker = await page.evaluate(async () => {
    if (!('serviceWorker' in navigator) || !(await navigator.serviceWorker.getRegistration())) return false;
    await navigator.serviceWorker.ready;
    for (let i = 0; i < 100 && !navigator.serviceWorker.controller; i++) await new Promise(r => setTimeout(r, 100));
    return !!navigator.serviceWorker.controller;
  });
  const pid = Number(process.env.ICEBOUND_SERVER_PID);
  check(pid > 0, 'the harness gives the server\'s process id (ICEBOUND_SERVER_PID)');
  process.kill(pid, 'SIGKILL');
  for (let i = 0; i < 50; i++) {
    const up = await fetch(`${base}/healthz`).then(() => true, () => false);
    if (!up) break;
    await new Promise(r => setTimeout(r, 100));
  }
  check(!(await fetch(`${base}/healthz`).then(() => true, () => false)), 'the server is stopped');
  await lineInBrowser(page);
  await page.click('#solve');
  await page.waitForSelector('#solve-words', { timeout: 20000 });
  eq(await page.textContent('#solve-words'), 'Black wins in 3 plies', 'the solver proves the win with the server gone');
  eq(await page.$$eval('#solve-line button.move', bs => bs.map(b => b.textContent.trim())), LINE, 'with the seed\'s line');
  check((await page.textContent('#solve-where')).includes('in your browser'), 'the proof is marked "in your browser"');
  // A move on the board: its moves come from the engine in the browser too.
  await clickSquare(page, 'c7');
  await clickSquare(page, 'b6');
  await page.waitForFunction(() => document.querySelectorAll('#tree button.move').length === 1);
  eq(asked, [], 'no analysis, solve or position request was sent');
  await screenshot(page, 'offline-analysis');
}

async function reloadFromServiceWorker() {
  const page = offline;
  check(page, 'the page of the previous scenario');
  check(serviceWorker, 'the service worker controlled the page before the server stopped');
  await page.reload();
  await page.waitForSelector('.cg-wrap cg-board piece', { timeout: 15000 });
  await page.waitForFunction(() => document.querySelector('#analysis-status')?.textContent.trim());
  check(await page.isChecked('#engine-local'), 'the reloaded board runs the engine in the browser');
}

/** The board editor with the server gone (issue 42): the engine in the browser judges the
 * start position and an edited one, and Analyse opens it. */
async function editorOffline() {
  const page = offline;
  check(page, 'the page of the previous scenarios');
  const asked = [];
  const note = r => { if (ANALYSIS.test(r.url())) asked.push(new URL(r.url()).pathname); };
  page.on('request', note);
  await page.goto(`${base}/editor/antarctos`);
  await page.waitForSelector('.cg-wrap cg-board piece', { timeout: 15000 });
  await page.waitForFunction(() => document.querySelector('#editor-verdict')?.textContent, null, { timeout: 15000 });
  eq(await page.textContent('#editor-verdict'), 'A possible position.', 'offline, the start position is judged possible');
  await page.click('#editor-clear');
  await page.click('button.tool[data-tool=W]');
  await clickSquare(page, 'c3');
  await page.click('button.tool[data-tool=B]');
  await clickSquare(page, 'f6');
  await page.waitForFunction(() => /** @type {HTMLInputElement | null} */ (document.querySelector('#editor-fen'))?.value === 'W:Wc3:Bf6');
  await page.waitForFunction(() => document.querySelector('#editor-verdict')?.textContent === 'A possible position.');
  eq(await page.getAttribute('#editor-analyse', 'aria-disabled'), null, 'the edited position can be analysed');
  // A refusal comes from the engine in the browser too, in the page's words.
  await page.fill('#editor-fen', 'W:Wc3:Bc3');
  await page.dispatchEvent('#editor-fen', 'change');
  await page.waitForSelector('#editor-why');
  check((await page.textContent('#editor-verdict')).startsWith('Not a possible position:'), `offline, an impossible position is refused: "${await page.textContent('#editor-verdict')}"`);
  await page.fill('#editor-fen', 'W:Wc3:Bf6');
  await page.dispatchEvent('#editor-fen', 'change');
  await page.waitForFunction(() => document.querySelector('#editor-verdict')?.textContent === 'A possible position.');
  await page.click('#editor-analyse');
  await page.waitForURL(u => u.pathname === '/analysis/antarctos');
  eq(new URL(page.url()).searchParams.get('fen'), 'W:Wc3:Bf6', 'Analyse opens the edited position');
  await page.waitForSelector('.cg-wrap cg-board piece');
  await page.waitForFunction(() => document.querySelector('#analysis-status')?.textContent.trim());
  page.off('request', note);
  eq(asked, [], 'the editor sent no position request');
  await screenshot(page, 'offline-editor-to-analysis');
}

/** The Antarctos position of the offline game shown, from the browser's storage. */
async function storedGame(page) {
  const id = new URL(page.url()).pathname.split('/').pop();
  return page.evaluate(k => JSON.parse(localStorage.getItem(`icebound.offline.${k}`) ?? 'null'), id);
}

async function playsOffline() {
  const page = offline;
  check(page, 'the page of the previous scenarios');
  // In the page (no server needed): the header's link.
  await clickNav(page, '/offline');
  await page.waitForSelector('#new-offline-game');
  await page.check('input[name="variant"][value="antarctos"]');
  await page.check('input[name="level"][value="1"]');
  await page.check('input[name="color"][value="white"]');
  await page.click('#offline-start');
  await page.waitForURL(u => /^\/offline\/off-[0-9a-f]{12}$/.test(u.pathname));
  await page.waitForSelector('.cg-wrap cg-board piece');
  let reloaded = false;
  for (let turn = 0; ; turn++) {
    check(turn < 150, 'the game ends within 150 moves of White');
    await page.waitForFunction(() => {
      const s = document.querySelector('#status');
      return s?.getAttribute('data-status') === 'finished' || s?.textContent.includes('Your move');
    }, null, { timeout: 30000 });
    if ((await page.getAttribute('#status', 'data-status')) === 'finished') break;
    const g = await storedGame(page);
    const fen = g.moves.length ? g.moves[g.moves.length - 1].fen : g.startFen;
    player.setPosition('antarctos', fen);
    const best = player.search({ depth: 5 }).best;
    const move = player.boardView().legal.find(m => m.text === best);
    check(move, `a move for White in ${fen}`);
    const before = g.moves.length;
    for (const sq of move.path) await clickSquare(page, sq);
    await page.waitForFunction(n => {
      const k = `icebound.offline.${location.pathname.split('/').pop()}`;
      return (JSON.parse(localStorage.getItem(k) ?? '{"moves":[]}').moves.length > n);
    }, before, { timeout: 10000 });
    if (turn === 3 && !reloaded) {
      // Kept move by move: a reload (from the service worker) resumes the game.
      reloaded = true;
      const kept = (await storedGame(page)).moves.length;
      await page.reload();
      await page.waitForSelector('.cg-wrap cg-board piece', { timeout: 15000 });
      await page.waitForFunction(k => document.querySelectorAll('#moves button.move').length >= k, kept);
    }
  }
  const g = await storedGame(page);
  check(g.result && g.result.reason, `the stored game has its result (${JSON.stringify(g.result)})`);
  check(await page.isVisible('#game-over'), 'the game-over box shows');
  const words = await page.textContent('#game-over .over-reason');
  check(words.trim().length > 0, `it says how the game ended: ${words}`);
  eq((await page.$$eval('#moves button.move', bs => bs.length)), g.moves.length, 'the move list shows every move');
  const numbers = await page.$$eval('#moves .num', ns => ns.map(n => n.textContent.trim()));
  eq(numbers.slice(0, 3), ['1.', '2.', '3.'], 'numbered along the game');
  await screenshot(page, 'offline-game-over');
  await page.click('#upload');
  await page.waitForSelector('#upload-error', { timeout: 10000 });
  check((await page.textContent('#upload-error')).includes('The upload failed'), 'with the server gone the upload says it failed');
  console.log(`offline game: ${g.moves.length} plies, ${g.result.result} (${g.result.reason}); service worker: ${serviceWorker}`);
}

/** The server started again by this script (the harness stops only its own); killed on exit. */
let restarted = null;
process.on('exit', () => restarted?.kill('SIGKILL'));

const up = () => fetch(`${base}/healthz`).then(r => r.ok, () => false);

/** Starts the server again on the same address and database, and waits until it answers. */
async function startServerAgain() {
  const cmd = JSON.parse(process.env.ICEBOUND_SERVER_CMD ?? 'null');
  check(Array.isArray(cmd) && cmd.length > 1, 'the harness gives the server\'s command line (ICEBOUND_SERVER_CMD)');
  const log = openSync(process.env.ICEBOUND_SERVER_LOG ?? '/dev/null', 'a');
  restarted = spawn(cmd[0], cmd.slice(1), { stdio: ['ignore', log, log] });
  for (let i = 0; i < 300 && !(await up()); i++) await new Promise(r => setTimeout(r, 100));
  check(await up(), 'the server answers again');
}

/** The id of the stored game the page links to (`#uploaded`). */
async function uploadedId(page) {
  await page.waitForSelector('#uploaded', { timeout: 15000 });
  return (await page.getAttribute('#uploaded', 'href')).split('/').pop();
}

async function uploadsOnceBack() {
  const page = offline;
  check(page, 'the page of the previous scenarios');
  const g = await storedGame(page);
  check(g?.result && !g.uploaded, 'a finished game, not uploaded yet');
  await startServerAgain();
  await page.click('#upload');
  const id = await uploadedId(page);
  check(await page.$('#upload') === null, 'once uploaded the upload button gives way to a link to the game');
  eq((await storedGame(page)).uploaded, id, 'the browser\'s copy remembers the stored game');
  const read = await api(page, 'GET', `/api/games/${id}`);
  eq(read.status, 200, `the stored game reads: ${JSON.stringify(read.json)}`);
  eq([read.json.status, read.json.rated, read.json.offline], ['finished', false, true], 'finished, unrated, offline');
  eq(read.json.variant, 'antarctos', 'the variant played');
  eq(read.json.moves.map(m => m.text), g.moves.map(m => m.text), 'every move as played offline');
  eq(read.json.result.result, g.result.result, 'the result the browser saw');
  eq(read.json.black.kind, 'engine', 'the computer held Black');
  // This browser's player played nothing else on the site: its games are the upload alone.
  const mine = async () => (await api(page, 'GET', '/api/my-games')).json.map(s => s.id);
  eq(await mine(), [id], 'the player has this one game');
  // A second press (the browser's copy forgot the upload): the same game, not a second one.
  await page.evaluate(k => {
    const key = `icebound.offline.${k}`;
    const kept = JSON.parse(localStorage.getItem(key) ?? 'null');
    delete kept.uploaded;
    localStorage.setItem(key, JSON.stringify(kept));
  }, new URL(page.url()).pathname.split('/').pop());
  await page.reload();
  await page.waitForSelector('#upload', { timeout: 15000 });
  await page.click('#upload');
  eq(await uploadedId(page), id, 'a second upload press names the same stored game');
  eq(await mine(), [id], 'and the player still has one game');
  await screenshot(page, 'offline-uploaded');
  console.log(`uploaded as ${id}: ${read.json.moves.length} plies, ${read.json.result.result}`);
}

await suite([
  ['the switch falls back to the server\'s engine and is remembered', switchFallsBack],
  ['with the server stopped, the line and the proof come from the browser', serverStopped],
  ['a reload comes from the service worker', reloadFromServiceWorker],
  ['the board editor works offline and opens the analysis board', editorOffline],
  ['a game against level 1 to its end, offline', playsOffline],
  ['the server back, the upload stores the game once', uploadsOnceBack],
]);
