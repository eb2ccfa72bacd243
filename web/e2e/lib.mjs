// Shared helpers of the browser tests (web/e2e/*.mjs): checks, the board read from chessgroundx's
// nodes, clicks on squares, the API, screenshots, and `suite`, which launches Debian's chromium,
// runs a file's scenarios and exits with its verdict. Every file of web/e2e/ except this one is
// a test script: crates/cli/tests/browser.rs runs each against its own fresh `icebound serve`:
//   node web/e2e/<file>.mjs --url http://127.0.0.1:8080 [--out DIR] [--publish] [--only TEXT]
// --publish copies the screenshots marked for the docs into docs/screenshots/.

import { chromium } from 'playwright-core';
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** @typedef {import('playwright-core').Page} Page */
/** @typedef {import('playwright-core').Browser} Browser */

const here = dirname(fileURLToPath(import.meta.url));
export const repo = join(here, '..', '..');

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}
export const base = arg('url', process.env.ICEBOUND_URL ?? 'http://127.0.0.1:8080');
const script = basename(process.argv[1] ?? 'e2e', '.mjs');
export const out = arg('out', null) ?? mkdtempSync(join(tmpdir(), `icebound-e2e-${script}-`));
/** `--only TEXT`: run only the scenarios whose name holds TEXT (while working on one). */
const only = arg('only', null);
const publish = process.argv.includes('--publish') || process.env.ICEBOUND_PUBLISH_SCREENSHOTS === '1';
mkdirSync(out, { recursive: true });

// ---------- checks ----------

let failures = 0;
let checks = 0;

/** Fails the running scenario (and the file) when `cond` is false.
 * @param {unknown} cond
 * @param {string} what
 */
export function check(cond, what) {
  checks++;
  if (!cond) {
    failures++;
    console.error(`FAIL: ${what}`);
    throw new Error(what);
  }
}

/** Fails unless `actual` and `expected` are the same as JSON.
 * @param {unknown} actual
 * @param {unknown} expected
 * @param {string} what
 */
export function eq(actual, expected, what) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  check(a === e, `${what}: expected ${e}, got ${a}`);
}

export const sleep = ms => new Promise(r => setTimeout(r, ms));

// ---------- positions, compared as sets (the texts' square order is free on input) ----------

/** Antarctos A18 text -> {turn, white[], black[], ice[]} with sorted squares.
 * @param {string} fen
 */
export function antarctosSets(fen) {
  const fields = fen.trim().split(':');
  const r = { turn: fields[0].toUpperCase(), white: [], black: [], ice: [] };
  for (const f of fields.slice(1)) {
    const key = { W: 'white', B: 'black', I: 'ice' }[f.charAt(0).toUpperCase()];
    if (key) r[key] = f.slice(1).split(',').map(s => s.trim().toLowerCase()).filter(Boolean).sort();
  }
  return r;
}

/** What the board shows: square -> class list of the piece, read from chessgroundx's nodes.
 * @param {Page} page
 * @param {string} [selector]
 * @returns {Promise<Record<string, string>>}
 */
export async function boardPieces(page, selector = '.game .cg-wrap') {
  return page.$eval(selector, wrap => {
    /** @type {Record<string, string>} */
    const out = {};
    // chessgroundx names each piece's and square's node by its square (`cgKey`).
    for (const p of /** @type {NodeListOf<HTMLElement & { cgKey: string }>} */ (wrap.querySelectorAll('cg-board piece'))) {
      if (p.classList.contains('ghost') || p.classList.contains('fading')) continue;
      out[p.cgKey] = [...p.classList].filter(c => c.endsWith('-piece') || c === 'white' || c === 'black').sort().join(' ');
    }
    return out;
  });
}

/** The Antarctos board as sets, for comparison with antarctosSets().
 * @param {Page} page
 */
export async function antarctosBoard(page) {
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
export function chessSquares(fen) {
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

/** The chess board as square -> FEN letter ('*' for ice), read from the page.
 * @param {Page} page
 */
export async function chessBoard(page) {
  const pieces = await boardPieces(page);
  const out = {};
  for (const [sq, cls] of Object.entries(pieces)) {
    const role = cls.split(' ').find(c => c.endsWith('-piece')).charAt(0);
    out[sq] = role === 'i' ? '*' : cls.includes('white') ? role.toUpperCase() : role;
  }
  return out;
}

export const sortObj = o => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));

/** Squares of the game board carrying a CSS class (chessgroundx's `square` nodes).
 * @param {Page} page
 * @param {string} cls
 * @param {string} [selector]
 * @returns {Promise<string[]>}
 */
export async function squaresWith(page, cls, selector = '.game .cg-wrap') {
  return page.$eval(selector, (wrap, c) =>
    [.../** @type {NodeListOf<HTMLElement & { cgKey: string }>} */ (wrap.querySelectorAll(`cg-board square.${c}`))].map(s => s.cgKey).filter(Boolean).sort(), cls);
}

// ---------- driving the board ----------

/** The page coordinates of the centre of a square of the game board.
 * @param {Page} page
 * @param {string} square
 * @param {string} [selector]
 */
export async function squareCenter(page, square, selector = '.game .cg-wrap') {
  const box = await page.locator(`${selector} cg-board`).boundingBox();
  const white = await page.$eval(selector, w => w.classList.contains('orientation-white'));
  const file = square.charCodeAt(0) - 97;
  const rank = Number(square[1]) - 1;
  const size = box.width / 8;
  const col = white ? file : 7 - file;
  const row = white ? 7 - rank : rank;
  return { x: box.x + (col + 0.5) * size, y: box.y + (row + 0.5) * size };
}

/** @param {Page} page @param {string} square */
export async function clickSquare(page, square) {
  const { x, y } = await squareCenter(page, square);
  await page.mouse.click(x, y);
  await page.waitForTimeout(120);
}

/** @param {Page} page @param {string} from @param {string} to */
export async function dragPiece(page, from, to) {
  const a = await squareCenter(page, from);
  const b = await squareCenter(page, to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 5 });
  await page.mouse.move(b.x, b.y, { steps: 5 });
  await page.mouse.up();
  await page.waitForTimeout(120);
}

/** The move texts of the move list, in order.
 * @param {Page} page
 * @returns {Promise<string[]>}
 */
export async function moveTexts(page) {
  return page.$$eval('#moves button.move', bs => bs.map(b => b.textContent.trim()));
}

/** Waits for `n` moves in the game page's list. @param {Page} page @param {number} n */
export async function waitForMoves(page, n) {
  try {
    await page.waitForFunction(k => document.querySelectorAll('#moves button.move').length >= k, n, { timeout: 15000 });
  } catch (e) {
    // Say how far the page got: no move at all (the taps missed) reads apart from a missing reply.
    const seen = await page.evaluate(() => ({
      moves: [...document.querySelectorAll('#moves button.move')].map(b => b.textContent.trim()),
      selected: [...document.querySelectorAll('.game cg-board square.selected')].length,
      status: document.querySelector('#status')?.textContent?.trim(),
      live: document.querySelector('.live')?.textContent,
    })).catch(() => null);
    throw new Error(`waiting for ${n} moves in the list: ${JSON.stringify(seen)}; ${e.message}`);
  }
  await page.waitForTimeout(250);
}

/** @param {Page} page */
export async function statusText(page) {
  return (await page.textContent('#status')).trim();
}

/** Waits until the status box says the game is `status` (`finished`, `ongoing`, `aborted`). */
export async function waitForStatus(page, status, timeout = 10000) {
  await page.waitForFunction(s => /** @type {HTMLElement | null} */ (document.querySelector('#status'))?.dataset.status === s, status, { timeout });
}

let shot = 0;
const published = [];

/** A screenshot into the output folder; `publishAs` names its copy in docs/screenshots/. */
export async function screenshot(page, name, publishAs) {
  shot++;
  await page.waitForTimeout(400); // let chessgroundx finish its move animation
  const file = join(out, `${String(shot).padStart(2, '0')}-${name}.png`);
  await page.screenshot({ path: file });
  if (publishAs) published.push([file, publishAs]);
  console.log(`screenshot ${file}`);
  return file;
}

/**
 * Clicks the header's link to `href`, opening "More" first when the link waits under it
 * (on a desktop the less used links do; on a phone the menu button shows them all).
 * @param {Page} page
 * @param {string} href
 */
export async function clickNav(page, href) {
  const link = `#main-nav a[href="${href}"]`;
  await page.waitForSelector(link, { state: 'attached' });
  if (!(await page.isVisible(link))) {
    if (await page.isVisible('#menu-toggle')) await page.click('#menu-toggle');
    else await page.click('#nav-more');
  }
  await page.click(link);
}

/** A call of the HTTP API with the page's cookies, sent as the page would send it: `{status,
 * json}`. A state-changing call sends the page's Origin and a JSON body (`{}` when none is
 * given) with its content type: the server refuses state changes without them.
 * @template {string} P
 * @param {Page} page
 * @param {'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'} method
 * @param {P} path
 * @param {import('./api').Body<P>} [body]
 * @returns {Promise<{ status: number, json: import('./api').Answer<P> }>}
 */
export async function api(page, method, path, body) {
  const send = method !== 'GET';
  const res = await page.request.fetch(`${base}${path}`, {
    method,
    headers: send ? { 'content-type': 'application/json', origin: new URL(base).origin } : {},
    data: send ? JSON.stringify(body ?? {}) : undefined,
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

/** The password of every account the scripts register ({@link registered}). */
export const PASSWORD = 'correct horse battery';

/**
 * A new page in its own context, logged in as a new account `name` (checked: 201).
 * @param {import('playwright-core').Browser} browser
 * @param {string} name
 * @param {import('playwright-core').BrowserContextOptions} [options]
 */
export async function registered(browser, name, options = {}) {
  const page = await newPage(browser, options);
  await page.goto(`${base}/`);
  const r = await api(page, 'POST', '/api/accounts', { username: name, password: PASSWORD });
  eq(r.status, 201, `${name} registers`);
  return page;
}

/** The id of the game page shown. @param {Page} page */
export async function gameId(page) {
  await page.waitForURL(/\/game\/[\w-]+$/, { timeout: 15000 });
  return new URL(page.url()).pathname.split('/').pop();
}

/** Starts a game from the home page's form.
 * @param {Page} page
 * @param {{ variant: import('../src/api').Variant, opponent: 'engine' | 'local' | 'friend', level?: number, color?: import('../src/api').Color, fen?: string }} setting
 */
export async function startFromHome(page, { variant, opponent, level, color, fen }) {
  await page.goto(`${base}/`);
  await page.check(`input[name=variant][value=${variant}]`);
  await page.check(`input[name=opponent][value=${opponent}]`);
  if (level) await page.check(`input[name=level][value="${level}"]`);
  if (color && opponent !== 'local') await page.check(`input[name=color][value=${color}]`);
  if (fen) {
    await page.click('#new-game details summary');
    await page.fill('#fen', fen);
  }
  await page.click('#start');
  const id = await gameId(page);
  await page.waitForSelector('.game .cg-wrap cg-board piece');
  await page.waitForTimeout(300);
  return id;
}

/** Opens a game page and waits for its board.
 * @param {Page} page
 * @param {string} id
 */
export async function openGame(page, id) {
  await page.goto(`${base}/game/${id}`);
  await page.waitForSelector('.game .cg-wrap cg-board piece');
  await page.waitForFunction(() => /** @type {HTMLElement | null} */ (document.querySelector('#status'))?.dataset.status);
}

/** The worked examples of the rules page (web/src/rules_content.ts), loaded as a module. */
export async function loadExamples() {
  const src = readFileSync(join(repo, 'web/src/rules_content.ts'), 'utf8');
  const js = esbuild.transformSync(src, { loader: 'ts', format: 'esm' }).code;
  const file = join(out, 'rules_content.mjs');
  writeFileSync(file, js);
  return (await import(pathToFileURL(file).href)).examples;
}

/** A TypeScript module of web/src, bundled with what it imports, loaded in node. */
export async function loadModule(path) {
  const js = esbuild.buildSync({
    entryPoints: [join(repo, 'web/src', path)], bundle: true, format: 'esm', write: false, platform: 'neutral',
  }).outputFiles[0].text;
  const file = join(out, `${basename(path, '.ts')}.mjs`);
  writeFileSync(file, js);
  return import(pathToFileURL(file).href);
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
    await sleep(250);
  }
  throw new Error(`the server at ${base} did not answer within 60 s`);
}

// ---------- the run ----------

const pageErrors = [];

/** Records the page's uncaught errors and console errors; the suite fails on any.
 * @param {Page} page
 */
export function watchErrors(page) {
  page.on('pageerror', e => pageErrors.push(e.message));
  page.on('console', m => {
    if (m.type() === 'error' && !/WebSocket|favicon|Failed to load resource|ERR_INTERNET_DISCONNECTED/.test(m.text())) pageErrors.push(m.text());
  });
}

/** A new browser context (desktop 1280x800 by default) with a watched page. */
export async function newPage(browser, options = {}) {
  const { pushOffer, ...contextOptions } = /** @type {{ pushOffer?: boolean }} */ (options);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US', ...contextOptions });
  // The offer of notifications on this device (notify/push_offer.ts) is a box over the page:
  // a player who said "not now" once, unless a script asks to see it (`pushOffer: true`).
  if (!pushOffer) await context.addInitScript(() => localStorage.setItem('icebound.push_offer_dismissed', '1'));
  // Granting some permissions denies the others (CDP): a script that sees the push offer
  // grants notifications too.
  await context.grantPermissions(['clipboard-read', 'clipboard-write', ...(pushOffer ? ['notifications'] : [])], { origin: base });
  const page = await context.newPage();
  watchErrors(page);
  return page;
}

/**
 * Runs `scenarios` (`[name, async browser => ...]`) in order in one chromium and exits:
 * status 0 when every check passed and no page logged an error. A failing scenario is
 * reported with a screenshot and the next one still runs. Browser contexts live until the end
 * (a scenario may go on with an earlier one's player).
 */
export async function suite(scenarios) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const failed = [];
  try {
    await waitForServer();
    for (const [name, run] of scenarios) {
      if (only && !name.includes(only)) continue;
      console.log(`-- ${name}`);
      try {
        await run(browser);
      } catch (e) {
        failed.push(name);
        console.error(`scenario "${name}" failed: ${e.stack ?? e}`);
        try {
          const pages = browser.contexts().flatMap(c => c.pages());
          if (pages.length) await screenshot(pages[pages.length - 1], `failure-${name.replace(/\W+/g, '-')}`);
        } catch {
          // nothing more to show
        }
      }
    }
    checks++;
    if (pageErrors.length) {
      failures++;
      console.error('FAIL: errors in the page:', pageErrors);
    }
  } catch (e) {
    failed.push('(start)');
    console.error(e.stack ?? String(e));
  } finally {
    await browser.close();
  }
  if (publish) {
    const dir = join(repo, 'docs/screenshots');
    mkdirSync(dir, { recursive: true });
    for (const [file, name] of published) {
      copyFileSync(file, join(dir, name));
      console.log(`published docs/screenshots/${name}`);
    }
  }
  console.log(`${script}: ${checks} checks, ${failures} failed${failed.length ? ` (scenarios: ${failed.join(', ')})` : ''}; screenshots in ${out}`);
  process.exit(failures === 0 && failed.length === 0 ? 0 : 1);
}
