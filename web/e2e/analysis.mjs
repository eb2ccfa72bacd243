// The analysis board (issue 14): moves and variations by clicking, stepping with the keys, the
// tree written as a record with its variations, Solve and the engine's live analysis (seed
// example 1 is a win in 3 plies, and its line plays on the board), a finished game opened on its last
// position from its page, an unfinished game refused, a bad position explained, a record file of
// two games (one bad) imported and stored, and the computer analysis of a short finished game.

import { readFileSync } from 'node:fs';
import {
  api, base, check, clickSquare, eq, newPage, openGame, screenshot, suite,
} from './lib.mjs';

const tree = page => page.$$eval('#tree button.move', bs => bs.map(b => b.textContent.trim()));
const current = page => page.$eval('#tree button.move.current', b => b.textContent.trim()).catch(() => null);
const status = page => page.textContent('#analysis-status').then(s => s.trim());

async function waitTree(page, n) {
  await page.waitForFunction(k => document.querySelectorAll('#tree button.move').length >= k, n, { timeout: 10000 });
  await page.waitForTimeout(200);
}

async function treeAndVariations(browser) {
  const page = await newPage(browser);
  await page.goto(`${base}/analysis/antarctos`);
  await page.waitForSelector('.cg-wrap cg-board piece');
  await page.waitForFunction(() => document.querySelector('#analysis-status')?.textContent.trim());
  eq(await status(page), 'White to move', 'the start, White to move');
  await clickSquare(page, 'c3');
  await clickSquare(page, 'd4');
  await waitTree(page, 1);
  await clickSquare(page, 'f6');
  await clickSquare(page, 'g5');
  await waitTree(page, 2);
  eq(await tree(page), ['1. c3-d4', 'f6-g5'], 'the main line');
  check(page.url().includes('?fen='), 'the address holds the position shown');
  await page.keyboard.press('Home');
  eq(await current(page), null, 'Home: the start');
  await page.keyboard.press('ArrowRight');
  eq(await current(page), '1. c3-d4', '→ steps forward');
  await page.keyboard.press('ArrowLeft');
  // Another first move starts a variation; the main line stays.
  await clickSquare(page, 'e3');
  await clickSquare(page, 'f4');
  await waitTree(page, 3);
  eq(await page.$$eval('#tree .variation', vs => vs.map(v => v.textContent.trim())), ['1. e3-f4'], 'a variation');
  eq(await current(page), '1. e3-f4', 'shown');
  await page.keyboard.press('End');
  eq(await current(page), '1. e3-f4', 'End: the end of this line');
  await page.fill('#comment', 'the quiet way');
  await page.click('#promote');
  eq((await tree(page))[0], '1. e3-f4', 'promoted to the main line');
  eq(await page.$$eval('#tree .variation', vs => vs.map(v => v.textContent.trim())), ['1. c3-d4f6-g5'], 'the old main line is now a variation');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
  const text = readFileSync(await download.path(), 'utf8');
  check(text.includes('[GameType "Antarctos"]') && text.includes('1. e3-f4 {the quiet way} (1. c3-d4 f6-g5) *'), `the record keeps the variation and the note, got ${JSON.stringify(text)}`);
  await page.click('#tree button.move[data-key]');
  await page.click('#delete');
  eq(await tree(page), ['1. c3-d4', 'f6-g5'], 'delete removes the move and what follows');
  // A reload or a language switch keeps the analysis (it was wiped).
  await clickSquare(page, 'e3');
  await clickSquare(page, 'f4');
  await waitTree(page, 3);
  const before = await tree(page);
  await page.reload();
  await waitTree(page, before.length);
  eq(await tree(page), before, 'a reload keeps the tree');
  await page.selectOption('select.lang', 'ru');
  await page.waitForFunction(() => document.querySelector('#analysis-title')?.textContent.startsWith('Доска анализа'));
  await waitTree(page, before.length);
  eq(await tree(page), before, 'so does a language switch');
  await page.selectOption('select.lang', 'en');
  await screenshot(page, 'analysis-tree', 'analysis-antarctos.png');
}

async function engineFindsTheSeedWin(browser) {
  const page = await newPage(browser);
  await page.goto(`${base}/analysis/antarctos?fen=${encodeURIComponent('B:Wa5,d2,d4:Ba7,c7')}`);
  await page.waitForSelector('.cg-wrap cg-board piece');
  // Solve: the exact solver's proof, with the seed's line.
  await page.click('#solve');
  await page.waitForSelector('#solve-words', { timeout: 20000 });
  eq(await page.textContent('#solve-words'), 'Black wins in 3 plies', 'Solve proves the seed\'s win');
  eq(await page.$$eval('#solve-line button.move', bs => bs.map(b => b.textContent.trim())), ['c7-b6', 'a5xc7', 'a7xc5xe3xc1'], 'with its line');
  await page.click('#engine-toggle');
  await page.waitForFunction(() => document.querySelector('#engine-score')?.textContent.includes('Black wins in 3 plies'), null, { timeout: 20000 });
  const pv = await page.$$eval('#engine-pv button.move', bs => bs.map(b => b.textContent.trim()));
  eq(pv, ['c7-b6', 'a5xc7', 'a7xc5xe3xc1'], 'the seed\'s line (antarctos.md, example 1)');
  await screenshot(page, 'analysis-engine', 'analysis-engine.png');
  await page.click('#engine-pv button.move[data-index="2"]');
  await waitTree(page, 3);
  eq(await tree(page), ['1… c7-b6', '2. a5xc7', 'a7xc5xe3xc1'], 'a click on the line plays it to that move');
  await page.waitForFunction(() => document.querySelector('#analysis-status')?.textContent.includes('Black wins'));
  check((await page.textContent('#engine')).includes('nothing to analyse'), 'the finished position is not searched');
  await page.click('#engine-toggle');
  check(!(await page.isVisible('#engine')), 'the engine switches off');
  // Seed examples 2 and 3 (antarctos.md): Solve shows their known lines.
  for (const [fen, line] of /** @type {[string, string[]][]} */ ([
    ['W:Wb4,e3,f2:Bc7,d6:Ic3', ['b4-c5', 'd6xb4xd2xf4', 'f2xd4xb6xd8']],
    ['W:Wb2,c1,h2:Ba3,c5:Ie5,e7,g3', ['h2xf4xd6xb4']],
  ])) {
    await page.goto(`${base}/analysis/antarctos?fen=${encodeURIComponent(fen)}`);
    await page.waitForSelector('.cg-wrap cg-board piece');
    await page.click('#solve');
    await page.waitForSelector('#solve-words', { timeout: 20000 });
    eq(await page.textContent('#solve-words'), `White wins in ${line.length} ${line.length === 1 ? 'ply' : 'plies'}`, `Solve proves ${fen}`);
    eq(await page.$$eval('#solve-line button.move', bs => bs.map(b => b.textContent.trim())), line, 'with the seed\'s line');
  }
  // A bad position is explained and changes nothing.
  await page.fill('#fen-input', 'W:Wz9');
  await page.click('#fen-load');
  await page.waitForFunction(() => document.querySelector('#message')?.textContent);
  check((await page.textContent('#message')).startsWith('That position text cannot be read:'), 'a bad position says so');
  // Ice Age Chess: the countdown.
  await page.goto(`${base}/analysis/iceage`);
  await page.waitForFunction(() => document.querySelector('#ice-countdown')?.textContent.includes('Ice Age'));
  eq(await status(page), 'White to move', 'the side to move');
  eq((await page.textContent('#ice-countdown')).trim(), '❄ Ice Age in 20 Black moves', 'the Ice Age countdown (C5), as on the game page');
}

async function fromAFinishedGame(browser) {
  const page = await newPage(browser);
  await page.goto(`${base}/`);
  const g = (await api(page, 'POST', '/api/games', { variant: 'iceage', opponent: 'local' })).json;
  let ply = 0;
  for (const move of ['hxg3', 'Nxf6', 'Nxh3']) eq((await api(page, 'POST', `/api/games/${g.id}/moves`, { move, ply: ply++ })).status, 200, move);
  // Unfinished: no analysis (the engine would play for whoever asked).
  await page.goto(`${base}/analysis/game/${g.id}`);
  await page.waitForSelector('#dead-end');
  eq(await page.textContent('#dead-end h1'), 'The game goes on', 'an unfinished game is refused');
  eq((await api(page, 'POST', `/api/games/${g.id}/resign`, {})).status, 200, 'resign');
  await openGame(page, g.id);
  await page.click('#analyse');
  await page.waitForURL(u => u.pathname === `/analysis/game/${g.id}`);
  await waitTree(page, 3);
  eq(await tree(page), ['1. hxg3', 'Nxf6', '2. Nxh3'], 'the game\'s moves');
  eq(await current(page), '2. Nxh3', 'opened on its last position');
  eq(await page.textContent('#analysis-about'), 'White wins · Black resigned.', 'with how the game ended');
  eq(await page.getAttribute('#game-link', 'href'), `/game/${g.id}`, 'with a way back to the game');
}

async function boardEditor(browser) {
  const page = await newPage(browser);
  await page.goto(`${base}/editor/antarctos`);
  await page.waitForSelector('.cg-wrap cg-board piece');
  await page.waitForFunction(() => document.querySelector('#editor-verdict')?.textContent);
  eq(await page.textContent('#editor-verdict'), 'A possible position.', 'the start position is possible');
  await page.click('#editor-clear');
  await page.click('button.tool[data-tool=W]');
  await clickSquare(page, 'c3');
  await page.click('button.tool[data-tool=B]');
  await clickSquare(page, 'f6');
  await page.click('button.tool[data-tool="*"]');
  await clickSquare(page, 'd4');
  await page.waitForFunction(() => /** @type {HTMLInputElement | null} */ (document.querySelector('#editor-fen'))?.value === 'W:Wc3:Bf6:Id4');
  await page.waitForFunction(() => document.querySelector('#editor-verdict')?.textContent === 'A possible position.');
  // Black to move, then an impossible position typed in: the rules' words say why.
  await page.click('#editor-turn input[value=black]');
  await page.waitForFunction(() => /** @type {HTMLInputElement | null} */ (document.querySelector('#editor-fen'))?.value.startsWith('B:'));
  await page.fill('#editor-fen', 'W:Wc3:Bc3');
  await page.press('#editor-fen', 'Enter');
  await page.dispatchEvent('#editor-fen', 'change');
  await page.waitForSelector('#editor-why');
  check((await page.textContent('#editor-verdict')).startsWith('Not a possible position:'), `an impossible position is refused, got "${await page.textContent('#editor-verdict')}"`);
  check(await page.getAttribute('#editor-analyse', 'aria-disabled') === 'true', 'and cannot be analysed');
  await page.fill('#editor-fen', 'B:Wa5,d2,d4:Ba7,c7');
  await page.dispatchEvent('#editor-fen', 'change');
  await page.waitForFunction(() => document.querySelector('#editor-verdict')?.textContent === 'A possible position.');
  await screenshot(page, 'editor', 'editor-antarctos.png');
  await page.click('#editor-analyse');
  await page.waitForURL(u => u.pathname === '/analysis/antarctos');
  eq(new URL(page.url()).searchParams.get('fen'), 'B:Wa5,d2,d4:Ba7,c7', 'Analyse opens the position');
  // Ice Age Chess: the move number sets the countdown (C5).
  await page.goto(`${base}/editor/iceage`);
  await page.waitForFunction(() => document.querySelector('#editor-verdict')?.textContent.includes('Ice Age in 20'));
  await page.fill('#editor-move', '40');
  await page.dispatchEvent('#editor-move', 'change');
  await page.waitForFunction(() => document.querySelector('#editor-verdict')?.textContent.includes('Ice Age in 1 Black move'), null, { timeout: 5000 });
  check((await page.inputValue('#editor-fen')).endsWith(' w KQkq - 0 40'), 'the move number is in the position text');
  await page.click('#editor-engine');
  await page.waitForURL(u => u.pathname === '/');
  check((await page.inputValue('#fen')).endsWith(' 40'), 'Play against the computer presets the start position');
  await screenshot(page, 'editor-to-home');
}

async function importRecords(browser) {
  const page = await newPage(browser);
  await page.goto(`${base}/analysis/antarctos`);
  await page.waitForSelector('.cg-wrap cg-board piece');
  const statsBefore = (await api(page, 'GET', '/api/stats')).json;
  await page.click('#import summary');
  // Seed example 1 with a variation and a note, then a game with a move Antarctos forbids.
  await page.fill('#import-text', '[Event "one"]\n[White "Ann"]\n[Black "Bo"]\n[FEN "B:Wa5,d2,d4:Ba7,c7"]\n\n1... c7-b6 {the only way} (1... c7-d6 2. a5-b6) 2. a5xc7 a7xc5xe3xc1 0-1\n\n[Event "two"]\n\n1. c3-d4 f6-g5 2. d4-e7 *\n');
  await page.click('#import-open');
  await page.waitForSelector('.import-game');
  eq(await page.textContent('.import-game'), 'Game 1: Ann – Bo, 3 plies · one', 'the game read, with its event');
  // The game with a forbidden move opens up to its last good move (issue 41), saying which.
  const links = await page.$$eval('#import-result a.import-game', as => as.map(a => a.textContent ?? ''));
  eq(links.length, 2, 'both games open');
  check(/opened up to move 2: d4-e7 cannot be played/.test(links[1]), `the second game names its bad move, got "${links[1]}"`);
  const href = await page.getAttribute('.import-game', 'href');
  check(/^\/analysis\/import\/\w+$/.test(href ?? ''), `the game is stored with an address of its own, got ${href}`);
  await page.click('.import-game');
  await page.waitForFunction(p => location.pathname === p, href);
  await waitTree(page, 5);
  eq(await tree(page), ['1… c7-b6', '1… c7-d6', '2. a5-b6', '2. a5xc7', 'a7xc5xe3xc1'], 'the game with its variation');
  eq(await current(page), 'a7xc5xe3xc1', 'opened on its last position');
  eq(await page.textContent('#analysis-about'), 'Ann – Bo · one · 0-1', 'with its players, event and result');
  await page.click('#tree button.move[data-key="1"]');
  eq(await page.inputValue('#comment'), 'the only way', 'with its note');
  // Back: the record's games and errors are still listed, the game shown marked.
  eq(await page.$$eval('#import-last .import-game', as => as.map(a => a.getAttribute('aria-current'))), ['page', null], 'the game shown is marked in the list (the second, cut game beside it)');
  check(((await page.$$eval('#import-last .import-game', as => as.map(a => a.textContent ?? '')))[1] ?? '').includes('d4-e7'), 'the list keeps the cut game\'s bad move');
  await page.goBack();
  await page.waitForSelector('#import-last .import-game');
  eq(await page.getAttribute('#import-last .import-game', 'href'), href, 'Back lists the record\'s games again');
  // Anyone with the address opens it (a new browser, no session).
  const other = await newPage(browser);
  await other.goto(`${base}${href}`);
  await waitTree(other, 5);
  eq(await tree(other), ['1… c7-b6', '1… c7-d6', '2. a5-b6', '2. a5xc7', 'a7xc5xe3xc1'], 'the stored game opens elsewhere');
  // Never a game of the statistics.
  eq((await api(other, 'GET', '/api/stats')).json, statsBefore, 'imported games are not counted');
  // A file saved as Windows-1251 (Cyrillic names), with NAGs: the names keep their letters,
  // the guess is said, the NAGs show and are written back.
  await other.goto(`${base}/analysis/antarctos`);
  await other.waitForSelector('.cg-wrap cg-board piece');
  await other.click('#import summary');
  const cp1251 = Buffer.concat([Buffer.from('[Event "cp"]\n[White "'), Buffer.from([0xc1, 0xeb, 0xe8, 0xed, 0xe4, 0xe5, 0xf0]), Buffer.from('"]\n\n1. c3-d4! f6-g5?! *\n')]);
  await other.setInputFiles('#import-file', { name: 'old.pdn', mimeType: 'text/plain', buffer: cp1251 });
  await other.waitForFunction(() => /** @type {HTMLInputElement | null} */ (document.querySelector('#import-text'))?.value.includes('c3-d4'));
  await other.click('#import-open');
  await other.waitForSelector('.import-warning');
  check((await other.textContent('.import-warning')).includes('windows-1251'), `the encoding guess is said, got ${await other.textContent('.import-warning')}`);
  check((await other.textContent('.import-game')).includes('Блиндер'), 'the Cyrillic name keeps its letters');
  await other.click('.import-game');
  await waitTree(other, 2);
  eq(await tree(other), ['1. c3-d4!', 'f6-g5?!'], 'the NAGs show in the moves');
}

/** The computer analysis of a short finished game: seed example 1 with Black's losing c7-d6
 * instead of the winning c7-b6 (White then wins in 5 plies). */
async function gameGraph(browser) {
  const page = await newPage(browser);
  await page.goto(`${base}/`);
  const g = (await api(page, 'POST', '/api/games', { variant: 'antarctos', opponent: 'local', fen: 'B:Wa5,d2,d4:Ba7,c7' })).json;
  let ply = 0;
  for (const move of ['c7-d6', 'd2-c3', 'd6-e5', 'd4xf6', 'a7-b6', 'a5xc7']) eq((await api(page, 'POST', `/api/games/${g.id}/moves`, { move, ply: ply++ })).status, 200, move);
  await page.goto(`${base}/analysis/game/${g.id}`);
  await waitTree(page, 6);
  await page.waitForSelector('#review-request');
  eq(await page.textContent('#review-request'), 'Request computer analysis', 'a finished game offers its computer analysis');
  await page.click('#review-request');
  await page.waitForSelector('#review-summary', { timeout: 30000 });
  const points = await page.$eval('#review-graph polyline', p => p.getAttribute('points').trim().split(/\s+/).length);
  eq(points, 7, 'the graph has a point per position');
  eq(await page.$$eval('#review-graph circle.mark.blunder', c => c.length), 1, 'one blunder on the graph');
  eq(await page.textContent('#tree button.move.blunder'), '1… c7-d6??', 'the blunder is marked in the moves');
  const rows = await page.$$eval('#review-summary tbody tr', trs => trs.map(tr => [...tr.children].map(c => c.textContent)));
  eq(rows, [['White', '0', '0', '0'], ['Black', '0', '0', '1']], 'each side\'s count');
  await page.click('#tree button.move.blunder');
  await page.waitForSelector('#review-mark');
  eq(await page.textContent('#review-now'), 'Evaluation White wins in 5 plies (depth 5). Blunder c7\u2011d6 lowered the winning chances by 100\u00a0%; better was c7\u2011b6.', 'the blunder with the better move');
  // Stepping through the moves moves the list, never the page.
  const y = await page.evaluate(() => scrollY);
  for (let i = 0; i < 5; i++) await page.click('#nav-next');
  eq(await page.evaluate(() => scrollY), y, 'the page stays put while stepping');
  eq(await page.textContent('#review-eval'), 'The game is over here: 1-0.', 'the last position says the game is over');
  // The graph takes the player to a move: its start is Black's proven win.
  const box = await page.$eval('#review-graph', e => { const r = e.getBoundingClientRect(); return { x: r.left, y: r.top, h: r.height }; });
  await page.mouse.click(box.x + 2, box.y + box.h / 2);
  await page.waitForFunction(() => !document.querySelector('#tree button.move.current'));
  check((await page.textContent('#review-eval')).includes('Black wins in 3 plies'), `the start's evaluation, got ${await page.textContent('#review-eval')}`);
  await screenshot(page, 'review', 'analysis-review.png');
  // Computed once: another browser sees it at once, without asking.
  const other = await newPage(browser);
  await other.goto(`${base}/analysis/game/${g.id}`);
  await other.waitForSelector('#review-summary');
  check(!(await other.$('#review-request')), 'the stored analysis shows without a new request');
}

/** The engine's lines redraw the page: what is being typed (a note, a position) stays, and the
 * board stays the same element. */
async function redrawsKeepTypedText(browser) {
  const page = await newPage(browser);
  await page.goto(`${base}/analysis/antarctos`);
  await page.waitForSelector('.cg-wrap cg-board piece');
  await page.$eval('.cg-wrap', el => { el.setAttribute('data-probe', 'first'); });
  await clickSquare(page, 'c3');
  await clickSquare(page, 'd4');
  await waitTree(page, 1);
  await page.fill('#comment', 'a quiet start');
  await page.fill('#fen-input', 'W:Wc3');
  await page.click('#engine-toggle');
  await page.waitForFunction(() => /depth \d/.test(document.querySelector('#engine')?.textContent ?? ''), null, { timeout: 20000 });
  eq(await page.inputValue('#fen-input'), 'W:Wc3', 'the position being typed stays while the engine thinks');
  eq(await page.inputValue('#comment'), 'a quiet start', 'so does the note');
  eq(await page.getAttribute('.cg-wrap', 'data-probe'), 'first', 'the board is the same element');
  await page.click('#engine-toggle');
  await page.click('#nav-prev');
  check((await page.inputValue('#fen-input')).startsWith('W:Wa1'), 'another position shows its own text');
  await page.click('#nav-next');
  eq(await page.inputValue('#comment'), 'a quiet start', 'the note is kept on its move');
}

await suite([
  ['moves, variations, keys and the record', treeAndVariations],
  ['typed text survives the engine\'s redraws', redrawsKeepTypedText],
  ['the engine finds the seed\'s win and its line plays', engineFindsTheSeedWin],
  ['a finished game opens on its last position', fromAFinishedGame],
  ['the board editor', boardEditor],
  ['a record file opens in the board', importRecords],
  ['the graph of a short finished game', gameGraph],
]);
