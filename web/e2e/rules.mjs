// The rules pages: every board picture is the server's own rules (its moves are legal, its
// position is what the moves give), the decision numbers are anchors, the worked examples step
// in each language, and the game page and the home cards link to the rules.

import { antarctosSets, api, base, check, eq, loadModule, newPage, screenshot, suite } from './lib.mjs';

const { antarctosSections } = await loadModule('rules_antarctos.ts');
const { iceageSections } = await loadModule('rules_iceage.ts');

const sameFen = (variant, a, b) => (variant === 'antarctos'
  ? JSON.stringify(antarctosSets(a)) === JSON.stringify(antarctosSets(b))
  : a === b);

async function diagramsAreTheRules(browser) {
  const page = await newPage(browser);
  for (const s of [...antarctosSections, ...iceageSections]) {
    const d = s.diagram;
    if (!d) continue;
    const start = d.check ? d.check.from : d.fen;
    const created = await api(page, 'POST', '/api/games', { variant: d.variant, opponent: 'local', fen: start });
    eq(created.status, 201, `diagram "${s.id}": its position is one the rules accept`);
    let g = created.json;
    const played = [];
    for (const mv of d.check?.moves ?? []) {
      const r = await api(page, 'POST', `/api/games/${g.id}/moves`, { move: mv, ply: g.ply });
      eq(r.status, 200, `diagram "${s.id}": ${mv} is legal`);
      g = r.json;
      const path = g.moves[g.moves.length - 1].path;
      played.push(`${path[0]}-${path[path.length - 1]}`);
    }
    check(sameFen(d.variant, g.fen, d.fen), `diagram "${s.id}": the moves give the picture (${g.fen} vs ${d.fen})`);
    // Arrows show the moves played to reach the picture, or moves legal in it.
    const legal = new Set(g.legal.map(m => `${m.path[0]}-${m.path[m.path.length - 1]}`));
    for (const [from, to] of d.arrows ?? []) {
      const arrow = `${from}-${to}`;
      check(played.includes(arrow) || legal.has(arrow), `diagram "${s.id}": the arrow ${arrow} is a move of the rules`);
    }
    if (s.id === 'living-first') eq([...legal], ['c3-e5'], 'the capture is the only legal turn (A9)');
  }
}

async function anchorsAndExamples(browser) {
  const page = await newPage(browser);
  await page.goto(`${base}/rules/antarctos#a9`);
  await page.waitForSelector('#example-1 cg-board piece');
  check(await page.$('a.decision[href="#a9"]') !== null, 'the decision A9 links to its ruling');
  check(await page.isVisible('.rulings dt#a9'), 'a link to #a9 unfolds the rulings and shows A9');
  const anchors = await page.$$eval('a.decision', as => as.map(a => a.textContent));
  for (const n of Array.from({ length: 19 }, (_, i) => `A${i + 1}`)) check(anchors.includes(n), `decision ${n} is cited`);
  const body = await page.textContent('.rules');
  check(!/seed text|decisions? A\d+ \.\.\./i.test(body), 'the page reads as rules for players, not as a specification');
  await page.goto(`${base}/rules/iceage`);
  await page.waitForSelector('.diagram cg-board piece');
  const iceAnchors = await page.$$eval('a.decision', as => as.map(a => a.textContent));
  for (const n of ['C1', 'C2', 'C3', 'C4', 'C5', 'C6', 'C7', 'C8', 'C10', 'C11', 'C12', 'C13', 'C14']) check(iceAnchors.includes(n), `decision ${n} is cited`);
  eq(await page.$$eval('.diagram', ds => ds.length), 3, 'three board pictures on the Ice Age Chess page');
  const marks = await page.$$eval('#rules-ice-age .mark', ms => ms.map(m => `${m.dataset.square}:${m.className}`).sort());
  eq(marks, ['e7:mark closed', 'f1:mark closed', 'f6:mark closed', 'h8:mark frozen'], 'the Ice Age picture marks what froze and what stayed empty');
  await screenshot(page, 'rules-iceage');
  // The worked examples in Russian.
  await page.selectOption('header.top select', 'ru');
  await page.goto(`${base}/rules/antarctos`);
  await page.waitForSelector('#example-1 cg-board piece');
  eq(await page.textContent('#example-1 h3'), 'Чёрные начинают и выигрывают', 'the example\'s title in Russian');
  for (let i = 0; i < 3; i++) await page.click('#example-1 [data-action=next]');
  check((await page.textContent('#example-1 .example-note')).includes('Чёрные выигрывают прорывом'), 'the last step explained in Russian');
  await screenshot(page, 'rules-ru', 'rules-antarctos-ru.png');
  await page.selectOption('header.top select', 'en');
}

async function rulesAreLinked(browser) {
  const page = await newPage(browser);
  await page.goto(`${base}/`);
  await page.waitForSelector('.game-card');
  eq(await page.$$eval('.game-card a.game-rules', as => as.map(a => a.getAttribute('href'))), ['/rules/antarctos', '/rules/iceage'], 'each home card links to its rules');
  const g = (await api(page, 'POST', '/api/games', { variant: 'iceage', opponent: 'local' })).json;
  await page.goto(`${base}/game/${g.id}`);
  await page.waitForSelector('#rules-link');
  await page.click('#rules-link');
  await page.waitForURL(`${base}/rules/iceage`);
  check(await page.isVisible('.rules'), 'the game page links to its rules');
}

await suite([
  ['every board picture is the rules\' own', diagramsAreTheRules],
  ['decision anchors and the worked examples', anchorsAndExamples],
  ['the rules are linked from the home cards and the game page', rulesAreLinked],
]);
