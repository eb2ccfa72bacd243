// The defects a second fresh tester found on the game page (desktop and a 390 px phone), each
// kept as a check: the creator opening their own invitation, typed moves while looking back,
// a typed move's answer that outlived the next move, the position named by its move, the
// players' names in a friend game, typed-move errors in the page's language, the Russian
// "live" label, the phone's typed-move box, and the Ice Age example's caption.

import {
  api, base, check, clickSquare, eq, newPage, openGame, screenshot, statusText, suite, waitForMoves,
} from './lib.mjs';

/** Types `text` into the move box and presses Enter. */
async function typeMove(page, text) {
  await page.fill('#move-input', text);
  await page.press('#move-input', 'Enter');
}

/** The answer beside the move box, once shown. */
async function kbdSays(page) {
  await page.waitForSelector('#kbd-says:not([hidden])');
  return (await page.textContent('#kbd-says')).trim();
}

/** The seat lines, top then bottom: `White: You`. */
async function seats(page) {
  return page.$$eval('.player .seat', ss => ss.map(s => s.textContent.replace(/\s+/g, ' ').replace(' ◀', '').trim()));
}

// The creator who opens their own link is told what it is for and led back (it said "The
// game changed meanwhile"); the friends are "You" and "Opponent", not both "Player".
async function ownInvitationAndNames(browser) {
  const a = await newPage(browser);
  await a.goto(`${base}/`);
  const created = (await api(a, 'POST', '/api/games', { variant: 'antarctos', opponent: 'friend', color: 'white' })).json;
  await a.goto(`${base}${created.invite_url}`);
  await a.waitForSelector('#dead-end');
  eq(await a.textContent('#dead-end h1'), 'This is your own invitation', 'the creator\'s own link says what it is');
  check((await a.textContent('#dead-end p')).includes('Send the link to a friend'), 'and what to do with it');
  eq(await a.getAttribute('#back-link', 'href'), `/game/${created.id}`, 'with a way back to the game');
  await a.click('#back-link');
  await a.waitForSelector('#waiting');
  const b = await newPage(browser);
  await b.goto(`${base}${created.invite_url}`);
  await b.waitForURL(/\/game\/[\w-]+$/, { timeout: 15000 });
  await b.waitForSelector('.game .cg-wrap cg-board piece');
  await a.waitForSelector('#waiting', { state: 'detached', timeout: 5000 });
  eq(await seats(a), ['Black: Opponent', 'White: You'], 'the creator sees herself and her opponent');
  eq(await seats(b), ['White: Opponent', 'Black: You'], 'so does the friend');
  const w = await newPage(browser);
  await openGame(w, created.id);
  eq(await seats(w), ['Black: Player', 'White: Player'], 'a watcher sees two players');
}

// A local game: the position named by its move while looking back; a typed move while
// looking back goes to the live game; the answer to a bad text goes with the next move.
async function lookingBackAndTyping(browser) {
  const page = await newPage(browser);
  await page.goto(`${base}/`);
  const g = (await api(page, 'POST', '/api/games', { variant: 'antarctos', opponent: 'local' })).json;
  await openGame(page, g.id);
  await typeMove(page, 'c3-d4');
  await waitForMoves(page, 1);
  await typeMove(page, 'b6-a5');
  await waitForMoves(page, 2);
  await page.click('button.move[data-ply="1"]');
  await page.waitForSelector('#status.browsing');
  check((await statusText(page)).startsWith('You are looking at the position after 1. c3-d4'), `White's move by number and text, got "${await statusText(page)}"`);
  await page.click('button.move[data-ply="2"]');
  await page.waitForFunction(() => !document.querySelector('#status.browsing'));
  await page.click('button.move[data-ply="1"]');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  check((await statusText(page)).startsWith('You are looking at the start position'), 'the start');
  // A typed move while looking back is played on the live position (it said "Not your turn").
  await typeMove(page, 'd4-c5');
  await waitForMoves(page, 3);
  check(!(await page.isVisible('#status.browsing')), 'the board is back at the live position');
  eq(await page.inputValue('#move-input'), '', 'the move was played');
  // Black to move: a man that cannot take while a capture is compulsory (A9).
  await typeMove(page, 'h6-g5');
  eq(await kbdSays(page), '“h6-g5” is not a legal move here. A capture is compulsory: d6 must take.', 'why, with the man that must take');
  // The capture made on the board: the answer to the earlier text goes with it.
  await clickSquare(page, 'd6');
  await clickSquare(page, 'b4');
  await waitForMoves(page, 4);
  check(!(await page.isVisible('#kbd-says')), 'the answer to the earlier text went with the next move (it stayed)');
  await page.click('button.move[data-ply="4"]');
  await page.keyboard.press('ArrowLeft');
  check((await statusText(page)).startsWith('You are looking at the position after 2. d4-c5'), `got "${await statusText(page)}"`);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  check((await statusText(page)).startsWith('You are looking at the position after 1… b6-a5'), `Black's move with an ellipsis, got "${await statusText(page)}"`);
}

// Typed-move errors in Russian and Turkish (they were the server's English): no such move,
// several moves, and text that is no move.
async function typedErrorsTranslated(browser) {
  const ru = await newPage(browser, { locale: 'ru-RU' });
  await ru.goto(`${base}/`);
  // A17: start and end of a jump that two sequences share (a loop around four ice cubes).
  const g = (await api(ru, 'POST', '/api/games', { variant: 'antarctos', opponent: 'local', fen: 'W:Wc1:Bh8:Ib2,b4,d2,d4' })).json;
  await openGame(ru, g.id);
  await typeMove(ru, 'c1xc1');
  const both = await kbdSays(ru);
  check(['c1xa3xc5xe3xc1 или c1xe3xc5xa3xc1', 'c1xe3xc5xa3xc1 или c1xa3xc5xe3xc1'].some(list => both === `«c1xc1» подходит к нескольким ходам: ${list}. Введите нужный.`),
    `an ambiguous text, in Russian, with both sequences, got "${both}"`);
  await typeMove(ru, 'c1-z9');
  eq(await kbdSays(ru), '«c1-z9» не читается как ход. Ходы записывают так: c3-d4 или c3xe5.', 'a text that is no move, in Russian');
  const live = await ru.$eval('.live', el => [el.getBoundingClientRect().height, parseFloat(getComputedStyle(el).lineHeight) || 0, el.textContent]);
  check(live[1] === 0 || live[0] < live[1] * 1.5, `the Russian "${live[2]}" label stays on one line, got ${live[0]} px`);
  const tr = await newPage(browser, { locale: 'tr-TR' });
  await tr.goto(`${base}/`);
  const c = (await api(tr, 'POST', '/api/games', { variant: 'iceage', opponent: 'local' })).json;
  await openGame(tr, c.id);
  await typeMove(tr, 'e4');
  eq(await kbdSays(tr), '“e4” oynanamaz: e4 karesinde buz var; piyon buzu yalnızca çaprazdan alır.', 'why a move is not legal, in Turkish (e4 is on ice, C2)');
  // And in English, the reason of the rules (it was "not a legal move here").
  const en = await newPage(browser);
  await en.goto(`${base}/`);
  const mine = (await api(en, 'POST', '/api/games', { variant: 'iceage', opponent: 'local' })).json;
  await openGame(en, mine.id);
  await typeMove(en, 'e4');
  eq(await kbdSays(en), '“e4” cannot be played: e4 holds ice, and a pawn takes ice only diagonally.', 'the pawn and the ice, in English');
}

// The phone: no typed-move box between the board and the game's state.
async function phoneHasNoMoveBox(browser) {
  const page = await newPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await page.goto(`${base}/`);
  const g = (await api(page, 'POST', '/api/games', { variant: 'iceage', opponent: 'local' })).json;
  await openGame(page, g.id);
  check(!(await page.isVisible('#move-input')), 'the typed-move box is left out on a phone');
  const bottom = await page.evaluate(() => document.querySelector('#status').getBoundingClientRect().bottom);
  check(bottom <= 844, `the game's state is on the first screen, below the board, got its bottom at ${bottom} px`);
  await screenshot(page, 'phone-no-move-box');
  // Right after an Ice Age a draw offer still shows on the first screen (the Ice Age's account
  // pushed it below the fold).
  const ice = (await api(page, 'POST', '/api/games', { variant: 'iceage', opponent: 'local', fen: 'rnbqk1*r/pppp1p*1/****pnp1/4PP2/3P4/3B4/PPP2PPP/RNBQK1NR b - - 0 20' })).json;
  let ply = 0;
  for (const move of ['Nh5', 'Bxe4']) eq((await api(page, 'POST', `/api/games/${ice.id}/moves`, { move, ply: ply++ })).status, 200, move);
  eq((await api(page, 'POST', `/api/games/${ice.id}/draw`, { action: 'offer' })).status, 200, 'a draw offer');
  await openGame(page, ice.id);
  await page.waitForSelector('#draw-offer');
  check(await page.isVisible('#ice-panel'), 'the Ice Age\'s account is shown');
  const offerBottom = await page.$eval('#draw-offer', el => el.getBoundingClientRect().bottom);
  check(offerBottom <= 844, `the offer is on the first screen, got its bottom at ${offerBottom} px`);
  await screenshot(page, 'phone-offer-after-ice-age');
}

// The Ice Age example's caption says it is one of many.
async function iceAgeCaption(browser) {
  const page = await newPage(browser);
  await page.goto(`${base}/rules/iceage`);
  await page.waitForSelector('.example h3');
  const titles = await page.$$eval('.example h3', hs => hs.map(x => x.textContent));
  check(titles.some(x => x.includes('An Ice Age, after Black\'s 20th move')), `the caption, got ${JSON.stringify(titles)}`);
}

await suite([
  ['the creator\'s own invitation, the players\' names', ownInvitationAndNames],
  ['looking back and typing moves', lookingBackAndTyping],
  ['typed-move errors in Russian and Turkish', typedErrorsTranslated],
  ['the phone has no typed-move box', phoneHasNoMoveBox],
  ['the Ice Age example\'s caption', iceAgeCaption],
]);
