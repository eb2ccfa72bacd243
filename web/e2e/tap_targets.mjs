// Tap targets on a phone (390x844, touch): every visible control of the home page (with the
// lobby and its forms open), a game page (playing and over), the analysis board, the puzzle
// trainer (a puzzle, a failed one, the dashboard), the rules pages
// (every fold open) and the editor of both games is at least
// 44x44 CSS px, as Apple's and WCAG 2.5.5's target size. Exempt, as WCAG 2.5.8 does: links
// inside a sentence (their size is the line's). A radio or checkbox counts with its label,
// which takes the tap too.

import { api, base, check, clickSquare, newPage, openGame, out, suite, waitForMoves, waitForStatus } from './lib.mjs';

const MIN = 44;
const phone = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

/** The visible controls of the page smaller than MIN in either direction, described. */
async function smallTargets(page) {
  return page.evaluate(min => {
    const shown = el => {
      const r = el.getBoundingClientRect();
      const s = getComputedStyle(el);
      return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && !el.closest('[hidden]');
    };
    // WCAG 2.5.8's inline exception: a link whose parent also holds words of its own.
    const inSentence = el => el.tagName === 'A' && getComputedStyle(el).display === 'inline'
      && [...(el.parentElement?.childNodes ?? [])].some(n => n.nodeType === Node.TEXT_NODE && /\p{L}/u.test(n.textContent ?? ''));
    const rectOf = el => {
      let r = el.getBoundingClientRect();
      if (el instanceof HTMLInputElement && (el.type === 'radio' || el.type === 'checkbox')) {
        for (const label of el.labels ?? []) {
          const l = label.getBoundingClientRect();
          const left = Math.min(r.left, l.left), top = Math.min(r.top, l.top);
          r = { width: Math.max(r.right, l.right) - left, height: Math.max(r.bottom, l.bottom) - top };
        }
      }
      return r;
    };
    const name = el => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${[...el.classList].map(c => `.${c}`).join('')}`
      + `${el instanceof HTMLInputElement ? `[${el.type}]` : ''} "${(el.textContent || el.getAttribute('aria-label') || el.getAttribute('value') || '').trim().slice(0, 30)}"`;
    const out = [];
    for (const el of document.querySelectorAll('button, a, input, select, summary, [role=button]')) {
      if (!shown(el) && !(el instanceof HTMLInputElement && el.labels?.length)) continue;
      if (el instanceof HTMLInputElement && el.type === 'hidden') continue;
      if (inSentence(el)) continue;
      const r = rectOf(el);
      if (r.width === 0 && r.height === 0) continue;
      // Half a pixel for rounding of rem sizes.
      if (r.width < min - 0.5 || r.height < min - 0.5) out.push(`${name(el)} ${r.width.toFixed(1)}x${r.height.toFixed(1)}`);
    }
    return out;
  }, MIN);
}

async function expectNone(page, where) {
  await page.waitForTimeout(300);
  const small = await smallTargets(page);
  check(small.length === 0, `${where}: controls under ${MIN}x${MIN} px on a phone:\n  ${small.join('\n  ')}`);
  await page.screenshot({ path: `${out}/tap-${where.replace(/\W+/g, '-')}.png`, fullPage: true });
}

async function home(browser) {
  // Someone else's seek and one's own: the lobby's rows with their buttons.
  const other = await newPage(browser);
  await other.goto(`${base}/`);
  const seek = { variant: 'antarctos', time_control: { kind: 'correspondence', days: 3 }, color: 'white' };
  check((await api(other, 'POST', '/api/seeks', seek)).status === 201, 'another player seeks a game');
  const page = await newPage(browser, phone);
  await page.goto(`${base}/`);
  check((await api(page, 'POST', '/api/seeks', { ...seek, variant: 'iceage' })).status === 201, 'one\'s own seek');
  await page.goto(`${base}/`);
  await page.waitForSelector('#seeks li.seek.mine');
  await page.waitForSelector('#seeks li.seek:not(.mine)');
  await page.waitForSelector('#new-game .game-card cg-board');
  // Every fold open (a new seek, a challenge, the start position), and the friend's clock.
  await page.$$eval('details', ds => ds.forEach(d => { d.open = true; }));
  await page.check('input[name=opponent][value=friend]');
  await expectNone(page, 'home page and lobby (friend game)');
  await page.check('input[name=opponent][value=engine]');
  await expectNone(page, 'home page (engine levels)');
  // The lobby fills the first screens: a button near the top leads down to the form.
  await page.evaluate(() => window.scrollTo(0, 0));
  check(await page.isVisible('#jump-start'), 'the way to the start form is shown on a phone');
  await page.click('#jump-start');
  await page.waitForTimeout(300);
  const top = await page.$eval('#start-form', e => e.getBoundingClientRect().top);
  check(top >= -2 && top < 100, `the start form is at the top of the screen after the tap (${Math.round(top)} px)`);
  const wide = await newPage(browser);
  await wide.goto(`${base}/`);
  await wide.waitForSelector('#intro');
  check(!(await wide.isVisible('#jump-start')), 'not on a wide screen, where the form is in sight');
}

async function game(browser) {
  const page = await newPage(browser, phone);
  await page.goto(`${base}/`);
  const made = await api(page, 'POST', '/api/games', { variant: 'antarctos', opponent: 'engine', level: 1, color: 'white' });
  check(made.status === 201, 'a game against the engine');
  // The page settles (its state and the live socket) before the taps, as startFromHome does:
  // a tap measured before a late change of the layout could miss its square.
  await openGame(page, made.json.id);
  await page.waitForTimeout(300);
  await clickSquare(page, 'c3');
  await clickSquare(page, 'd4');
  await waitForMoves(page, 2);
  await expectNone(page, 'game page, playing');
  check((await api(page, 'POST', `/api/games/${made.json.id}/resign`, {})).status === 200, 'resigned');
  await waitForStatus(page, 'finished');
  await expectNone(page, 'game page, over');
}

async function analysis(browser) {
  const page = await newPage(browser, phone);
  await page.goto(`${base}/analysis/antarctos`);
  await page.waitForSelector('.cg-wrap cg-board piece');
  await clickSquare(page, 'c3');
  await clickSquare(page, 'd4');
  await page.waitForTimeout(500);
  await expectNone(page, 'analysis board');
}

async function rules(browser) {
  const page = await newPage(browser, phone);
  for (const path of ['/rules/antarctos', '/rules/iceage']) {
    await page.goto(`${base}${path}`);
    await page.waitForSelector('h1');
    await page.$$eval('details', ds => ds.forEach(d => { d.open = true; }));
    await expectNone(page, `rules ${path}`);
  }
}

async function editor(browser) {
  const page = await newPage(browser, phone);
  for (const game of ['antarctos', 'iceage']) {
    await page.goto(`${base}/editor/${game}`);
    await page.waitForSelector('.cg-wrap cg-board');
    await expectNone(page, `editor ${game}`);
    // Each tool is named in words (a glyph alone is no name to a screen reader), and the hint
    // speaks of taps too.
    const names = await page.$$eval('button.tool', bs => bs.map(b => b.getAttribute('aria-label') ?? b.textContent ?? ''));
    check(names.every(n => /\p{L}{3,}\s+\p{L}{3,}|^\p{L}{3,}$/u.test(n)), `${game}: the tools are named in words: ${names.join(', ')}`);
    if (game === 'iceage') check(names.includes('White king') && names.includes('Black pawn'), `iceage: the pieces by name: ${names.join(', ')}`);
    check(/\btap\b/.test(await page.textContent('.editor .muted') ?? ''), `${game}: the hint says tap`);
  }
}

/** The puzzle trainer (issue 39): a guest's puzzle (its "Log in"), a puzzle to solve, then
 * failed (the solution, its moves and the buttons after an attempt), and the dashboard of a
 * logged-in player. */
async function puzzles(browser) {
  // A guest: the rating box's "Log in" and the rated switch, each a 44 px target.
  const guest = await newPage(browser, phone);
  await guest.goto(`${base}/training/antarctos`);
  await guest.waitForSelector('#puzzle[data-phase="play"] .cg-wrap cg-board piece');
  await guest.waitForSelector('#puzzle-login');
  for (const sel of ['#puzzle-login', '#puzzle-rated-box']) {
    const box = await guest.locator(sel).boundingBox();
    check(box && box.height >= MIN - 0.5 && box.width >= MIN - 0.5, `${sel} is a ${MIN} px target (${box && `${box.width.toFixed(1)}x${box.height.toFixed(1)}`})`);
  }
  await expectNone(guest, 'puzzle trainer, guest');
  const page = await newPage(browser, phone);
  await page.goto(`${base}/`);
  check((await api(page, 'POST', '/api/accounts', { username: `tap_${Date.now() % 1000000}`, password: 'correct horse' })).status === 201, 'registered');
  await page.goto(`${base}/training/antarctos`);
  await page.waitForSelector('#puzzle[data-phase="play"] .cg-wrap cg-board piece');
  const id = await page.$eval('#puzzle', el => /** @type {HTMLElement} */ (el).dataset.id);
  await page.click('#puzzle-hint').catch(() => undefined);
  await expectNone(page, 'puzzle trainer');
  const p = (await api(page, 'GET', `/api/puzzles/${id}`)).json;
  const legal = (await api(page, 'POST', '/api/positions', { variant: 'antarctos', fen: p.fen })).json.legal;
  const wrong = legal.find(m => m.text !== p.solution[0]);
  await page.locator('#puzzle .cg-wrap').scrollIntoViewIfNeeded();
  for (const sq of wrong.path) await clickSquare(page, sq);
  await page.waitForSelector('#puzzle[data-phase="failed"] #puzzle-moves button.move');
  await expectNone(page, 'puzzle trainer, failed');
  await page.goto(`${base}/training/dashboard`);
  await page.waitForSelector('#puzzle-recent');
  await expectNone(page, 'puzzle dashboard');
}

await suite([
  ['the home page and the lobby have no small tap targets on a phone', home],
  ['the puzzle trainer has no small tap targets on a phone', puzzles],
  ['the rules pages have no small tap targets on a phone', rules],
  ['the editor has no small tap targets on a phone', editor],
  ['the game page has no small tap targets on a phone', game],
  ['the analysis board has no small tap targets on a phone', analysis],
]);
