// The look of every page: text contrast meets WCAG AA (4.5:1, 3:1 for large text) in the site's
// colours and in each game's own theme (Antarctos' night, Ice Age Chess' glacier), measured on
// the rendered page; and the screenshots of docs/screenshots/, desktop and phone.
// Not measured: the board's coordinates (white with a dark halo on either square colour) and
// disabled buttons (WCAG 1.4.3 exempts inactive controls).

import { api, base, check, clickSquare, eq, newPage, screenshot, suite, waitForMoves } from './lib.mjs';

/** Every visible text element (under `root`: a selector, the whole page by default) whose
 * contrast against what is behind it is below AA. */
async function lowContrast(page, root = 'body') {
  return page.evaluate(root => {
    const parse = c => {
      const m = /rgba?\(([^)]+)\)/.exec(c);
      if (!m) return [0, 0, 0, 0];
      const [r, g, b, a = 1] = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
      return [r, g, b, a];
    };
    const over = (top, bottom) => {
      const a = top[3];
      return [0, 1, 2].map(i => top[i] * a + bottom[i] * (1 - a)).concat(1);
    };
    const background = el => {
      const layers = [];
      for (let e = el; e; e = e.parentElement) {
        const c = parse(getComputedStyle(e).backgroundColor);
        if (c[3] > 0) layers.push(c);
        if (c[3] >= 1) break;
      }
      let bg = [255, 255, 255, 1];
      for (const layer of layers.reverse()) bg = over(layer, bg);
      return bg;
    };
    const lum = ([r, g, b]) => {
      const f = v => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const ratio = (a, b) => {
      const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
      return (x + 0.05) / (y + 0.05);
    };
    const out = [];
    const seen = new Set();
    const top = document.querySelector(root);
    if (!top) return [`${root}: not on the page`];
    const walker = document.createTreeWalker(top, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || !n.textContent.trim() || seen.has(el)) continue;
      seen.add(el);
      if (el.closest('coords, button:disabled, option, .marks')) continue;
      const r = el.getBoundingClientRect();
      const st = getComputedStyle(el);
      if (r.width === 0 || r.height === 0 || st.visibility === 'hidden' || Number(st.opacity) === 0) continue;
      const bg = background(el);
      const fg = over(parse(st.color), bg);
      const size = parseFloat(st.fontSize);
      const bold = Number(st.fontWeight) >= 700;
      const large = size >= 24 || (bold && size >= 18.66);
      const need = large ? 3 : 4.5;
      const got = ratio(fg, bg);
      if (got < need) out.push(`${n.textContent.trim().slice(0, 40)} (${st.color} on rgb(${bg.slice(0, 3).map(Math.round).join(',')}): ${got.toFixed(2)} < ${need})`);
    }
    return out;
  }, root);
}

/** The header's "Offline" badge, shown with the browser offline, meets AA in the site's colours
 * and in both games' looks (it was dark text on Antarctos' dark violet). */
async function offlineBadgeMeetsAA(browser) {
  const page = await newPage(browser);
  const low = [];
  for (const [path, ready, theme] of [['/', '#new-game', undefined], ['/editor/antarctos', '#editor-verdict', 'antarctos'], ['/editor/iceage', '#editor-verdict', 'iceage']]) {
    await page.context().setOffline(false);
    await page.goto(`${base}${path}`);
    await page.waitForSelector(ready, { timeout: 15000 });
    eq(await page.evaluate(() => document.body.dataset.theme), theme, `${path} has its look`);
    await page.context().setOffline(true);
    await page.waitForSelector('#offline-badge:not([hidden])', { timeout: 5000 });
    for (const item of await lowContrast(page, '#offline-badge')) low.push(`${path}: ${item}`);
  }
  await page.context().setOffline(false);
  eq(low, [], 'the offline badge meets WCAG AA contrast in every look');
}

async function pagesMeetAA(browser) {
  const page = await newPage(browser);
  const post = (path, body) => api(page, 'POST', path, body).then(r => r.json);
  const local = await post('/api/games', { variant: 'antarctos', opponent: 'local', fen: 'W:Wb4,e3,f2:Bc7,d6:Ic3' });
  let g = local;
  for (const mv of ['b4-c5', 'd6xb4xd2xf4', 'f2xd4xb6xd8']) g = await post(`/api/games/${g.id}/moves`, { move: mv, ply: g.ply });
  const ice = await post('/api/games', { variant: 'iceage', opponent: 'local', fen: 'rnbqk1*r/pppp1p*1/****pnp1/4PP2/3P4/3B4/PPP2PPP/RNBQK1NR b - - 0 20' });
  await post(`/api/games/${ice.id}/moves`, { move: 'Nh5', ply: 0 });
  const offer = await post('/api/games', { variant: 'iceage', opponent: 'local' });
  await post(`/api/games/${offer.id}/draw`, { action: 'offer' });
  const waiting = await post('/api/games', { variant: 'antarctos', opponent: 'friend', color: 'white' });
  const low = [];
  for (const [path, ready] of [
    ['/', '#new-game'], ['/my', '#my-games'], ['/stats', '#stats'], ['/rules/antarctos', '.diagram cg-board piece'],
    ['/rules/iceage', '.diagram cg-board piece'], [`/game/${local.id}`, '#game-over:not([hidden])'],
    [`/game/${ice.id}`, '#ice-panel:not([hidden])'], [`/game/${offer.id}`, '#draw-offer'], [`/game/${waiting.id}`, '#waiting'],
    ['/no/such/page', '#not-found'], [`/analysis/antarctos?fen=${encodeURIComponent('W:Wb4,e3,f2:Bc7,d6:Ic3')}`, '#analysis-status'],
    ['/analysis/iceage', '#analysis-status'], ['/editor/antarctos', '#editor-verdict'], ['/editor/iceage', '#editor-verdict'],
  ]) {
    await page.goto(`${base}${path}`);
    await page.waitForSelector(ready, { timeout: 15000 });
    await page.waitForTimeout(300);
    for (const item of await lowContrast(page)) low.push(`${path}: ${item}`);
  }
  eq(low, [], 'every text meets WCAG AA contrast');
  // Each game has a look of its own.
  await page.goto(`${base}/game/${local.id}`);
  await page.waitForSelector('#game-over:not([hidden])');
  const antarctosBg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.goto(`${base}/game/${ice.id}`);
  await page.waitForSelector('#ice-panel:not([hidden])');
  const iceBg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  check(antarctosBg !== iceBg, `the games look different (${antarctosBg} / ${iceBg})`);
}

async function screenshots(browser) {
  const desktop = await newPage(browser);
  await desktop.goto(`${base}/`);
  await desktop.waitForSelector('.game-card .cg-wrap cg-board piece');
  await screenshot(desktop, 'home', 'home.png');
  const created = (await api(desktop, 'POST', '/api/games', { variant: 'antarctos', opponent: 'engine', level: 2, color: 'white' })).json;
  await desktop.goto(`${base}/game/${created.id}`);
  await desktop.waitForSelector('.game .cg-wrap cg-board piece');
  await clickSquare(desktop, 'c3');
  await clickSquare(desktop, 'd4');
  await waitForMoves(desktop, 2);
  await screenshot(desktop, 'antarctos-engine', 'antarctos-game.png');
  await desktop.goto(`${base}/rules/iceage`);
  await desktop.waitForSelector('.diagram cg-board piece');
  await desktop.locator('#rules-ice-age').scrollIntoViewIfNeeded();
  await screenshot(desktop, 'rules-iceage', 'rules-iceage.png');

  const phone = await newPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const ice = (await api(phone, 'POST', '/api/games', { variant: 'iceage', opponent: 'local', fen: 'rnbqk1*r/pppp1p*1/****pnp1/4PP2/3P4/3B4/PPP2PPP/RNBQK1NR b - - 0 20' })).json;
  await api(phone, 'POST', `/api/games/${ice.id}/moves`, { move: 'Nh5', ply: 0 });
  await phone.goto(`${base}/game/${ice.id}`);
  await phone.waitForSelector('#ice-panel:not([hidden])');
  await screenshot(phone, 'phone-iceage', 'phone-iceage.png');
  await phone.evaluate(() => document.querySelector('#ice-panel').scrollIntoView());
  await screenshot(phone, 'phone-iceage-account', 'phone-iceage-account.png');
  for (const [path, ready, name] of [['/rules/antarctos', '.diagram cg-board piece', 'phone-rules.png'], ['/stats', '#stats', 'phone-statistics.png'], ['/my', 'main h1', 'phone-my-games.png'],
    ['/analysis/iceage', '#analysis-status', 'phone-analysis.png'], ['/editor/antarctos', '#editor-verdict', 'phone-editor.png']]) {
    await phone.goto(`${base}${path}`);
    await phone.waitForSelector(ready);
    const fits = await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth
      && [...document.querySelectorAll('main section, main aside, main .card, main .panel')].every(el => el.getBoundingClientRect().right <= window.innerWidth + 1));
    check(fits, `${path} fits a phone without sideways scrolling or anything cut at the edge`);
    await screenshot(phone, name.replace('.png', ''), name);
  }
  // The Ice Age Chess editor's move number box can be used on a phone (it was 8 px wide).
  await phone.goto(`${base}/editor/iceage`);
  await phone.waitForSelector('#editor-verdict');
  const width = await phone.$eval('#editor-move', el => el.getBoundingClientRect().width);
  check(width >= 60, `the move number box is ${width} px wide`);
}

await suite([
  ['WCAG AA contrast on every page, in both games\' looks', pagesMeetAA],
  ['the offline badge meets WCAG AA contrast in every look', offlineBadgeMeetsAA],
  ['screenshots, desktop and phone', screenshots],
]);
