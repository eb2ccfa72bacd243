// The puzzle trainer (issue 39), on a desktop and on a phone: a new account opens
// /training/antarctos, solves the puzzle shown by playing the solution's moves on the board
// (read from the API, entered square by square as a player taps them), sees "Solved!" and its
// rating go up; fails the next one with a wrong legal move, sees the solution offered (and
// played out) and its rating go down; the dashboard lists both attempts. An Ice Age Chess
// puzzle is solved once; an anonymous player keeps a rating for the session and is rated once
// per puzzle; a streak ends at the first mistake; the home page shows the daily puzzle, which
// opens on /training/<game>/daily. What a new player found (themes told before the move, a
// puzzle under the other game's address, the guest's "Log in" twice, the verdict below a
// phone's screen, the dashboard on a phone, "Analyse" from White's side, a self-play source, a
// streak capped at its first batch, Back and Forward) is checked too.

import { api, base, check, eq, newPage, registered, screenshot, squareCenter, suite } from './lib.mjs';

const stamp = Date.now() % 1000000;
const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const BOARD = '#puzzle .cg-wrap';

/** A new account, logged in in a new browser context. */

/** The legal moves of a position, from the rules (`POST /api/positions`). */
async function legal(page, variant, fen) {
  const r = await api(page, 'POST', '/api/positions', { variant, fen });
  eq(r.status, 200, `the position ${fen} is read`);
  return r.json.legal;
}

/** Waits for the trainer to show a puzzle, the solver to move; answers its id. */
async function shownPuzzle(page, not = null) {
  await page.waitForFunction(prev => {
    const el = /** @type {HTMLElement | null} */ (document.querySelector('#puzzle'));
    return el?.dataset.phase === 'play' && el.dataset.ply === '0' && el.dataset.id && el.dataset.id !== prev;
  }, not, { timeout: 20000 });
  await page.waitForSelector(`${BOARD} cg-board piece`);
  await page.waitForTimeout(300);
  return page.$eval('#puzzle', el => /** @type {HTMLElement} */ (el).dataset.id);
}

/** Enters `move` (a legal move with its squares) on the board, square by square. */
async function enter(page, move) {
  await page.locator(BOARD).scrollIntoViewIfNeeded();
  for (const sq of move.path) {
    const { x, y } = await squareCenter(page, sq, BOARD);
    await page.mouse.click(x, y);
    await page.waitForTimeout(150);
  }
  // A promotion asks for the piece.
  if (await page.isVisible('.promotion')) await page.click(`.promotion button[data-move="${move.id}"]`);
}

/** Waits until `ply` plies are played and the solver is to move (or the attempt ended). */
async function waitPly(page, ply) {
  await page.waitForFunction(n => {
    const el = /** @type {HTMLElement | null} */ (document.querySelector('#puzzle'));
    return el && Number(el.dataset.ply) === n && ['play', 'solved', 'failed'].includes(el.dataset.phase ?? '');
  }, ply, { timeout: 15000 });
}

/** Solves the puzzle shown: each of the solver's moves of the solution, through the board. */
async function solve(page, variant, id) {
  const p = (await api(page, 'GET', `/api/puzzles/${id}`)).json;
  eq(p.variant, variant, 'the puzzle is of the game asked for');
  // A line ends with the solver's move, or with the defence's when an Ice Age after it decides.
  check(p.solution.length >= 1 && Math.ceil(p.solution.length / 2) === p.length, `the solution has the puzzle's length (${p.solution.join(' ')})`);
  let fen = p.fen;
  for (let ply = 0; ply < p.solution.length; ply++) {
    const moves = await legal(page, variant, fen);
    const move = moves.find(m => m.text === p.solution[ply]);
    check(move, `the solution's move ${p.solution[ply]} is legal in ${fen}`);
    if (ply % 2 === 0) {
      await waitPly(page, ply);
      await enter(page, move);
    }
    fen = move.fen;
  }
  await page.waitForSelector('#puzzle[data-phase="solved"]', { timeout: 15000 });
  check((await page.textContent('#puzzle-status')).includes('Solved'), 'the trainer says "Solved!"');
  return p;
}

/** Plays a legal move that is not the solution's first one; answers its text. */
async function fail(page, variant, id) {
  const p = (await api(page, 'GET', `/api/puzzles/${id}`)).json;
  const wrong = (await legal(page, variant, p.fen)).find(m => m.text !== p.solution[0]);
  check(wrong, 'the puzzle\'s first move is not the only legal one');
  await enter(page, wrong);
  await page.waitForSelector('#puzzle[data-phase="failed"]', { timeout: 15000 });
  return { p, wrong: wrong.text };
}

/** The rating change shown after a rated attempt (a number), after a check that it is shown. */
async function shownChange(page) {
  await page.waitForSelector('#puzzle-rating-diff', { timeout: 10000 });
  const text = (await page.textContent('#puzzle-rating-diff')).trim();
  const diff = Number(await page.$eval('#puzzle-rating-diff', el => /** @type {HTMLElement} */ (el).dataset.diff));
  check(/^[+−]\d+$/.test(text), `the change reads as "+12" or "−9", got "${text}"`);
  return diff;
}

/** Whether the element is whole within the window (no scroll needed to see it). */
async function inView(page, selector) {
  return page.$eval(selector, el => {
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0;
  });
}

/** The spoilers are hidden while the puzzle is played: its themes, and whether the game's
 * player found the win (which says the game's move was the answer). */
async function noSpoilers(page) {
  eq(await page.locator('#puzzle-themes').count(), 0, 'the themes are hidden before the attempt');
  const about = await page.textContent('#puzzle-about');
  check(!/found the win|missed the win/.test(about), `whether the game's player found the win is hidden before the attempt ("${about}")`);
}

/** The page is no wider than the phone's screen. */
async function fits(page, what) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  check(width <= 390, `${what} fits a phone (${width} px)`);
  const board = await page.locator(`${BOARD} cg-board`).boundingBox();
  check(board.width >= 340, `the board fills the phone's width (${Math.round(board.width)} px)`);
}

async function trainer(page, where) {
  await page.goto(`${base}/`);
  await page.waitForSelector('header nav a[href="/training"]', { state: 'attached' });
  // A phone keeps the links behind the menu button (issue 41's phone menu).
  if (await page.isVisible('#menu-toggle')) await page.click('#menu-toggle');
  await page.click('header nav a[href="/training"]');
  await page.waitForFunction(() => location.pathname.startsWith('/training'));
  await page.goto(`${base}/training/antarctos`);
  const first = await shownPuzzle(page);
  const orientation = await page.$eval(BOARD, w => (w.classList.contains('orientation-white') ? 'white' : 'black'));
  const p1 = (await api(page, 'GET', `/api/puzzles/${first}`)).json;
  eq(orientation, p1.fen.startsWith('B') ? 'black' : 'white', 'the board is turned to the solver');
  const turn = await page.textContent('#puzzle-status');
  check(/Your turn: find the best move for (White|Black)/.test(turn), `the trainer says whose turn ("${turn.trim()}")`);
  check(!(await page.textContent('#puzzle-rating')).match(/\d/), 'the puzzle\'s rating is hidden before the attempt');
  await noSpoilers(page);
  if (where === 'phone') await fits(page, 'the trainer');
  await screenshot(page, `puzzle-${where}`, where === 'phone' ? 'puzzle-phone.png' : 'puzzle.png');

  // Solved: the rating goes up.
  await solve(page, 'antarctos', first);
  const up = await shownChange(page);
  check(up > 0, `a solved rated puzzle raises the rating (${up})`);
  check(/\d/.test(await page.textContent('#puzzle-rating')), 'the puzzle\'s rating is shown after the attempt');
  if (p1.themes.length) {
    const themes = await page.$$eval('#puzzle-themes li', lis => lis.map(li => /** @type {HTMLElement} */ (li).dataset.theme));
    eq(themes, p1.themes, 'the themes are shown once the puzzle is solved');
  }
  // On a phone the panel is below the board: the verdict and "Next" are brought into sight.
  if (where === 'phone') {
    await page.waitForTimeout(300);
    check(await inView(page, '#puzzle-status') && await inView(page, '#puzzle-next'), 'a phone sees "Solved!" and "Next puzzle" without scrolling');
  }
  await screenshot(page, `puzzle-solved-${where}`);

  // Failed: the solution is offered, and the rating goes down.
  await page.click('#puzzle-next');
  const second = await shownPuzzle(page, first);
  check(second !== first, 'the next puzzle is another one');
  const { p: p2, wrong } = await fail(page, 'antarctos', second);
  check((await page.textContent('#puzzle-status')).includes(`You played ${wrong}`), 'the wrong move is named');
  const down = await shownChange(page);
  check(down < 0, `a failed rated puzzle lowers the rating (${down})`);
  if (where === 'phone') {
    check(await inView(page, '#puzzle-status') && await inView(page, '#puzzle-next'), 'a phone sees "Puzzle failed" and "Next puzzle" without scrolling');
  }
  await page.waitForSelector('#puzzle-solution:not([disabled])');
  check(await page.isVisible('#puzzle-analyse'), 'the analysis board is offered');
  const href = await page.getAttribute('#puzzle-analyse', 'href');
  const side = p2.fen.startsWith('B') ? '&orientation=black' : '';
  eq(href, `/analysis/antarctos?fen=${encodeURIComponent(p2.fen)}${side}`, 'analyse opens the puzzle\'s position, from the solver\'s side');
  await page.click('#puzzle-solution');
  await page.waitForFunction(n => /** @type {HTMLElement} */ (document.querySelector('#puzzle')).dataset.shown === String(n), p2.solution.length, { timeout: 20000 });
  eq(await page.$$eval('#puzzle-moves button.move', bs => bs.length), p2.solution.length, 'the solution\'s moves are listed');
  await screenshot(page, `puzzle-failed-${where}`);
  if (where === 'phone') await fits(page, 'the failed puzzle');
  await page.click('#nav-first');
  await page.waitForSelector('#puzzle[data-shown="0"]');

  // The dashboard lists both attempts, the failed one first.
  await page.goto(`${base}/training/dashboard`);
  await page.waitForSelector('#puzzle-recent');
  const rows = await page.$$eval('#puzzle-recent tbody tr', trs => trs.map(tr => [/** @type {HTMLElement} */ (tr).dataset.id, tr.className]));
  eq(rows.slice(0, 2), [[second, 'failed'], [first, 'solved']], 'the dashboard lists both attempts, newest first');
  check(await page.isVisible('.rating-card[data-variant="antarctos"] .rating-value'), 'the dashboard shows the Antarctos puzzle rating');
  // The oldest attempt, the account's first: its change from the start (1500) is known.
  const firstDiff = await page.$eval(`#puzzle-recent tr[data-id="${first}"] .rating-diff`, el => Number(/** @type {HTMLElement} */ (el).dataset.diff)).catch(() => null);
  eq(firstDiff, up, 'the first attempt shows its rating change too');
  const dash = (await api(page, 'GET', '/api/puzzles/dashboard')).json;
  if (dash.ratings.antarctos.provisional) {
    eq(await page.getAttribute('.rating-card[data-variant="antarctos"] abbr.provisional', 'title'), 'Provisional: too few rated puzzles to be sure of it yet.', 'a provisional rating\'s "?" says what it means');
    check((await page.textContent('#provisional-legend')).includes('Provisional'), 'and a legend below the ratings says it too');
  }
  if (where === 'phone') {
    // Each attempt a card: the ratings, the themes and "Open" within the screen.
    for (const table of ['#puzzle-recent', '#puzzle-missed']) {
      if (!(await page.$(table))) continue;
      const wide = await page.$eval(table, el => [el.scrollWidth, /** @type {HTMLElement} */ (el.parentElement).clientWidth]);
      check(wide[0] <= wide[1], `${table} fits the phone (${wide[0]} px in ${wide[1]} px)`);
    }
    for (const sel of [`tr[data-id="${first}"] td.open a`, `tr[data-id="${first}"] td.theirs`, `tr[data-id="${first}"] td.mine`]) {
      const box = await page.locator(`#puzzle-recent ${sel}`).boundingBox();
      check(box && box.x >= 0 && box.x + box.width <= 390, `${sel} is within the phone's width (${box && Math.round(box.x + box.width)} px)`);
    }
  }
  // The themes missed: those of the failed puzzle (a seed's worked example may have none).
  const missed = await page.$$eval('#puzzle-missed tbody tr', trs => trs.map(tr => /** @type {HTMLElement} */ (tr).dataset.theme));
  for (const theme of p2.themes) check(missed.includes(theme), `the theme missed ${theme} is listed (${missed.join(', ')})`);
  await screenshot(page, `puzzle-dashboard-${where}`);
  await page.click(`#puzzle-recent tr[data-id="${first}"] a.button`);
  eq(await shownPuzzle(page), first, 'a dashboard line leads to its puzzle');
  if (where === 'phone') await fits(page, 'the dashboard');
}

/** The desktop player, who goes on to Ice Age Chess. */
let desktop;

async function desktopTrainer(browser) {
  desktop = await registered(browser, `puz_${stamp}`);
  await trainer(desktop, 'desktop');
}

async function phoneTrainer(browser) {
  await trainer(await registered(browser, `puzp_${stamp}`, phone), 'phone');
}

async function iceAge() {
  const page = desktop;
  const total = (await api(page, 'GET', '/api/puzzles/themes?variant=iceage')).json.total;
  check(total > 0, `a fresh site has Ice Age Chess puzzles (testdata/puzzles/iceage.csv): ${total}`);
  await page.goto(`${base}/training/iceage`);
  const id = await shownPuzzle(page);
  await solve(page, 'iceage', id);
  check((await shownChange(page)) > 0, 'the Ice Age Chess rating goes up');
  await screenshot(page, 'puzzle-iceage');
}

async function anonymous(browser) {
  const page = await newPage(browser);
  await page.goto(`${base}/training/antarctos`);
  const id = await shownPuzzle(page);
  check((await page.textContent('#my-puzzle-rating')).includes('1500'), 'a new player starts at 1500');
  // A guest's rating lasts the visit: the note says so, "Log in" once, as a link.
  eq((await page.textContent('#puzzle-login-note')).trim(), 'Log in to keep a puzzle rating and history from now on.', 'the guest\'s note promises nothing untrue');
  check((await page.getAttribute('#puzzle-login', 'href'))?.startsWith('/login?next=%2Ftraining'), 'its "Log in" is a link that comes back');
  await solve(page, 'antarctos', id);
  const up = await shownChange(page);
  check(up > 0, `the session rating goes up (${up})`);
  const kept = await page.evaluate(() => sessionStorage.getItem('icebound.puzzles.rating.antarctos'));
  check(kept && JSON.parse(kept).rating > 1500, `the session rating is kept in the tab (${kept})`);
  // The same puzzle again: not rated a second time.
  await page.goto(`${base}/training/antarctos/${id}`);
  await shownPuzzle(page);
  await solve(page, 'antarctos', id);
  await page.waitForSelector('#puzzle-unrated');
  eq(await page.locator('#puzzle-rating-diff').count(), 0, 'a second attempt changes nothing');
  // The next puzzle is not the one done.
  await page.click('#puzzle-next');
  const next = await shownPuzzle(page, id);
  check(next !== id, 'a puzzle done this session is not offered again');
  // Back shows the previous puzzle afresh, Forward the next one: never a broken page.
  await page.goBack();
  eq(await shownPuzzle(page, next), id, 'Back shows the previous puzzle');
  eq(new URL(page.url()).pathname, `/training/antarctos/${id}`, 'at its address');
  await page.goForward();
  eq(await shownPuzzle(page, id), next, 'Forward shows the next one again');
  check(!(await page.isVisible('#puzzle-message')), 'with no error');
}

/** A mined puzzle (Black to move, from a self-play game whose player found the win):
 * nothing tells the answer before the move; after it, the themes, whether the game's player
 * found it, and "Analyse" from Black's side. */
const SELFPLAY = '2fceefa4d36dfac6';

async function spoilers(browser) {
  const page = await newPage(browser);
  const p = (await api(page, 'GET', `/api/puzzles/${SELFPLAY}`)).json;
  check(p.source?.game.startsWith('selfplay:') && p.source.seen === 'found' && p.fen.startsWith('B'), `the puzzle is a self-play one, Black to move (${JSON.stringify(p.source)})`);
  await page.goto(`${base}/training/antarctos/${SELFPLAY}`);
  await shownPuzzle(page);
  await noSpoilers(page);
  eq((await page.textContent('#puzzle-source')).trim(), `From a game the engine played against itself, move ${Math.floor(p.source.ply / 2) + 1}`, 'a self-play source says so');
  await fail(page, 'antarctos', SELFPLAY);
  await page.waitForSelector('#puzzle-themes');
  eq(await page.$$eval('#puzzle-themes li', lis => lis.map(li => /** @type {HTMLElement} */ (li).dataset.theme)), p.themes, 'the themes are shown once the attempt failed');
  check((await page.textContent('#puzzle-source')).includes('The player found the win there.'), 'and whether the game\'s player found the win');
  await page.click('#puzzle-analyse');
  await page.waitForURL(u => u.pathname === '/analysis/antarctos');
  await page.waitForSelector('.cg-wrap cg-board piece');
  check(await page.$eval('.cg-wrap', w => w.classList.contains('orientation-black')), 'the analysis board is seen from Black\'s side, the solver\'s');
  eq(new URL(page.url()).searchParams.get('orientation'), 'black', 'and its address keeps the side');
  eq(new URL(page.url()).searchParams.get('fen'), p.fen, 'at the puzzle\'s position');

  // A puzzle of a public game: "From a game" leads to it (the API's answer given a game).
  await page.route(`**/api/puzzles/${SELFPLAY}`, async route => {
    const r = await route.fetch();
    const body = await r.json();
    await route.fulfill({ response: r, json: { ...body, source: { game: 'k3J9xQ2a', ply: 43, seen: 'missed', url: '/game/k3J9xQ2a' } } });
  });
  await page.goto(`${base}/training/antarctos/${SELFPLAY}`);
  await shownPuzzle(page);
  eq((await page.textContent('#puzzle-source')).trim(), 'From a game: move 22', 'a site\'s game is "From a game"');
  eq(await page.getAttribute('#puzzle-source-link', 'href'), '/game/k3J9xQ2a', '"From a game" links to it');
  eq((await page.textContent('#puzzle-source-link')).trim(), 'From a game', 'the words are the link');
  await page.unroute(`**/api/puzzles/${SELFPLAY}`);
}

/** An Antarctos puzzle under Ice Age Chess's address takes its own game's address; an unknown
 * id is "Puzzle not found" under either. */
async function wrongGame(browser) {
  const page = await newPage(browser);
  await page.goto(`${base}/training/iceage/seed-1`);
  await page.waitForFunction(() => location.pathname === '/training/antarctos/seed-1', null, { timeout: 10000 });
  eq(await shownPuzzle(page), 'seed-1', 'the puzzle is shown at its own game\'s address');
  eq(await page.getAttribute('#puzzle', 'data-variant'), 'antarctos', 'on its own game\'s board');
  check((await page.textContent('#puzzle-status')).includes('find the best move for Black'), 'Black to move, as in the puzzle');
  check(!(await page.isVisible('#puzzle-message')), 'with no error');
  for (const game of ['iceage', 'antarctos']) {
    await page.goto(`${base}/training/${game}/nonexistent`);
    await page.waitForSelector('#puzzle[data-phase="not_found"]');
    check((await page.textContent('#puzzle-status')).includes('Puzzle not found'), `an unknown id under ${game} is "Puzzle not found"`);
  }
}

async function streak(browser) {
  const page = await newPage(browser);
  await page.goto(`${base}/training/antarctos/streak`);
  const first = await shownPuzzle(page);
  await page.waitForSelector('#streak-score');
  await solve(page, 'antarctos', first);
  await page.waitForFunction(() => document.querySelector('#streak-score')?.textContent === 'Score: 1');
  const second = await shownPuzzle(page, first);
  await fail(page, 'antarctos', second);
  await page.waitForSelector('#streak-over');
  eq(await page.textContent('#streak-over'), 'Streak over: 1', 'the streak ends at the first mistake');
  eq(await page.textContent('#streak-best'), 'Best: 1', 'the best streak is kept');
  eq(await page.evaluate(() => localStorage.getItem('icebound.puzzles.streak.antarctos')), '1', 'in the browser');
}

/** A streak whose batch is all solved asks for another, without the puzzles it played: the
 * server's batch cut to its first puzzle, then whole. */
async function streakBatches(browser) {
  const page = await newPage(browser);
  let asked = 0;
  let secondUrl = '';
  await page.route('**/api/puzzles/streak?*', async route => {
    asked++;
    if (asked === 2) secondUrl = route.request().url();
    const r = await route.fetch();
    const body = await r.json();
    await route.fulfill({ response: r, json: asked === 1 ? { puzzles: body.puzzles.slice(0, 1) } : body });
  });
  await page.goto(`${base}/training/antarctos/streak`);
  const first = await shownPuzzle(page);
  await solve(page, 'antarctos', first);
  await page.waitForFunction(() => document.querySelector('#streak-score')?.textContent === 'Score: 1');
  const second = await shownPuzzle(page, first);
  check(second !== first, 'the streak goes on past its batch with a puzzle it has not played');
  eq(asked, 2, 'the next batch was asked for');
  const q = new URL(secondUrl).searchParams;
  eq(q.get('after'), first, 'the next batch climbs from the last puzzle played');
  eq(q.get('exclude'), first, 'and leaves out the puzzles played');
  eq(await page.locator('#streak-over').count(), 0, 'the streak is not over');
  await page.unroute('**/api/puzzles/streak?*');
}

async function daily(browser) {
  const page = await newPage(browser);
  const today = (await api(page, 'GET', '/api/puzzles/daily?variant=antarctos')).json;
  check(today.id && /^\d{4}-\d\d-\d\d$/.test(today.date), `the daily puzzle has a date (${today.date})`);
  await page.goto(`${base}/`);
  const card = '#daily-puzzles .daily-card[data-variant="antarctos"]';
  await page.waitForSelector(`${card} cg-board piece`);
  eq(await page.getAttribute(card, 'data-id'), today.id, 'the home page shows the daily puzzle');
  eq(await page.textContent(`${card} .daily-who`), today.fen.startsWith('B') ? 'Black begins and wins' : 'White begins and wins', 'the card says who begins and wins');
  // Near the top: after the lobby, not below the start form.
  const top = await page.$eval('#daily-puzzles', el => el.getBoundingClientRect().top + window.scrollY);
  check(top < 900, `the daily puzzle is near the top of the home page (${Math.round(top)} px down)`);
  const form = await page.$eval('#start-form', el => el.getBoundingClientRect().top + window.scrollY);
  check(top < form, 'above the start form');
  // On a phone: within the second screen, no longer below the whole start form.
  const small = await newPage(browser, phone);
  await small.goto(`${base}/`);
  await small.waitForSelector(`${card} cg-board piece`);
  const phoneTop = await small.$eval('#daily-puzzles', el => el.getBoundingClientRect().top + window.scrollY);
  check(phoneTop < 2 * 844, `the daily puzzle is near the top of the home page on a phone (${Math.round(phoneTop)} px down)`);
  check(phoneTop < await small.$eval('#start-form', el => el.getBoundingClientRect().top + window.scrollY), 'above the start form there too');
  await small.context().close();
  await page.locator(card).scrollIntoViewIfNeeded();
  await screenshot(page, 'home-daily');
  await page.click(`${card} .daily-solve`);
  await page.waitForFunction(() => location.pathname === '/training/antarctos/daily');
  eq(await shownPuzzle(page), today.id, 'the link opens the daily puzzle');
  eq(await page.getAttribute('#puzzle-title', 'data-date'), today.date, 'the page names its day');
}

await suite([
  ['desktop: solve, fail, the dashboard', desktopTrainer],
  ['phone: solve, fail, the dashboard', phoneTrainer],
  ['an Ice Age Chess puzzle', iceAge],
  ['an anonymous player\'s session rating', anonymous],
  ['a streak', streak],
  ['a streak goes on past its batch', streakBatches],
  ['nothing tells the answer before the move; a self-play source; Analyse from Black\'s side', spoilers],
  ['a puzzle under the other game\'s address', wrongGame],
  ['the daily puzzle on the home page', daily],
]);
