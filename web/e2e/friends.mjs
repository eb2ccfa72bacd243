// Friend games in two browser contexts: the waiting room (link on top, Copy, Cancel), nothing
// playable before the friend joins, abort while fewer than two moves are played, takeback as an
// offer, rematch as an offer the other side accepts or declines, and the statistics that count
// neither unjoined nor aborted games.

import {
  api, base, check, clickSquare, eq, newPage, screenshot, statusText, suite, waitForMoves, waitForStatus,
} from './lib.mjs';

const totals = async page => {
  const s = (await api(page, 'GET', '/api/stats')).json;
  return { antarctos: s.antarctos.total, iceage: s.iceage.total };
};

/** A friend game created by `a` from the home page and joined by `b` through the link.
 * @param {import('./lib.mjs').Browser} browser
 * @param {{ variant?: import('../src/api').Variant, fen?: string }} [opts]
 */
async function friendGame(browser, { variant = 'antarctos', fen } = {}) {
  const a = await newPage(browser);
  const id = await startFriendGame(a, variant, fen);
  const url = await a.inputValue('#invite-url');
  const b = await newPage(browser);
  await b.goto(url);
  await b.waitForURL(/\/game\/[\w-]+$/, { timeout: 15000 });
  await b.waitForSelector('.game .cg-wrap cg-board piece');
  await a.waitForSelector('#waiting', { state: 'detached', timeout: 5000 });
  return { a, b, id };
}

async function startFriendGame(a, variant, fen) {
  await a.goto(`${base}/`);
  await a.check(`input[name=variant][value=${variant}]`);
  await a.check('input[name=opponent][value=friend]');
  await a.check('input[name=color][value=white]');
  if (fen) {
    await a.click('#new-game details summary');
    await a.fill('#fen', fen);
  }
  await a.click('#start');
  await a.waitForURL(/\/game\/[\w-]+$/);
  await a.waitForSelector('#waiting');
  return new URL(a.url()).pathname.split('/').pop();
}

async function waitingRoom(browser) {
  const a = await newPage(browser);
  const before = await totals(a);
  const id = await startFriendGame(a, 'antarctos');
  const url = await a.inputValue('#invite-url');
  check(url.startsWith(`${base}/join/`), `the link is on top, got "${url}"`);
  const box = await a.$eval('#waiting', w => w.getBoundingClientRect().top);
  const moves = await a.$eval('#moves', m => m.getBoundingClientRect().top);
  check(box < moves, 'the waiting room comes before the move list');
  await a.click('#invite-copy');
  eq(await a.evaluate(() => navigator.clipboard.readText()), url, 'Copy puts the link on the clipboard');
  eq(await a.textContent('#invite-copy'), 'Copied', 'Copy says it copied');
  eq(await statusText(a), 'Waiting for a friend to join', 'the status says what the game waits for');
  check(!(await a.isVisible('#resign')) && !(await a.isVisible('#abort')), 'no Resign before the friend joins (Cancel is the way out)');
  await screenshot(a, 'waiting-room', 'friend-waiting-room.png');
  // The same on a phone: the link and its buttons fit.
  await a.setViewportSize({ width: 390, height: 844 });
  // The board resizes a moment after the window (a resize observer): the layout settles first.
  const fits = await a.waitForFunction(() => document.documentElement.scrollWidth <= window.innerWidth, null, { timeout: 3000 })
    .then(() => true, () => false);
  check(fits, 'the waiting room fits a phone');
  await screenshot(a, 'waiting-room-phone', 'phone-friend-waiting-room.png');
  await a.setViewportSize({ width: 1280, height: 800 });
  // Cancel: the game ends without a result, the link leads nowhere, nothing is counted.
  await a.click('#invite-cancel');
  await a.click('#invite-cancel-yes');
  await waitForStatus(a, 'aborted');
  eq(await statusText(a), 'Game aborted', 'a cancelled game says so');
  const b = await newPage(browser);
  await b.goto(url);
  await b.waitForSelector('#dead-end');
  eq(await b.textContent('#dead-end h1'), 'Invitation cancelled', 'a cancelled game cannot be joined, and the page says so');
  eq(await totals(a), before, 'an unjoined, cancelled game is not counted');
  eq((await api(a, 'GET', `/api/games/${id}`)).json.result, null, 'no result');
}

async function joinAndAbort(browser) {
  const { a, b, id } = await friendGame(browser);
  const before = await totals(a);
  await a.waitForSelector('#notice:not([hidden])');
  eq(await a.textContent('#notice'), 'Your friend joined: the game begins', 'the creator is told the friend joined');
  check(await a.isVisible('#abort') && !(await a.isVisible('#resign')), 'before two moves: Abort, not Resign');
  await clickSquare(a, 'c3');
  await clickSquare(a, 'd4');
  await waitForMoves(b, 1);
  check(await b.isVisible('#abort'), 'after one move the friend may still abort');
  await b.click('#abort');
  await b.click('#abort-yes');
  await waitForStatus(b, 'aborted');
  await waitForStatus(a, 'aborted');
  eq(await statusText(a), 'Game aborted', 'the abort is said in the status');
  eq(await a.$$eval('#moves .move-result', r => r.length), 0, 'and not again in the move list');
  eq(await totals(a), before, 'an aborted game is not counted');
  eq((await api(a, 'POST', `/api/games/${id}/moves`, { move: 'f6-g5', ply: 1 })).json?.error?.code, 'game_over', 'an aborted game takes no moves');
  // Once both have moved, Abort gives way to Resign.
  const g2 = await friendGame(browser);
  await clickSquare(g2.a, 'c3');
  await clickSquare(g2.a, 'd4');
  await waitForMoves(g2.b, 1);
  await clickSquare(g2.b, 'f6');
  await clickSquare(g2.b, 'g5');
  await waitForMoves(g2.a, 2);
  check(!(await g2.a.isVisible('#abort')) && (await g2.a.isVisible('#resign')), 'after two moves: Resign, not Abort');
  eq((await api(g2.a, 'POST', `/api/games/${g2.id}/abort`)).status, 409, 'the API refuses a late abort');
}

async function takebackOffer(browser) {
  const { a, b, id } = await friendGame(browser);
  await clickSquare(a, 'c3');
  await clickSquare(a, 'd4');
  await waitForMoves(b, 1);
  await a.click('#takeback');
  await b.waitForSelector('#takeback-offer', { timeout: 5000 });
  // The asker's page learns of its offer from its own answer or socket, which may come after
  // the other side's (CI saw the check run first): waited for, not read at once.
  check(await a.waitForSelector('#takeback-sent', { state: 'visible', timeout: 5000 }).then(() => true, () => false), 'the asking side sees its offer stands');
  await b.click('#takeback-offer-decline');
  await a.waitForSelector('#notice[data-code=takeback_declined]:not([hidden])', { timeout: 5000 });
  eq(await a.textContent('#notice'), 'Black declined the takeback', 'a declined takeback is said');
  // Asked again at once, the server refuses until a move is made (third hostile round, 5).
  eq((await api(a, 'POST', `/api/games/${id}/takeback`, { action: 'offer' })).status, 429, 'a declined takeback is not asked again at once');
  await clickSquare(b, 'f6');
  await clickSquare(b, 'g5');
  await waitForMoves(a, 2);
  await a.click('#takeback');
  await b.waitForSelector('#takeback-offer');
  await b.click('#takeback-offer-accept');
  await a.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 0, null, { timeout: 5000 });
  eq((await api(a, 'GET', `/api/games/${id}`)).json.ply, 0, 'the move was taken back');
  eq(await statusText(a), 'Your move', 'White moves again');
  await screenshot(b, 'takeback-accepted');
}

async function rematchOffer(browser) {
  const { a, b, id } = await friendGame(browser, { variant: 'iceage' });
  await clickSquare(a, 'h2');
  await clickSquare(a, 'g3');
  await waitForMoves(b, 1);
  await clickSquare(b, 'g8');
  await clickSquare(b, 'f6');
  await waitForMoves(a, 2);
  await a.click('#resign');
  await a.click('#resign-yes');
  await waitForStatus(b, 'finished');
  eq(await statusText(b), 'You won', 'the winner\'s headline');
  eq((await b.textContent('#game-over .over-reason')).trim(), 'White resigned.', 'the reason');
  await a.click('#rematch');
  await b.waitForSelector('#rematch-offer', { timeout: 5000 });
  // The opponent's socket may hear of the offer before the offering page has its answer.
  check(await a.waitForSelector('#rematch-sent', { timeout: 5000 }).then(() => true, () => false),
    'the offering side waits for the answer');
  await b.click('#rematch-offer-decline');
  await a.waitForSelector('#notice[data-code=rematch_declined]:not([hidden])', { timeout: 5000 });
  await a.click('#rematch');
  await b.waitForSelector('#rematch-offer');
  await b.click('#rematch-offer-accept');
  await a.waitForURL(u => !u.pathname.endsWith(id), { timeout: 10000 });
  await b.waitForURL(u => !u.pathname.endsWith(id), { timeout: 10000 });
  eq(new URL(a.url()).pathname, new URL(b.url()).pathname, 'both players are taken to the rematch');
  const next = (await api(a, 'GET', new URL(a.url()).pathname.replace('/game/', '/api/games/'))).json;
  eq([next.you, next.rematch_of], ['black', id], 'colours are swapped in the rematch');
}

await suite([
  ['the waiting room: link, Copy, Cancel', waitingRoom],
  ['joining, and abort while fewer than two moves are played', joinAndAbort],
  ['takeback between friends is an offer', takebackOffer],
  ['rematch between friends is an offer', rematchOffer],
]);
