// The game page when its live connection drops (a server killed or restarted, a phone between
// networks), as a browser tester found it on two processes: the page waited up to 32 s to try
// again while the player's clock ran on the server, kept counting down the side it believed to
// move, and said a failed move at the end of the panel, below a phone's screen. Also: the
// result comes into view when a phone player resigns from the buttons at the panel's foot, and
// the home page names the time control once.

import { api, base, check, clickSquare, eq, newPage, screenshot, suite } from './lib.mjs';

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

/** Routes the page's game sockets through the test, so that it can drop them: each opened
 * socket goes on to the server; `drop()` closes the open ones as a dying server would. */
async function droppableSockets(page) {
  const open = new Set();
  await page.routeWebSocket(/\/api\/games\/[\w-]+\/ws(\?[^/]*)?$/, ws => {
    ws.connectToServer();
    open.add(ws);
    ws.onClose(() => open.delete(ws));
  });
  // Counts the sockets the page makes, to see a reconnection start.
  await page.addInitScript(() => {
    const Real = window.WebSocket;
    window.__sockets = 0;
    window.WebSocket = class extends Real {
      /** @param {ConstructorParameters<typeof WebSocket>} args */
      constructor(...args) {
        super(...args);
        window.__sockets++;
      }
    };
  });
  return {
    drop: async () => {
      for (const ws of [...open]) await ws.close({ code: 1012, reason: 'restart' });
    },
  };
}

/** A real-time friend game (3+2, Ice Age Chess) made by a desktop player and joined by `page`
 * (already routed) through its link: the joiner is Black; both first moves are made (the
 * clocks stand until then), so White's clock runs. */
async function blitzJoinedBy(browser, page) {
  const a = await newPage(browser);
  await a.goto(`${base}/`);
  const created = (await api(a, 'POST', '/api/games', {
    variant: 'iceage', opponent: 'friend', color: 'white',
    time_control: { kind: 'realtime', initial_s: 180, increment_s: 2 },
  })).json;
  await page.goto(`${base}${created.invite_url}`);
  await page.waitForURL(/\/game\/[\w-]+$/, { timeout: 15000 });
  await page.waitForSelector('.live.on', { timeout: 10000 });
  const move = async (p, mv, ply) => eq((await api(p, 'POST', `/api/games/${created.id}/moves`, { move: mv, ply })).status, 200, `${mv} is played`);
  await move(a, 'g1f3', 0);
  await move(page, 'g8f6', 1);
  return created.id;
}

async function droppedConnection(browser) {
  const page = await newPage(browser, PHONE);
  const sockets = await droppableSockets(page);
  await blitzJoinedBy(browser, page);
  await page.waitForSelector('.clock.running');
  await sockets.drop();
  await page.waitForSelector('.live.off', { timeout: 5000 });
  const stale = await page.$$eval('.clock', faces => faces.map(f => f.classList.contains('stale')));
  eq(stale, [true, true], 'both clocks are marked not live while the connection is down');
  const ticking = await page.$eval('.clock.running:not(.stale)', () => true).catch(() => false);
  check(!ticking, 'no clock counts down while the page cannot know who is to move');
  await screenshot(page, 'phone-connection-dropped');
  // It tries again by itself within seconds (it waited up to 32 s before).
  const dropped = Date.now();
  await page.waitForSelector('.live.on', { timeout: 8000 });
  const back = Date.now() - dropped;
  check(back < 8000, `back live ${back} ms after the drop`);
  await page.waitForFunction(() => [...document.querySelectorAll('.clock')].every(f => !f.classList.contains('stale')));
  const running = await page.$$eval('.clock.running', faces => faces.length);
  eq(running, 1, 'the state that came with the reconnection runs one clock again');

  // The browser saying it is back online reconnects at once, not after the waiting time:
  // the event is sent the moment the page marks itself offline.
  const armed = page.evaluate(() => new Promise(resolve => {
    const live = document.querySelector('.live');
    const seen = new MutationObserver(() => {
      if (!live.classList.contains('off')) return;
      seen.disconnect();
      const before = window.__sockets;
      window.dispatchEvent(new Event('online'));
      resolve(window.__sockets - before);
    });
    seen.observe(live, { attributes: true, attributeFilter: ['class'] });
  }));
  await sockets.drop();
  eq(await armed, 1, 'an "online" event opens a new socket at once');
  await page.waitForSelector('.live.on', { timeout: 8000 });

  // The network goes (a phone out of coverage): chromium keeps the open socket, as a phone's
  // may for minutes, and the page said "live" all the while. The "offline" event marks it.
  const cdp = await page.context().newCDPSession(page);
  const net = offline => cdp.send('Network.emulateNetworkConditions', { offline, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await net(true);
  await page.waitForSelector('.live.off', { timeout: 3000 });
  await page.waitForSelector('.clock.stale');
  await page.waitForTimeout(3000);
  check(await page.isVisible('.live.off'), 'still offline while the network is down');
  await net(false);
  await page.waitForSelector('.live.on', { timeout: 8000 });
}

/** The browser says it is offline: the page drops its socket itself, with the close code 4001
 * ("offline"), which the server counts as a lost connection: the opponent waits 40 s in a
 * 3+2 game before a claim, not the 10 s of a closed tab (a normal close gave those). */
async function offlineCloseIsALostConnection(browser) {
  const page = await newPage(browser, PHONE);
  /** @type {number[]} */
  const codes = [];
  let refuse = false;
  await page.routeWebSocket(/\/api\/games\/[\w-]+\/ws(\?[^/]*)?$/, ws => {
    // While "offline", the page's tries to come back fail as they would without a network.
    if (refuse) { void ws.close({ code: 1013, reason: 'offline' }); return; }
    const server = ws.connectToServer();
    // The page's close goes on to the server with its code (a handler stops the forwarding).
    ws.onClose((code, reason) => {
      codes.push(code ?? 1005);
      void server.close({ code, reason });
    });
  });
  const id = await blitzJoinedBy(browser, page);
  await page.waitForSelector('.live.on');
  refuse = true;
  await page.evaluate(() => window.dispatchEvent(new Event('offline')));
  await page.waitForSelector('.live.off', { timeout: 3000 });
  /** @type {any} */
  let gone = null;
  for (let i = 0; i < 50 && !gone; i++) {
    await page.waitForTimeout(100);
    gone = (await api(page, 'GET', `/api/games/${id}`)).json.gone ?? null;
  }
  eq(codes[0], 4001, 'the page closes its socket with the code for going offline');
  check(gone !== null, 'the server sees Black gone');
  eq(gone.claim_at_ms - gone.since_ms, 40_000, 'a page gone offline gets the lost connection\'s wait, not a closed tab\'s');
  refuse = false;
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await page.waitForSelector('.live.on', { timeout: 8000 });
}

/** A move that cannot be sent is said beside the status, on screen on a phone. */
async function messageBesideTheStatus(browser) {
  const page = await newPage(browser, PHONE);
  await page.goto(`${base}/`);
  const g = (await api(page, 'POST', '/api/games', { variant: 'antarctos', opponent: 'local' })).json;
  await page.goto(`${base}/game/${g.id}`);
  await page.waitForSelector('.game .cg-wrap cg-board piece');
  const order = await page.$eval('#status', s => s.nextElementSibling?.id);
  eq(order, 'message', 'the page\'s message follows the status line');
  // The move's request fails, as when the server is gone: the move's error shows.
  await page.route('**/api/games/*/moves', route => route.abort('connectionrefused'));
  await clickSquare(page, 'c3');
  await clickSquare(page, 'd4');
  await page.waitForFunction(() => document.querySelector('#message')?.textContent, null, { timeout: 5000 });
  const box = await page.$eval('#message', m => {
    const r = m.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, height: innerHeight };
  });
  check(box.top >= 0 && box.bottom <= box.height, `the message is on the phone's screen (${Math.round(box.top)}-${Math.round(box.bottom)} of ${box.height})`);
  await screenshot(page, 'phone-move-not-sent');
  // The move is kept, said so, and sent once the server answers again (a browser tester's
  // move made offline was dropped and never sent).
  await page.waitForFunction(() => document.querySelector('#message')?.textContent?.includes('not sent'), null, { timeout: 5000 });
  check(true, 'the page says the move was not sent and will go');
  await page.unroute('**/api/games/*/moves');
  let ply = 0;
  for (let i = 0; i < 40 && ply === 0; i++) {
    await page.waitForTimeout(250);
    ply = (await api(page, 'GET', `/api/games/${g.id}`)).json.ply;
  }
  eq(ply, 1, 'the kept move was sent when the connection came back');
  await page.waitForFunction(() => !document.querySelector('#message')?.textContent, null, { timeout: 5000 });
  check(true, 'the message is gone once the move went');
}

/** Resigning from the buttons at the panel's foot brings the result into view on a phone. */
async function resultInView(browser) {
  const page = await newPage(browser, PHONE);
  await page.goto(`${base}/`);
  const g = (await api(page, 'POST', '/api/games', { variant: 'antarctos', opponent: 'engine', level: 1, color: 'white' })).json;
  await page.goto(`${base}/game/${g.id}`);
  await page.waitForSelector('.game .cg-wrap cg-board piece');
  const r1 = await api(page, 'POST', `/api/games/${g.id}/moves`, { move: 'c3-d4', ply: 0 });
  eq(r1.status, 200, 'a first move');
  await page.waitForSelector('#resign', { timeout: 15000 });
  await page.locator('#resign').scrollIntoViewIfNeeded();
  await page.click('#resign');
  await page.click('#resign-yes');
  await page.waitForSelector('#game-over:not([hidden])', { timeout: 10000 });
  await page.waitForTimeout(300);
  const box = await page.$eval('#game-over', m => {
    const r = m.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, height: innerHeight };
  });
  check(box.top >= 0 && box.bottom <= box.height, `the result and rematch are on screen after resigning (${Math.round(box.top)}-${Math.round(box.bottom)} of ${box.height})`);
  await screenshot(page, 'phone-resigned');
}

/** A typed move refused with 503 clocks_owed (the clocks getting a database outage back) is
 * kept, said so, and sent again by itself; the hostile tester found such a move dropped when
 * its text named no listed move or when another move was on its way. */
async function clocksOwedMoveGoesAgain(browser) {
  const page = await newPage(browser);
  // The server's last state message, to send again as the give-back's own state would come.
  /** @type {string | Buffer | null} */
  let last = null;
  /** @type {import('playwright-core').WebSocketRoute | null} */
  let toPage = null;
  await page.routeWebSocket(/\/api\/games\/[\w-]+\/ws(\?[^/]*)?$/, ws => {
    const server = ws.connectToServer();
    toPage = ws;
    server.onMessage(m => {
      last = m;
      ws.send(m);
    });
    ws.onMessage(m => server.send(m));
  });
  await page.goto(`${base}/`);
  const g = (await api(page, 'POST', '/api/games', { variant: 'antarctos', opponent: 'local' })).json;
  await page.goto(`${base}/game/${g.id}`);
  await page.waitForSelector('.game .cg-wrap cg-board piece');
  let refused = 0;
  await page.route('**/api/games/*/moves', route => {
    if (refused === 0) {
      refused++;
      return route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'clocks_owed', message: 'the clocks are being given back the time the database was out of reach; try again in a moment' } }),
      });
    }
    return route.continue();
  });
  // Upper case without a separator (A17): text, not one of the listed move ids.
  await page.fill('#move-input', 'C3D4');
  await page.press('#move-input', 'Enter');
  await page.waitForFunction(() => document.body.textContent.includes('The clocks are getting back'), null, { timeout: 5000 });
  check(true, 'the refusal says the clocks are getting time back');
  // A state at the same ply arrives before the page tries again (it had dropped the move).
  check(last !== null && toPage !== null, 'the page had a state from its socket');
  toPage.send(last);
  let ply = 0;
  for (let i = 0; i < 40 && ply === 0; i++) {
    await page.waitForTimeout(250);
    ply = (await api(page, 'GET', `/api/games/${g.id}`)).json.ply;
  }
  eq(refused, 1, 'the first send was refused');
  eq(ply, 1, 'the kept move went by itself once the clocks had their time');
}

/** The home page's friend options say "Time control" once. */
async function timeControlOnce(browser) {
  const page = await newPage(browser);
  await page.goto(`${base}/`);
  await page.waitForSelector('.friend-clock', { state: 'attached' });
  const said = await page.$$eval('.friend-clock legend, .friend-clock label', els =>
    els.filter(e => e.textContent.trim().startsWith('Time control')).length);
  eq(said, 1, 'one "Time control" in the friend options');
}

/** The socket sends only the moves the page lacks (`moves=changes`, issue 12): the page's
 * move list stays the game's through moves, a dropped connection and a takeback. */
async function movesSentAlone(browser) {
  const a = await newPage(browser);
  await a.goto(`${base}/`);
  const created = (await api(a, 'POST', '/api/games', { variant: 'antarctos', opponent: 'friend', color: 'white' })).json;
  const page = await newPage(browser);
  const urls = [];
  /** The states each socket received, by socket. */
  const frames = [];
  page.on('websocket', ws => {
    urls.push(ws.url());
    const got = [];
    frames.push(got);
    ws.on('framereceived', f => {
      try {
        const m = JSON.parse(String(f.payload));
        if (m.type === 'state') got.push({ version: m.game.version, from: m.moves_from, n: m.game.moves.length });
      } catch {
        // not a state
      }
    });
  });
  const sockets = await droppableSockets(page);
  await page.goto(`${base}${created.invite_url}`);
  await page.waitForURL(/\/game\/[\w-]+$/, { timeout: 15000 });
  await page.waitForSelector('.live.on', { timeout: 10000 });
  const id = created.id;
  const game = async () => (await api(a, 'GET', `/api/games/${id}`)).json;
  const moveOnce = async () => {
    const g = await game();
    const who = g.turn === 'white' ? a : page;
    eq((await api(who, 'POST', `/api/games/${id}/moves`, { move: g.legal[0].id, ply: g.ply })).status, 200, `ply ${g.ply + 1} is played`);
  };
  const shown = () => page.$$eval('button.move', b => b.map(x => x.textContent.trim()));
  const sameAsGame = async what => {
    const g = await game();
    await page.waitForFunction(n => document.querySelectorAll('button.move').length === n, g.moves.length, { timeout: 8000 })
      .catch(() => {});
    eq(await shown(), g.moves.map(m => m.text), `the page's moves are the game's ${what}`);
  };
  for (let i = 0; i < 6; i++) await moveOnce();
  await sameAsGame('after six moves');
  check(urls.some(u => u.endsWith('/ws?moves=changes')), `the page asks for the new moves only: ${urls.join(' ')}`);
  await sockets.drop();
  await page.waitForSelector('.live.off', { timeout: 5000 });
  await moveOnce();
  await moveOnce();
  await page.waitForSelector('.live.on', { timeout: 8000 });
  await sameAsGame('after two moves made while its connection was down');
  // The socket that came back asked for what it missed and got the two moves one by one.
  const back = urls[urls.length - 1];
  check(/\/ws\?moves=changes&since=\d+$/.test(back), `the reconnection names the version it holds: ${back}`);
  const since = Number(back.split('since=')[1]);
  const replayed = frames[frames.length - 1];
  eq(replayed.slice(0, 2).map(f => [f.version, f.from, f.n]), [[since + 1, 6, 1], [since + 2, 7, 1]],
    'the missed states come in order, one move each');
  eq((await api(a, 'POST', `/api/games/${id}/takeback`, { action: 'offer' })).status, 200, 'a takeback is offered');
  eq((await api(page, 'POST', `/api/games/${id}/takeback`, { action: 'accept' })).status, 200, 'and accepted');
  await sameAsGame('after a takeback');
  await moveOnce();
  await sameAsGame('after the move that follows the takeback');
}

/** A move sent to a server older than the move body's `version` (a rolling upgrade): refused
 * there with 400, it goes again without the field and is played once. */
async function moveToAnOlderServer(browser) {
  const page = await newPage(browser);
  await page.goto(`${base}/`);
  const g = (await api(page, 'POST', '/api/games', { variant: 'antarctos', opponent: 'local' })).json;
  await page.goto(`${base}/game/${g.id}`);
  await page.waitForSelector('.game .cg-wrap cg-board piece');
  const bodies = [];
  await page.route('**/api/games/*/moves', async route => {
    const body = JSON.parse(route.request().postData() ?? '{}');
    bodies.push(body);
    if ('version' in body) {
      await route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ error: { code: 'bad_request', message: 'bad body: unknown field `version`, expected `move` or `ply` at line 1 column 40' } }) });
    } else {
      await route.continue();
    }
  });
  await clickSquare(page, 'c3');
  await clickSquare(page, 'd4');
  await page.waitForFunction(() => document.querySelectorAll('button.move').length === 1, null, { timeout: 5000 }).catch(() => {});
  eq(bodies.map(b => 'version' in b), [true, false], 'sent with its version, then again without it');
  eq((await api(page, 'GET', `/api/games/${g.id}`)).json.ply, 1, 'the move is played once');
  eq(await page.$$eval('button.move', b => b.length), 1, 'and shown');
  check(!(await page.$eval('#message', m => m.textContent)), 'with no error said');
  await page.unroute('**/api/games/*/moves');
}

async function takebackToAnOlderServer(browser) {
  const page = await newPage(browser);
  await page.goto(`${base}/`);
  const g = (await api(page, 'POST', '/api/games', { variant: 'antarctos', opponent: 'local' })).json;
  eq((await api(page, 'POST', `/api/games/${g.id}/moves`, { move: 'c3-d4', ply: 0 })).status, 200, 'a move to take back');
  await page.goto(`${base}/game/${g.id}`);
  await page.waitForFunction(() => document.querySelectorAll('button.move').length === 1, null, { timeout: 5000 });
  const bodies = [];
  await page.route('**/api/games/*/takeback', async route => {
    const body = JSON.parse(route.request().postData() ?? '{}');
    bodies.push(body);
    if ('ply' in body) {
      await route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ error: { code: 'bad_request', message: 'bad body: unknown field `ply`, expected `action` at line 1 column 25' } }) });
    } else {
      await route.continue();
    }
  });
  await page.click('#takeback');
  await page.waitForFunction(() => document.querySelectorAll('button.move').length === 0, null, { timeout: 5000 }).catch(() => {});
  eq(bodies.map(b => 'ply' in b), [true, false], 'sent with its ply, then again without it');
  eq((await api(page, 'GET', `/api/games/${g.id}`)).json.ply, 0, 'the move is taken back once');
  check(!(await page.$eval('#message', m => m.textContent)), 'with no error said');
  await page.unroute('**/api/games/*/takeback');
}

await suite([
  ['a dropped connection: clocks marked, back within seconds, at once when online', droppedConnection],
  ['a page gone offline closes as a lost connection, not a closed tab', offlineCloseIsALostConnection],
  ['a move that cannot be sent is said beside the status', messageBesideTheStatus],
  ['a move refused while the clocks get an outage back goes again by itself', clocksOwedMoveGoesAgain],
  ['the result comes into view after resigning on a phone', resultInView],
  ['the home page names the time control once', timeControlOnce],
  ["only the new moves are sent, and the move list stays the game's", movesSentAlone],
  ['a move to a server older than its version field goes again without it', moveToAnOlderServer],
  ['a takeback to a server older than its ply field goes again without it', takebackToAnOlderServer],
]);
