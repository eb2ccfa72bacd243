// The lobby (issue 13) in several browser contexts: a seek made in one appears live in the
// other, which accepts it, and both land on the same game; quick pairing meets two players;
// a challenge between two accounts is seen live and accepted; a friend game with a clock from
// the shared time-control picker; the lobby on a 390 px phone and in Russian.

import { api, base, check, eq, newPage, screenshot, suite } from './lib.mjs';

const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

const onGame = page => page.waitForFunction(() => location.pathname.startsWith('/game/'), null, { timeout: 15000 });
const gameOf = page => new URL(page.url()).pathname.split('/').pop();

async function home(browser, options) {
  const page = await newPage(browser, options);
  await page.goto(`${base}/`);
  await page.waitForSelector('#lobby #seeks');
  return page;
}

async function seekSeenLiveAndAccepted(browser) {
  const a = await home(browser);
  const b = await home(browser);
  await a.click('.lobby-new-seek summary');
  await a.selectOption('#seek-variant', 'antarctos');
  await a.selectOption('#seek-tc', '3+2');
  await a.selectOption('#seek-color', 'white');
  await a.click('#seek-submit');
  await a.waitForFunction(() => document.querySelector('#lobby-status')?.textContent.includes('3+2'));
  const mine = await a.waitForSelector('#seeks li.seek.mine');
  const id = await mine.getAttribute('data-id');
  // The other player sees it without reloading, and plays Black.
  const row = await b.waitForSelector(`#seeks li.seek[data-id="${id}"]`, { timeout: 5000 });
  eq(await row.$eval('.seek-time', e => e.textContent), '3+2', 'the seek shows its time control');
  eq(await row.$eval('.seek-side', e => e.textContent), 'You play Black', 'the accepting player\'s side is said');
  eq(await row.$eval('.seek-player', e => e.textContent), 'Anonymous', 'an anonymous seeker');
  await screenshot(b, 'lobby-seek-listed', 'lobby.png');
  await b.click(`#seeks li.seek[data-id="${id}"] button.accept`);
  await onGame(b);
  await onGame(a);
  eq(gameOf(a), gameOf(b), 'both players land on the same game');
  await a.waitForSelector('.game .cg-wrap cg-board piece');
  const view = (await api(a, 'GET', `/api/games/${gameOf(a)}`)).json;
  eq(view.you, 'white', 'the seeker plays the side it asked for');
  eq(view.clock?.running, 'white', 'the clock runs at once');
  // The accepted seek left the lobby.
  await b.goto(`${base}/`);
  await b.waitForSelector('#lobby #seeks li');
  check(!(await b.$(`#seeks li.seek[data-id="${id}"]`)), 'the accepted seek is gone from the lobby');
}

async function quickPairing(browser) {
  const c = await home(browser);
  const d = await home(browser);
  await c.check('input[name=quick-variant][value=iceage]');
  await c.click('button.quick[data-tc="5+3"]');
  await c.waitForFunction(() => document.querySelector('#lobby-status')?.textContent.includes('Waiting for an opponent (5+3)'));
  await d.waitForSelector('#seeks li.seek:not(.mine)');
  await d.check('input[name=quick-variant][value=iceage]');
  await d.click('button.quick[data-tc="5+3"]');
  await onGame(d);
  await onGame(c);
  eq(gameOf(c), gameOf(d), 'quick pairing meets the two players in one game');
  const view = (await api(d, 'GET', `/api/games/${gameOf(d)}`)).json;
  eq(view.variant, 'iceage', 'the game asked for');
  const clock = view.clock?.kind === 'realtime' ? view.clock : null;
  eq([clock?.initial_ms, clock?.increment_ms], [300000, 3000], 'the control asked for');
}

async function challengeAccepted(browser) {
  const n = Date.now() % 1000000;
  const [ann, bob] = [`ann_${n}`, `bob_${n}`];
  const e = await newPage(browser);
  const f = await newPage(browser);
  await e.goto(`${base}/`);
  await f.goto(`${base}/`);
  eq((await api(e, 'POST', '/api/accounts', { username: ann, password: 'correct horse' })).status, 201, 'Ann registers');
  eq((await api(f, 'POST', '/api/accounts', { username: bob, password: 'correct horse' })).status, 201, 'Bob registers');
  await e.reload();
  await f.reload();
  await e.waitForSelector('#challenge-form', { state: 'attached' });
  await f.waitForSelector('#lobby #seeks');
  await e.click('.lobby-challenge summary');
  await e.fill('#challenge-user', 'nobody_at_all');
  await e.click('#challenge-submit');
  await e.waitForFunction(() => document.querySelector('#challenge-result')?.textContent);
  eq(await e.textContent('#challenge-result'), 'No player has this name.', 'an unknown name is said plainly, beside the button');
  await e.fill('#challenge-user', bob);
  await e.selectOption('#challenge-variant', 'antarctos');
  await e.selectOption('#challenge-tc', 'd3');
  await e.check('#challenge-rated');
  // Nothing to add to "Rated" for an account: no empty box beside it.
  const pill = await e.$eval('#challenge-rated', box => {
    const hint = box.closest('label')?.querySelector('.hint');
    return hint ? { text: hint.textContent, width: hint.getBoundingClientRect().width } : null;
  });
  check(pill === null || pill.text !== '' || pill.width === 0, `no empty pill beside "Rated" (${JSON.stringify(pill)})`);
  await e.selectOption('#challenge-color', 'black');
  await e.click('#challenge-submit');
  await e.waitForSelector('#challenges-out li.challenge');
  eq(await e.textContent('#challenges-out .challenge-who'), `Your challenge to ${bob}`, 'the challenger sees it waiting');
  // Beside the button too: the lists above may be off the screen (browser finding 15, round 4).
  eq(await e.textContent('#challenge-result'), `Challenge sent to ${bob}: waiting for an answer.`, 'the form says it was sent');
  const at = await e.$eval('#challenge-result', el => { const r = el.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, h: innerHeight }; });
  check(at.top >= 0 && at.bottom <= at.h, `and its words are on the screen (${JSON.stringify(at)})`);
  // Bob sees it live.
  await f.waitForSelector('#challenges-in li.challenge', { timeout: 5000 });
  eq(await f.textContent('#challenges-in .challenge-who'), `${ann} challenges you`, 'the challenged player sees who');
  eq(await f.textContent('#challenges-in .seek-time'), '3 days', 'and the time control');
  await screenshot(f, 'lobby-challenge-incoming');
  await f.click('#challenges-in button.challenge-accept');
  await onGame(f);
  await onGame(e);
  eq(gameOf(e), gameOf(f), 'the challenger is taken to the game');
  const view = (await api(e, 'GET', `/api/games/${gameOf(e)}`)).json;
  eq([view.you, view.rated, view.clock?.kind], ['black', true, 'correspondence'], 'the terms of the challenge');
}

async function friendGameWithClock(browser) {
  const page = await home(browser);
  await page.check('input[name=opponent][value=friend]');
  check(await page.isVisible('#friend-tc'), 'a friend game offers a clock');
  check(await page.isDisabled('#friend-rated'), 'rated is for accounts');
  await page.selectOption('#friend-tc', 'custom');
  await page.fill('#friend-minutes', '0.1');
  await page.click('#start');
  await page.waitForFunction(() => document.querySelector('.friend-clock .error')?.textContent);
  eq(await page.textContent('.friend-clock .error'), 'Minutes: ¼ to 180; increment: 0 to 60 whole seconds.', 'a custom control out of range is explained');
  await page.fill('#friend-minutes', '2');
  await page.fill('#friend-increment', '1');
  await page.click('#start');
  await onGame(page);
  const view = (await api(page, 'GET', `/api/games/${gameOf(page)}`)).json;
  const clock = view.clock?.kind === 'realtime' ? view.clock : null;
  eq([clock?.initial_ms, clock?.increment_ms], [120000, 1000], 'the friend game has the chosen clock');
}

async function phoneAndRussian(browser) {
  const page = await newPage(browser, phone);
  await page.goto(`${base}/`);
  await page.evaluate(() => localStorage.setItem('icebound.lang', 'ru'));
  await page.reload();
  await page.waitForSelector('#lobby #seeks');
  eq(await page.textContent('#lobby h1'), 'Сыграть с кем-нибудь', 'the lobby speaks Russian');
  await page.click('.lobby-new-seek summary');
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  check(width <= 390, `the lobby fits a 390 px phone (page width ${width})`);
  const grid = await page.$eval('.quick-grid', g => g.getBoundingClientRect().right);
  check(grid <= 390, 'the quick pairing grid fits');
  await screenshot(page, 'lobby-phone-ru', 'lobby-phone.png');
}

await suite([
  ['a seek is seen live and accepted', seekSeenLiveAndAccepted],
  ['quick pairing', quickPairing],
  ['a challenge is accepted', challengeAccepted],
  ['a friend game with a clock', friendGameWithClock],
  ['phone and Russian', phoneAndRussian],
]);
