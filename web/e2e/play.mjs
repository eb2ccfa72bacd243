// End-to-end test of the page in headless Chromium (Debian's /usr/bin/chromium driven by
// playwright-core; no browser is ever downloaded). Run by crates/cli/tests/browser.rs, which starts
// the real server; by hand:
//   node web/e2e/play.mjs --url http://127.0.0.1:8080 [--out DIR] [--publish]
// --publish copies a few screenshots into docs/screenshots/ (helpers: lib.mjs).
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

import {
  antarctosBoard, antarctosSets, api, base, check, chessBoard, chessSquares, clickSquare, dragPiece, eq,
  gameId, loadExamples, moveTexts, newPage, screenshot, sortObj, startFromHome, statusText, suite, waitForMoves,
  waitForStatus,
} from './lib.mjs';

// ---------- the scenarios ----------

async function antarctosLocal(page) {
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
  await screenshot(page, 'antarctos-hop', 'antarctos-hop.png');
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
  await waitForStatus(page, 'finished');
  const status = await statusText(page);
  const over = await page.textContent('#game-over');
  check(/White wins/.test(status) && /breakthrough/i.test(over), `result in words, got "${status}" / "${over}"`);
  const game = (await api(page, 'GET', `/api/games/${id}`)).json;
  eq(game.result?.result, '1-0', 'server result');
  await screenshot(page, 'antarctos-won', 'antarctos-won.png');

  // The record download link and the rematch button are there.
  const href = await page.getAttribute('#download', 'href');
  const record = await api(page, 'GET', href);
  check(record.status === 200 && String(record.json).includes('d6xb4xd2xf4'), 'the PDN record holds the jump sequence');
  check(await page.isVisible('#rematch'), 'rematch is offered after the game');
  return id;
}

async function iceAgeLocal(page, examples) {
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
  check(/Ice Age after Black's move 20/.test(event), `the Ice Age is an event in the move list, got "${event}"`);
  check(await page.isVisible('#ice-panel'), 'the Ice Age is announced beside the board');
  const account = await page.textContent('#ice-panel');
  check(/Frozen: black rook on h8/.test(account), `the Ice Age's account names the frozen rook, got "${account}"`);
  const after = ex.steps[0].fen;
  eq(sortObj(await chessBoard(page)), sortObj(chessSquares(after)), 'board after the Ice Age (h8 frozen; f1, f6, e7 empty)');
  const view = (await api(page, 'GET', `/api/games/${id}`)).json;
  eq(view.fen, after, 'server position after the Ice Age equals the rules page\'s');
  await screenshot(page, 'iceage-after-ice-age', 'iceage-after-ice-age.png');

  // 21. Bxe4 by dragging the bishop onto the ice on e4.
  await dragPiece(page, 'd3', 'e4');
  await waitForMoves(page, 2);
  eq(await moveTexts(page), ['Nh5', 'Bxe4'], 'move list after 21. Bxe4 (drag)');
  const board = await chessBoard(page);
  eq([board.e4, board.d3 ?? null], ['B', null], 'the bishop stands on e4');

  // A draw offer (for the side to move, White), accepted for Black.
  await page.click('#offer-draw');
  await page.waitForSelector('#draw-offer-accept');
  await page.click('#draw-offer-accept');
  await waitForStatus(page, 'finished');
  const status = await statusText(page);
  const over = await page.textContent('#game-over');
  check(/Draw/.test(status) && /agreed to a draw/.test(over), `draw by agreement in words, got "${status}" / "${over}"`);
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
  await page.click('#resign');
  await page.click('#resign-yes');
  await waitForStatus(page, 'finished');
  const status = await statusText(page);
  const over = await page.textContent('#game-over');
  check(/You lost/.test(status) && /White resigned/.test(over), `resignation in words, got "${status}" / "${over}"`);
}

async function friendGame(browser, page) {
  await startFromHome(page, { variant: 'iceage', opponent: 'friend', color: 'white' });
  const url = await page.inputValue('#invite-url');
  check(url.startsWith(base) && url.includes('/join/'), `invitation link shown, got "${url}"`);
  const friend = await newPage(browser);
  const friendContext = friend.context();
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
  await stray.waitForSelector('#dead-end p', { timeout: 10000 });
  const strayText = await stray.textContent('#dead-end p');
  check(strayText === 'This invitation link does not lead to any game.', `a bad invitation link explained, got "${strayText}"`);
  await friendContext.close();
}

async function otherPages(page) {
  // A newcomer is told what the site is, at the top of the home page.
  await page.goto(`${base}/`);
  await page.waitForSelector('#intro');
  check(await page.isVisible('#intro'), 'the home page has an intro line');
  eq(await page.textContent('#intro'), 'Play Antarctos and Ice Age Chess — checkers and chess with ice — against people or the engine, and study your games.', 'the intro says what the site is');
  const introTop = await page.$eval('#intro', e => e.getBoundingClientRect().top);
  check(introTop < 200, `the intro is near the top of the page (${introTop} px)`);

  await page.goto(`${base}/my`);
  await page.waitForSelector('#my-games');
  const rows = await page.$$eval('#my-games tbody tr', trs => trs.map(tr => tr.className));
  check(rows.length >= 5, `my games lists this browser's games, got ${rows.length}`);
  const firstFinished = rows.indexOf('finished');
  check(firstFinished === -1 || rows.slice(firstFinished).every(c => c === 'finished'), 'unfinished games come first');
  check(await page.isVisible('text=Return to game'), '"Return to game" is offered');
  await screenshot(page, 'my-games', 'my-games.png');

  await page.goto(`${base}/stats`);
  await page.waitForSelector('#stats');
  const antarctos = await page.textContent('#stats [data-variant=antarctos]');
  check(/White\s*\d+\s*\(\d+\.\d %\)/.test(antarctos), `Antarctos statistics with percentages, got "${antarctos}"`);
  const iceage = await page.textContent('#stats [data-variant=iceage]');
  check(/Draw\s*[1-9]\d*\s*\(/.test(iceage), `Ice Age Chess statistics count the drawn game, got "${iceage}"`);
  // The engine's runs stored before the server started (crates/cli/tests/browser.rs): a 4-game
  // self-play run and a 2-game match of Antarctos; none of Ice Age Chess.
  const selfplayRows = await page.$$eval('#stats [data-variant=antarctos] .lab-selfplay tbody tr',
    trs => trs.map(tr => [...tr.querySelectorAll('td')].map(td => td.textContent.trim())));
  check(selfplayRows.length === 1, `one Antarctos self-play run shown, got ${JSON.stringify(selfplayRows)}`);
  const [setting, games, whiteWins, blackWins, draws, score] = selfplayRows[0];
  eq([setting, games], ['level=1', '4'], 'self-play run setting and games');
  const counted = [whiteWins, blackWins, draws].map(text => {
    check(/^\d+ \(\d+\.\d %\)$/.test(text), `self-play count with a percentage to one decimal, got "${text}"`);
    return Number(text.split(' ')[0]);
  });
  check(counted[0] + counted[1] + counted[2] === 4, `self-play results add up to 4 games, got ${counted}`);
  check(/^\d\.\d{3} \(\d\.\d{3}–\d\.\d{3}\)$/.test(score), `White's score with its interval, got "${score}"`);
  const matchRow = await page.textContent('#stats [data-variant=antarctos] .lab-matches tbody tr');
  check(/level=1\s*vs\s*level=2/.test(matchRow), `the match A vs B is shown, got "${matchRow}"`);
  const icePlay = await page.textContent('#stats [data-variant=iceage] .lab-selfplay');
  check(icePlay.includes('No engine self-play runs are stored yet.'), `no Ice Age Chess runs: the page says so, got "${icePlay}"`);
  check(!/cargo|--database/.test(icePlay), `no command for players on the statistics page (README.md keeps it), got "${icePlay}"`);
  await screenshot(page, 'statistics', 'statistics.png');
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
  await screenshot(page, 'rules-example', 'rules-example.png');
}

/** Every worked example of the rules page, played by the server's rules through the API: each
 * step's position must be the server's. */
async function examplesAgree(page, examples) {
  for (const ex of examples) {
    const created = await api(page, 'POST', '/api/games', { variant: ex.variant, opponent: 'local', color: 'white', fen: ex.fen });
    check(created.status === 201, `example "${ex.title.en}" starts (${created.status} ${JSON.stringify(created.json)})`);
    let g = created.json;
    for (const step of ex.steps) {
      const r = await api(page, 'POST', `/api/games/${g.id}/moves`, { move: step.move, ply: g.ply });
      check(r.status === 200, `example "${ex.title.en}": ${step.move} accepted (${r.status} ${JSON.stringify(r.json)})`);
      g = r.json;
      const last = g.moves[g.moves.length - 1];
      eq(last.path, step.path, `example "${ex.title.en}": path of ${step.move}`);
      if (ex.variant === 'antarctos') eq(antarctosSets(g.fen), antarctosSets(step.fen), `example "${ex.title.en}": position after ${step.move}`);
      else eq(g.fen, step.fen, `example "${ex.title.en}": position after ${step.move}`);
    }
    check(g.status === 'finished' || ex.variant === 'iceage', `example "${ex.title.en}" ends the game`);
  }
}

// A phone-sized window: the move list sits below the board; a new move scrolls the list
// (to its last move), never the page, so the board stays where the player left it.
async function phoneGamePage(browser) {
  const page = await newPage(browser, { viewport: { width: 390, height: 844 } });
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
  await screenshot(page, 'phone-game', 'phone-game.png');
}

const examples = await loadExamples();
// One browser context (one player) for the desktop scenarios: "my games" lists all their games.
let page;
await suite([
  ['the rules page\'s examples against the server', async browser => {
    page = await newPage(browser);
    await examplesAgree(page, examples);
  }],
  ['Antarctos, same screen, from the seed\'s example 2', () => antarctosLocal(page)],
  ['Ice Age Chess, same screen, Black\'s 20th move brings the Ice Age', () => iceAgeLocal(page, examples)],
  ['Antarctos against the engine, level 1', () => engineGame(page)],
  ['Ice Age Chess with a friend through the invitation link', browser => friendGame(browser, page)],
  ['my games, statistics, rules', () => otherPages(page)],
  ['phone: the move list scrolls, not the page', phoneGamePage],
]);
