// Cross-site attacks on a victim's browser, as issue 9 section 2 found them, replayed in headless
// Chromium (Debian's /usr/bin/chromium driven by playwright-core). Run by
// crates/cli/tests/browser_attacks.rs, which starts the real server; by hand:
//   node web/e2e/attacks.mjs --url http://127.0.0.1:8080
//
// The site is reached as http://icebound.test:PORT and the attacker's pages are served by this
// script from http://evil.icebound.test:PORT2: another origin of the same site, so the browser
// sends the victim's SameSite=Lax cookie with the attacker's requests (Chromium maps both names
// to 127.0.0.1 with --host-resolver-rules). Each attack prints `blocked` or `SUCCEEDED`; the
// script fails when any attack succeeded. It launches its own chromium (lib.mjs's `suite` has no
// host mapping) and checks through the API rather than the page.
//  1. an HTML form (application/x-www-form-urlencoded) resigns the victim's game;
//  2. the same form asks for a rematch;
//  3. a no-cors fetch with a JSON text body (text/plain) plays a move;
//  4. a page opens the game's WebSocket with the victim's cookie and plays a move;
//  5. a page plants a made-up icebound_player cookie for the whole site (cookie tossing) before
//     the victim's first visit: the victim's new game must not belong to that token;
//  6. a page plants a token the server issued to the attacker, with a narrower path, beside the
//     victim's own cookie: the victim's next game must not belong to the attacker.

import { chromium } from 'playwright-core';
import { createServer } from 'node:http';

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}
const given = new URL(arg('url', process.env.ICEBOUND_URL ?? 'http://127.0.0.1:8080'));
const port = given.port || '80';
const direct = `http://127.0.0.1:${port}`;
const site = `http://icebound.test:${port}`;

// ---------- the attacker's pages ----------

const pages = new Map();
const evil = createServer((req, res) => {
  const path = new URL(req.url, 'http://x').pathname;
  const html = pages.get(path);
  res.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
  res.end(html ?? 'no such page');
});
await new Promise(resolve => evil.listen(0, '127.0.0.1', () => resolve(undefined)));
const evilOrigin = `http://evil.icebound.test:${/** @type {import('node:net').AddressInfo} */ (evil.address()).port}`;

function formPage(action, fields, enctype = 'application/x-www-form-urlencoded') {
  const inputs = Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name='${k}' value='${v}'>`)
    .join('');
  return `<!doctype html><body><form id="f" method="POST" enctype="${enctype}" action="${action}">${inputs}</form>
<script>document.getElementById('f').submit();</script></body>`;
}

// ---------- the site through the API, as a bot (X-Icebound-Player) ----------

async function api(method, path, token, body) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (token) headers['x-icebound-player'] = token;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(direct + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  const cookie = res.headers.getSetCookie?.() ?? [];
  return { status: res.status, body: json, cookie };
}

/** A token the server issues to a fresh client (read from its Set-Cookie). */
async function issuedToken() {
  const r = await api('GET', '/api/my-games');
  for (const c of r.cookie) {
    const m = /^(?:__Host-)?icebound_player=([^;]+)/.exec(c);
    if (m) return m[1];
  }
  throw new Error(`no token issued: ${JSON.stringify(r.cookie)}`);
}

/** The seat the holder of `token` has in game `id`, as the server says; null when it has none or
 * the server refuses the token itself (401 bad_token: a token it never issued). */
async function seatOf(id, token) {
  const r = await api('GET', `/api/games/${id}`, token);
  if (r.status === 401) return null;
  if (r.status !== 200) throw new Error(`GET game ${id}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.you ?? null;
}

async function gameOf(id, token) {
  const r = await api('GET', `/api/games/${id}`, token);
  if (r.status !== 200) throw new Error(`GET game ${id}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

// ---------- the victim's browser ----------

async function waitForServer() {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${direct}/api/stats`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise(r => setTimeout(r, 100));
  }
  throw new Error(`no server at ${direct}`);
}

/** Creates a game from the site's own page (same origin, as the page's buttons do). */
async function createFromSite(page, body) {
  return page.evaluate(async b => {
    const res = await fetch('/api/games', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(b),
    });
    return { status: res.status, body: await res.json() };
  }, body);
}

const results = [];
function report(name, succeeded, detail) {
  results.push({ name, succeeded });
  console.log(`${succeeded ? 'SUCCEEDED' : 'blocked  '}  ${name}${detail ? `  (${detail})` : ''}`);
}

async function visit(page, path, html, settle = 1500) {
  pages.set(path, html);
  await page.goto(evilOrigin + path);
  await page.waitForTimeout(settle);
}

await waitForServer();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--host-resolver-rules=MAP icebound.test 127.0.0.1, MAP evil.icebound.test 127.0.0.1',
  ],
});
let failed = false;
try {
  // Attacks 1-4: the victim holds a game open in this browser.
  const victim = await browser.newContext();
  const page = await victim.newPage();
  await page.goto(site + '/');
  const friend = await createFromSite(page, { variant: 'antarctos', opponent: 'friend', color: 'white' });
  if (friend.status !== 201) throw new Error(`the site's page cannot create a game: ${JSON.stringify(friend)}`);
  const fid = friend.body.id;
  const local = await createFromSite(page, { variant: 'antarctos', opponent: 'local' });
  const lid = local.body.id;

  await visit(page, '/resign', formPage(`${site}/api/games/${fid}/resign`, { x: '1' }));
  const afterResign = await gameOf(fid);
  report('1. cross-origin form resigns the game', afterResign.status !== 'ongoing', `status ${afterResign.status}`);

  // A finished game for the rematch form: the victim resigns it from the site itself, after
  // two moves (before them a resignation aborts the game, and an aborted game has no rematch).
  const done = await createFromSite(page, { variant: 'antarctos', opponent: 'local' });
  await page.goto(site + '/');
  await page.evaluate(async id => {
    for (const [ply, move] of ['c3-d4', 'f6-g5'].entries()) {
      await fetch(`/api/games/${id}/moves`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ move, ply }),
      });
    }
    await fetch(`/api/games/${id}/resign`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
  }, done.body.id);
  const finished = await gameOf(done.body.id);
  if (finished.status !== 'finished') throw new Error(`the site's own resignation failed: ${JSON.stringify(finished)}`);
  await visit(page, '/rematch', formPage(`${site}/api/games/${done.body.id}/rematch`, { x: '1' }));
  const afterRematch = await gameOf(done.body.id);
  report('2. cross-origin form asks for a rematch', afterRematch.rematch !== null, `rematch ${afterRematch.rematch}`);

  pages.set(
    '/fetch',
    `<!doctype html><script>
fetch(${JSON.stringify(`${site}/api/games/${lid}/moves`)}, {method: 'POST', mode: 'no-cors', credentials: 'include',
  headers: {'Content-Type': 'text/plain'}, body: JSON.stringify({move: 'c3-d4', ply: 0})});
</script>`,
  );
  await page.goto(evilOrigin + '/fetch');
  await page.waitForTimeout(1500);
  const afterFetch = await gameOf(lid);
  report('3. cross-origin text/plain fetch plays a move', afterFetch.ply !== 0, `ply ${afterFetch.ply}`);

  pages.set(
    '/ws',
    `<!doctype html><script>
window.log = [];
const ws = new WebSocket(${JSON.stringify(`ws://icebound.test:${port}/api/games/${lid}/ws`)});
ws.onopen = () => { window.log.push('open'); ws.send(JSON.stringify({type: 'move', move: 'c3-d4', ply: 0})); };
ws.onmessage = e => window.log.push(JSON.parse(e.data).type);
ws.onerror = () => window.log.push('error');
ws.onclose = e => window.log.push('close ' + e.code);
</script>`,
  );
  await page.goto(evilOrigin + '/ws');
  await page.waitForTimeout(2000);
  const wsLog = await page.evaluate(() => window.log);
  const afterWs = await gameOf(lid);
  report('4. cross-origin WebSocket plays a move', afterWs.ply !== 0, `ply ${afterWs.ply}; socket: ${wsLog.join(', ')}`);
  await victim.close();

  // Attack 5: a made-up token planted for the whole site before the victim's first visit.
  const madeUp = 'ATTACKERmadeUpToken0123456789abc';
  const fresh = await browser.newContext();
  const p5 = await fresh.newPage();
  await visit(
    p5,
    '/toss',
    `<!doctype html><script>document.cookie = 'icebound_player=${madeUp}; domain=icebound.test; path=/; max-age=3600';</script>`,
    300,
  );
  await p5.goto(site + '/');
  const g5 = await createFromSite(p5, { variant: 'antarctos', opponent: 'local' });
  const seen5 = g5.status === 201 ? await seatOf(g5.body.id, madeUp) : null;
  report('5. a planted made-up token owns the victim\'s next game', seen5 !== null, `create ${g5.status}; attacker sees you=${seen5}`);
  await fresh.close();

  // Attack 6: a token the server issued to the attacker, planted beside the victim's own cookie
  // with a narrower path, so the browser sends it first.
  const attacker = await issuedToken();
  const owned = await browser.newContext();
  const p6 = await owned.newPage();
  await p6.goto(site + '/');
  const own = await createFromSite(p6, { variant: 'antarctos', opponent: 'local' });
  if (own.status !== 201) throw new Error(`the victim's first game: ${JSON.stringify(own)}`);
  await visit(
    p6,
    '/toss2',
    `<!doctype html><script>document.cookie = 'icebound_player=${attacker}; domain=icebound.test; path=/api; max-age=3600';</script>`,
    300,
  );
  await p6.goto(site + '/');
  const g6 = await createFromSite(p6, { variant: 'antarctos', opponent: 'local' });
  const seen6 = g6.status === 201 ? await seatOf(g6.body.id, attacker) : null;
  report(
    '6. a planted issued token (narrower path) owns the victim\'s next game',
    seen6 !== null,
    `create ${g6.status}${g6.status === 201 ? '' : ` ${g6.body?.error?.code}`}; attacker sees you=${seen6}`,
  );
  await owned.close();

  // The site's own page still works under the same rules: it was used above to create games.
  failed = results.some(r => r.succeeded);
  console.log(`${results.filter(r => !r.succeeded).length} blocked, ${results.filter(r => r.succeeded).length} succeeded`);
} catch (e) {
  failed = true;
  console.error(`FAIL: ${e.stack ?? e}`);
} finally {
  await browser.close();
  evil.close();
}
process.exit(failed ? 1 : 0);
