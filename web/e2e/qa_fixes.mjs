// The defects a fresh tester found on the game page and around it (desktop and a 390 px phone),
// each kept as a check: notices that outlive their moment, used or cancelled invitations, the
// watcher of a waiting game, My games on a phone, the statistics' rounding and wording, the
// cancel confirmation, pages for a game or invitation that does not exist, the move list that
// follows the game to its result, typed moves that are not played, double clicks, the takeback's
// words, decision badges that lead to their rulings, and the phone's look.

import {
  api, base, check, clickSquare, eq, newPage, openGame, screenshot, startFromHome, statusText, suite,
  waitForMoves, waitForStatus,
} from './lib.mjs';

/** Counts the page's requests to the API path ending in `tail` (e.g. `/resign`) and its API
 * answers of 400 and above. */
function watchRequests(page) {
  const seen = { posts: [], failed: [] };
  page.on('request', r => {
    if (r.method() === 'POST' && r.url().includes('/api/')) seen.posts.push(new URL(r.url()).pathname);
  });
  page.on('response', r => {
    if (r.url().includes('/api/') && r.status() >= 400) seen.failed.push(`${r.status()} ${new URL(r.url()).pathname}`);
  });
  return { count: tail => seen.posts.filter(p => p.endsWith(tail)).length, failed: () => seen.failed.slice() };
}

const noticeShown = page => page.isVisible('#notice');

/** White plays `from`-`to` as the game's third ply: the standing notice goes with it; then
 * waits for the computer's reply. */
async function moveClearsNotice(page, from, to, what) {
  await clickSquare(page, from);
  await clickSquare(page, to);
  await waitForMoves(page, 3);
  check(!(await noticeShown(page)), `${what} goes with the next move (it stayed before)`);
  await waitForMoves(page, 4);
}

/** An Antarctos game on one screen, finished by the side to move resigning after `moves`. */
async function resignedLocalGame(page, moves) {
  const g = (await api(page, 'POST', '/api/games', { variant: 'antarctos', opponent: 'local' })).json;
  let ply = 0;
  for (const move of moves) {
    const r = await api(page, 'POST', `/api/games/${g.id}/moves`, { move, ply });
    eq(r.status, 200, `move ${move}`);
    ply++;
  }
  eq((await api(page, 'POST', `/api/games/${g.id}/resign`, {})).status, 200, 'resign');
  return g.id;
}

/** A friend game (Antarctos unless told) made by `a` as White through the API and joined by
 * `b` through the link's page; both pages show it.
 * @param {import('./lib.mjs').Browser} browser
 * @param {import('../src/api').Variant} [variant]
 */
async function friendGame(browser, variant = 'antarctos') {
  const a = await newPage(browser);
  await a.goto(`${base}/`);
  const created = (await api(a, 'POST', '/api/games', { variant, opponent: 'friend', color: 'white' })).json;
  await openGame(a, created.id);
  const b = await newPage(browser);
  await b.goto(`${base}${created.invite_url}`);
  await b.waitForURL(/\/game\/[\w-]+$/, { timeout: 15000 });
  await b.waitForSelector('.game .cg-wrap cg-board piece');
  await a.waitForSelector('#waiting', { state: 'detached', timeout: 5000 });
  return { a, b, id: created.id, invite: created.invite_url };
}

// 5. The statistics: 2 of 3 is 66.7 % (half-up, one decimal), no command for players, the
// seed's heading. Runs first, while the site holds only these three Antarctos games.
async function statisticsRounding(browser) {
  const page = await newPage(browser);
  await page.goto(`${base}/`);
  // White wins twice (Black, to move after three plies, resigns), Black once.
  await resignedLocalGame(page, ['c3-d4', 'b6-a5', 'a3-b4']);
  await resignedLocalGame(page, ['c3-d4', 'b6-a5', 'a3-b4']);
  await resignedLocalGame(page, ['c3-d4', 'b6-a5']);
  await page.goto(`${base}/stats`);
  await page.waitForSelector('#stats');
  const rows = await page.$$eval('#stats [data-variant=antarctos] table.stats:not(.lab) tr',
    trs => trs.map(tr => [...tr.children].map(c => c.textContent.trim()).filter(Boolean).join(' ')));
  eq(rows.slice(0, 3), ['White 2 (66.7 %)', 'Black 1 (33.3 %)', 'Draw 0 (0.0 %)'], 'percentages rounded half-up to one decimal (was 66.66 %)');
  const text = await page.textContent('#stats');
  check(!/cargo|--database|selfplay --variant/.test(text), 'no command on the players\' statistics page');
  eq(await page.textContent('#stats h1'), 'Statistics of won games', 'the seed page\'s heading, in English');
}

// 1, 10, 11. Against the computer: a notice goes with the next move; the takeback says what
// goes; a double click sends once; the end of the game takes the notice away.
async function noticesTakebackDoubleClicks(browser) {
  const page = await newPage(browser);
  const requests = watchRequests(page);
  await startFromHome(page, { variant: 'iceage', opponent: 'engine', level: 1, color: 'white' });
  await clickSquare(page, 'h2');
  await clickSquare(page, 'g3');
  await waitForMoves(page, 2);
  eq(await page.textContent('#takeback'), 'Take back your move and the computer\'s reply', 'the takeback says both moves go (was "Take back")');
  await page.dblclick('#offer-draw');
  await page.waitForSelector('#notice:not([hidden])', { timeout: 5000 });
  eq(await page.textContent('#notice'), 'The computer declined the draw: play on', 'the decline is said');
  eq(requests.count('/draw'), 1, 'a double click on "Offer a draw" sends one offer');
  await moveClearsNotice(page, 'g1', 'f3', 'the notice of the decline');
  await page.dblclick('#takeback');
  await page.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 2, null, { timeout: 5000 });
  await page.waitForTimeout(500);
  eq(requests.count('/takeback'), 1, 'a double click on the takeback sends one request');
  eq(await page.textContent('#notice'), 'Move taken back', 'the takeback is said');
  await moveClearsNotice(page, 'b1', 'c3', '"Move taken back"');
  // A notice standing when the game ends goes with the end.
  await page.click('#offer-draw');
  await page.waitForSelector('#notice:not([hidden])', { timeout: 5000 });
  await page.click('#resign');
  await page.dblclick('#resign-yes');
  await waitForStatus(page, 'finished');
  await page.waitForTimeout(500);
  check(!(await noticeShown(page)), 'the notice goes when the game ends');
  eq(requests.count('/resign'), 1, 'a double click on "Yes" resigns once');
  eq(requests.failed(), [], 'no request was refused (a second resign gave a console-only 409)');
  eq(await page.textContent('#message'), '', 'no error message');
  // A double click on New game adds one history entry.
  const before = await page.evaluate(() => history.length);
  await page.dblclick('#new-game');
  await page.waitForURL(u => u.pathname === '/');
  await page.waitForTimeout(300);
  eq(await page.evaluate(() => history.length), before + 1, 'a double click on New game adds one history entry');
}

// 2, 3, 6, 9, 11. Friends: the watcher of a waiting game, the cancel that asks once, the used
// and the cancelled invitation, typed moves out of turn or illegal, the takeback's words.
async function waitingWatcherAndCancel(browser) {
  const a = await newPage(browser);
  await a.goto(`${base}/`);
  const created = (await api(a, 'POST', '/api/games', { variant: 'antarctos', opponent: 'friend', color: 'white' })).json;
  await openGame(a, created.id);
  const watcher = await newPage(browser);
  await openGame(watcher, created.id);
  eq(await statusText(watcher), 'You are watching: waiting for the second player to join', 'a watcher of a waiting game is told it watches (was "waiting for a friend to join")');
  eq(await statusText(a), 'Waiting for a friend to join', 'the creator\'s status starts with a capital');
  // Cancel asks once, in the page.
  await a.click('#invite-cancel');
  check(await a.isVisible('#invite-cancel-yes'), 'Cancel asks before it acts');
  eq((await a.textContent('#waiting .confirm-q')).trim(), 'Cancel this game? The link will stop working.', 'the question');
  await a.click('#invite-cancel-no');
  eq(await a.$eval('#status', s => s.dataset.status), 'ongoing', '"No" keeps the game');
  await a.click('#invite-cancel');
  await a.click('#invite-cancel-yes');
  await waitForStatus(a, 'aborted');
  await a.waitForTimeout(300);
  const said = await a.$eval('.panel', p => (p.innerText.match(/Game aborted|The game was aborted/g) ?? []).length);
  eq(said, 1, '"Game aborted" is said once (was three times)');
  check(!(await noticeShown(a)), 'no notice repeats it');
  // The cancelled invitation.
  const late = await newPage(browser);
  await late.goto(`${base}${created.invite_url}`);
  await late.waitForSelector('#dead-end');
  eq(await late.textContent('#dead-end h1'), 'Invitation cancelled', 'a cancelled invitation says so');
  check((await late.textContent('#dead-end p')).includes('called off before anyone joined'), 'in words');
  eq(await late.getAttribute('#watch-link', 'href'), `/game/${created.id}`, 'the game can be seen');
  check(await late.isVisible('#home-link') && await late.isVisible('#new-game-link'), 'Home and New game');
  eq(await late.title(), 'Invitation cancelled · icebound', 'the window title');
}

async function usedInvitationTypedMovesTakeback(browser) {
  const { a, b, id, invite } = await friendGame(browser);
  // The used invitation: the game is under way, and can be watched.
  const late = await newPage(browser);
  await late.goto(`${base}${invite}`);
  await late.waitForSelector('#dead-end');
  eq(await late.textContent('#dead-end h1'), 'Invitation already used', 'a used invitation says so (was "The game changed meanwhile")');
  eq(await late.textContent('#dead-end p'), 'This invitation was already used: the game is under way. You can watch it.', 'what happened, in words');
  await screenshot(late, 'invitation-used');
  await late.click('#watch-link');
  await late.waitForSelector('.game .cg-wrap cg-board piece');
  check((await statusText(late)).includes('You are watching'), 'Watch opens the game as a watcher');
  check(late.url().endsWith(`/game/${id}`), 'of that game');
  // "Your friend joined" goes with the first move.
  await a.waitForSelector('#notice:not([hidden])');
  await a.fill('#move-input', 'c3-e5');
  await a.press('#move-input', 'Enter');
  await a.waitForSelector('#kbd-says:not([hidden])');
  const why = await a.textContent('#kbd-says');
  eq(why, '“c3-e5” cannot be played: there is nothing to jump on d4.', 'an illegal typed move says why');
  eq(await a.inputValue('#move-input'), 'c3-e5', 'and stays in the box (it was emptied)');
  await a.fill('#move-input', 'c3-d4');
  await a.press('#move-input', 'Enter');
  await waitForMoves(a, 1);
  eq(await a.inputValue('#move-input'), '', 'a played move leaves the box');
  check(!(await a.isVisible('#kbd-says')), 'with nothing to say');
  check(!(await noticeShown(a)), '"Your friend joined" goes with the first move');
  eq(await a.textContent('#takeback'), 'Ask to take back your last move', 'one move would go');
  // Out of turn: said, and the text stays.
  await a.fill('#move-input', 'e3-f4');
  await a.press('#move-input', 'Enter');
  await a.waitForSelector('#kbd-says:not([hidden])');
  eq(await a.textContent('#kbd-says'), 'Not your turn yet: the move was not sent', 'a typed move out of turn is answered (was silence)');
  eq(await a.inputValue('#move-input'), 'e3-f4', 'the text stays');
  await waitForMoves(b, 1);
  await clickSquare(b, 'b6');
  await clickSquare(b, 'a5');
  await waitForMoves(a, 2);
  eq(await a.textContent('#takeback'), 'Ask to take back your move and the reply to it', 'two moves would go');
  await a.click('#takeback');
  await b.waitForSelector('#takeback-offer');
  eq((await b.textContent('#takeback-offer span')).trim(), 'Your opponent asks to take back their move and your reply', 'the friend is told both go (was "their last move")');
  await b.click('#takeback-offer-decline');
  await a.waitForSelector('#notice[data-code=takeback_declined]:not([hidden])');
  await clickSquare(a, 'e3');
  await clickSquare(a, 'f4');
  await waitForMoves(a, 3);
  check(!(await noticeShown(a)), '"Black declined the takeback" goes with the next move');
}

// 7. A game or invitation that does not exist: a page of its own, with a title and ways on.
async function notFoundPages(browser) {
  const page = await newPage(browser);
  await page.goto(`${base}/game/nosuchgame`);
  await page.waitForSelector('#dead-end');
  eq(await page.textContent('#dead-end h1'), 'Game not found', 'a bad game id says so');
  eq(await page.title(), 'Game not found · icebound', 'with a title (was "Loading…")');
  eq(await page.getAttribute('#home-link', 'href'), '/', 'Home');
  eq(await page.getAttribute('#new-game-link', 'href'), '/', 'New game');
  await page.goto(`${base}/join/nosuchinvitation`);
  await page.waitForSelector('#dead-end');
  eq(await page.textContent('#dead-end h1'), 'Invitation not found', 'a bad invitation says so');
  eq(await page.title(), 'Invitation not found · icebound', 'with a title');
  await page.click('#new-game-link');
  await page.waitForSelector('#new-game');
}

// 8. The move list follows the live game to its last move and, at the end, the result.
async function moveListFollowsTheEnd(browser) {
  const page = await newPage(browser);
  await page.goto(`${base}/`);
  const g = (await api(page, 'POST', '/api/games', { variant: 'iceage', opponent: 'local' })).json;
  const shuffle = ['g1f3', 'g8f6', 'f3g1', 'f6g8'];
  for (let ply = 0; ply < 28; ply++) {
    eq((await api(page, 'POST', `/api/games/${g.id}/moves`, { move: shuffle[ply % 4], ply })).status, 200, `ply ${ply + 1}`);
  }
  await openGame(page, g.id);
  const inView = sel => page.$eval('#moves', (list, s) => {
    const el = list.querySelector(s);
    const l = list.getBoundingClientRect();
    const e = el.getBoundingClientRect();
    return list.scrollHeight > list.clientHeight && e.top >= l.top - 1 && e.bottom <= l.bottom + 1;
  }, sel);
  check(await inView('button.move[data-ply="28"]'), 'the list is scrolled to the newest move');
  await page.click('#resign');
  await page.click('#resign-yes');
  await waitForStatus(page, 'finished');
  check(await inView('.move-result'), 'the list is scrolled to the result at the end (it stopped at the last move)');
}

// 12. A decision badge leads to its ruling.
async function badgesLeadToRulings(browser) {
  const page = await newPage(browser);
  await page.goto(`${base}/rules/antarctos`);
  await page.waitForSelector('#example-1 cg-board piece');
  const badge = page.locator('a.decision', { hasText: /^A10$/ }).first();
  eq(await badge.getAttribute('href'), '#a10', 'the badge links to the ruling');
  check(!(await page.isVisible('#a10')), 'the rulings are folded at first');
  await badge.click();
  await page.waitForSelector('#a10', { state: 'visible' });
  const ruling = await page.$eval('#a10', dt => [dt.closest('details').open, dt.nextElementSibling.textContent]);
  check(ruling[0] && ruling[1].startsWith('Continuation'), `A10's ruling unfolds and shows, got ${JSON.stringify(ruling)}`);
  const shown = await page.$eval('#a10', dt => { const r = dt.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; });
  check(shown, 'scrolled into view');
  const ids = await page.$$eval('.rulings dt', ds => ds.map(d => d.textContent));
  for (const n of Array.from({ length: 19 }, (_, i) => `A${i + 1}`)) check(ids.includes(n), `the ruling ${n} is listed`);
  const badges = await page.$$eval('a.decision', as => as.map(a => a.getAttribute('href').slice(1)));
  const missing = await page.evaluate(hs => hs.filter(h => !document.getElementById(h)), badges);
  eq(missing, [], 'every badge leads to a ruling');
  await page.goto(`${base}/rules/iceage#c6`);
  await page.waitForSelector('#c6', { state: 'visible' });
  check((await page.$eval('#c6', dt => dt.nextElementSibling.textContent)).includes('Ice Age'), 'a link to #c6 opens its ruling');
}

// 4, 13. The phone: My games fits 360 px; no light strip; 44 px choices; capitalised status.
async function phone(browser) {
  const page = await newPage(browser, { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
  await page.goto(`${base}/`);
  for (const opponent of /** @type {const} */ (['engine', 'local', 'friend'])) {
    eq((await api(page, 'POST', '/api/games', { variant: 'antarctos', opponent, color: 'white', ...(opponent === 'engine' ? { level: 1 } : {}) })).status, 201, `a ${opponent} game`);
  }
  await page.goto(`${base}/my`);
  await page.waitForSelector('#my-games tr[data-id]');
  const widths = await page.evaluate(() => [document.documentElement.scrollWidth, document.querySelector('#my-games').getBoundingClientRect().right]);
  check(widths[0] <= 360 && widths[1] <= 360, `My games fits 360 px (was 469 px wide), got ${widths}`);
  await screenshot(page, 'phone-my-games');
  await page.goto(`${base}/`);
  await page.waitForSelector('#new-game');
  const small = await page.$$eval('input[type=radio]', rs => rs.filter(r => r.offsetParent).flatMap(r => {
    const label = r.closest('label').getBoundingClientRect();
    const box = r.getBoundingClientRect();
    return label.height >= 44 && box.width >= 22 ? [] : [`${r.name}=${r.value}: ${Math.round(box.width)} px in ${Math.round(label.height)} px`];
  }));
  eq(small, [], 'every choice is a 44 px tap target with a visible radio of 22 px or more');
  await page.setViewportSize({ width: 390, height: 844 });
  const game = (await api(page, 'POST', '/api/games', { variant: 'antarctos', opponent: 'local' })).json;
  await openGame(page, game.id);
  const look = await page.evaluate(() => {
    window.scrollTo(0, document.body.scrollHeight);
    return {
      html: getComputedStyle(document.documentElement).backgroundColor,
      overflow: document.documentElement.scrollWidth - innerWidth,
    };
  });
  eq(look.html, 'rgb(10, 16, 23)', 'the page\'s root has the dark theme\'s colour: no light strip below or beside');
  check(look.overflow <= 0, `nothing runs off the side, got ${look.overflow} px`);
  const status = await statusText(page);
  check(/^\p{Lu}/u.test(status), `the status starts with a capital, got "${status}"`);
  await screenshot(page, 'phone-antarctos-game');
}

await suite([
  ['statistics: one decimal, no command, the seed heading', statisticsRounding],
  ['notices, takeback words and double clicks against the computer', noticesTakebackDoubleClicks],
  ['a waiting game: the watcher, the cancel, the cancelled invitation', waitingWatcherAndCancel],
  ['a used invitation, typed moves, the takeback between friends', usedInvitationTypedMovesTakeback],
  ['pages for a game or invitation that does not exist', notFoundPages],
  ['the move list follows the game to its result', moveListFollowsTheEnd],
  ['decision badges lead to their rulings', badgesLeadToRulings],
  ['the phone', phone],
]);
