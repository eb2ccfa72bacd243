// Impossible positions explained in the page's language (issue 14, board editor): the server
// sends the rules' fault as data (`error.position = {code, args}`, docs/api.md, Errors) and the
// board editor, the analysis board's position box and the home page's start position word it
// with the `pos.<code>` keys of web/src/lang/{en,ru,tr}.ts, in English, Russian and Turkish.
// A code the page does not know falls back to the server's English message.

import { api, base, check, clickSquare, eq, loadModule, newPage, screenshot, suite } from './lib.mjs';

const { en } = await loadModule('lang/en.ts');
const { ru } = await loadModule('lang/ru.ts');
const { tr } = await loadModule('lang/tr.ts');

/** A page in language `l` (the choice the language menu stores). */
async function pageIn(browser, l, options = {}) {
  const page = await newPage(browser, options);
  await page.goto(`${base}/rules`);
  await page.evaluate(lang => localStorage.setItem('icebound.lang', lang), l);
  return page;
}

/** Waits until `selector` says `text`, then checks it (the failure names what it said). */
async function says(page, selector, text, what) {
  try {
    await page.waitForFunction(([s, t]) => document.querySelector(s)?.textContent === t, [selector, text], { timeout: 5000 });
  } catch {
    // eq below says what was shown instead
  }
  eq(await page.textContent(selector), text, what);
}

/** Types `fen` into the editor's position box. */
async function typed(page, fen) {
  await page.fill('#editor-fen', fen);
  await page.dispatchEvent('#editor-fen', 'change');
}

const WORDS = {
  en: {
    impossible: 'Not a possible position:',
    king: 'field W: “Kc3” is a king, and Antarctos has no kings',
    goal: 'White is to move with a man on b8, on the far row: the game would already be over',
    kings: 'White has 2 kings, and a side has only one',
    badPosition: 'That position text cannot be read:',
    pawn: 'a pawn on h1: a pawn never stands on the first or the last rank',
    light: 'field W: a2 is a light square, and play is on the dark squares only',
    badFen: 'This start position cannot be used:',
    ep: 'en passant on e6 needs a pawn on e5 that has just moved two squares',
  },
  ru: {
    impossible: 'Такой позиции быть не может:',
    king: 'раздел W: «Kc3» — дамка, а дамок в Антарктосе нет',
    goal: 'Белые ходят, а их шашка на b8 уже стоит на последнем ряду: партия была бы уже окончена',
    kings: 'Белые: 2 короля, а король у стороны только один',
    badPosition: 'Эту запись позиции прочитать нельзя:',
    pawn: 'пешка на h1: пешка не может стоять на первой или последней горизонтали',
    light: 'раздел W: a2 — светлое поле, а играют только на тёмных',
    badFen: 'Эту начальную позицию нельзя использовать:',
    ep: 'для взятия на проходе на e6 на поле e5 должна стоять пешка, только что прошедшая два поля',
  },
  tr: {
    impossible: 'Olası bir konum değil:',
    king: 'W alanı: “Kc3” bir dama, oysa Antarctos\'ta dama yoktur',
    goal: 'hamle sırası Beyaz tarafta, oysa bu tarafın b8 karesindeki taşı zaten karşı sırada: oyun çoktan bitmiş olurdu',
    kings: 'Beyaz tarafın 2 şahı var; bir tarafın yalnızca bir şahı olur',
    badPosition: 'Bu konum metni okunamıyor:',
    pawn: 'h1 karesinde piyon var: piyon ilk ya da son sırada duramaz',
    light: 'W alanı: a2 açık renkli bir kare; oyun yalnızca koyu karelerde oynanır',
    badFen: 'Bu başlangıç konumu kullanılamaz:',
    ep: 'e6 karesinde geçerken alma için e5 karesinde az önce iki kare ilerlemiş bir piyon olmalı',
  },
};

/** The board editor: a typed position and one built on the board, in each language. */
async function editorIn(browser, l) {
  const w = WORDS[l];
  const page = await pageIn(browser, l);
  await page.goto(`${base}/editor/antarctos`);
  await page.waitForSelector('.cg-wrap cg-board piece');
  await page.waitForFunction(() => document.querySelector('#editor-verdict')?.className === 'ok');
  // A2: typed text with a king.
  await typed(page, 'W:WKc3:Bf6');
  await says(page, '#editor-why', w.king, `${l}: a king in Antarctos (A2)`);
  eq(await page.textContent('#editor-verdict'), `${w.impossible} ${w.king}`, `${l}: the verdict`);
  check(await page.getAttribute('#editor-analyse', 'aria-disabled') === 'true', `${l}: an impossible position cannot be analysed`);
  // A12, A18: built on the board, a White man on White's far row with White to move.
  await page.click('#editor-clear');
  await page.click('button.tool[data-tool=W]');
  await clickSquare(page, 'b8');
  await page.click('button.tool[data-tool=B]');
  await clickSquare(page, 'd6');
  await page.waitForFunction(() => /** @type {HTMLInputElement | null} */ (document.querySelector('#editor-fen'))?.value === 'W:Wb8:Bd6');
  await says(page, '#editor-why', w.goal, `${l}: a man of the side to move on its far row (A12)`);
  await screenshot(page, `editor-words-${l}`);
  // C12: Ice Age Chess, two White kings; the side is named in the language.
  await page.goto(`${base}/editor/iceage?fen=${encodeURIComponent('4k3/8/8/8/8/8/8/K3K3 w - - 0 1')}`);
  await says(page, '#editor-why', w.kings, `${l}: two kings of a side (C12)`);
  // The en-passant square: it needs the pawn that just moved two squares (C1).
  await typed(page, '4k3/8/8/8/8/8/8/4K3 w - e6 0 1');
  await says(page, '#editor-why', w.ep, `${l}: an impossible en-passant square (C1)`);
  // A reason worded in another language holds no English message (rule numbers, quotes of it).
  if (l !== 'en') check(!/\(C1|\(A\d/.test(await page.textContent('#editor-verdict')), `${l}: no rule number from the English message`);
}

/** The analysis board's position box and a bad position in its address, and the home page's start position. */
async function analysisIn(browser, l) {
  const w = WORDS[l];
  const page = await pageIn(browser, l);
  await page.goto(`${base}/analysis/iceage`);
  await page.waitForSelector('.cg-wrap cg-board piece');
  await page.fill('#fen-input', '4k3/8/8/8/8/8/8/4K2P w - - 0 1');
  await page.click('#fen-load');
  await says(page, '#message', `${w.badPosition} ${w.pawn}`, `${l}: a pawn on the first rank (C12), in the position box`);
  await page.goto(`${base}/analysis/antarctos?fen=${encodeURIComponent('W:Wa2:Bc7')}`);
  await says(page, '#message', `${w.badPosition} ${w.light}`, `${l}: a light square (A1), in the address`);
  // The home page's start position (POST /api/games carries the same fault).
  await page.goto(`${base}/?variant=antarctos&opponent=local`);
  await page.click('#new-game details summary');
  await page.fill('#fen', 'W:WKc3:Bf6');
  await page.click('#start');
  await page.waitForFunction(() => [...document.querySelectorAll('p.error')].some(p => p.textContent));
  const shown = await page.$$eval('p.error', ps => ps.map(p => p.textContent).filter(Boolean));
  eq(shown, [`${w.badFen} ${w.king}`], `${l}: a refused start position on the home page`);
}

/** Every code the server sends has words in every language, and every `pos.` key is a code. */
async function everyCodeHasWords(browser) {
  const page = await newPage(browser);
  await page.goto(`${base}/rules`);
  const cases = {
    antarctos: ['', 'X:Wb4:Bd6', 'W:Wb4:Bd6:Qa1', 'W:Wb4::Bd6', 'W:Wb4', 'W:Wb4:Bd6:Wc3', 'W:Wb4:B3d', 'W:Wb4:Bd6:Ii3', 'W:Wb1:Bc7',
      'W:Wb4:BKd6', 'W:Wc3:Bc3', 'W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3,b4:Bd6', 'W:Wb8:Bd6'],
    iceage: ['8/8/8/8/8/8/8/K1k5', '8/8/8/8/8/8/K1k5 w', '8/8/8/8/8/8/8/K1k4 w', '8/8/8/8/8/8/8/K1x5 w', '8/8/8/8/8/8/8/K1k2K2 w',
      'P7/8/8/8/8/8/8/K1k5 w', '8/8/8/8/8/8/8/K1k5 x', 'k7/8/8/8/8/8/8/R3K3 w', '8/8/8/8/8/8/8/K1k5 w xK', '8/8/8/8/8/8/8/K1k5 w K',
      '4k3/8/8/8/8/8/8/4K3 w - z9', '4k3/8/8/8/8/8/8/4K3 w - e3', '4k3/8/4p3/8/8/8/8/4K3 w - e6', '4k3/4p3/8/4p3/8/8/8/4K3 w - e6',
      '4k3/8/8/8/8/8/8/4K3 b - d3', '4k3/8/8/8/8/8/8/4K3 w - - x', '4k3/8/8/8/8/8/8/4K3 w - - 0 1x',
      '4k3/8/8/8/8/8/8/4K3 w - - 0 99999999999', '4k3/8/8/8/8/8/8/4K3 w - - 0 0'],
  };
  const seen = new Set();
  for (const [variant, fens] of Object.entries(cases)) {
    for (const fen of fens) {
      const a = await api(page, 'POST', '/api/positions', { variant, fen });
      eq(a.status, 400, `${variant} ${fen}`);
      const code = a.json?.error?.position?.code;
      check(typeof code === 'string', `${variant} "${fen}" carries a code: ${JSON.stringify(a.json)}`);
      seen.add(code);
      for (const [l, dict] of [['en', en], ['ru', ru], ['tr', tr]]) check(typeof dict[`pos.${code}`] === 'string', `${l} words pos.${code}`);
      check(ru[`pos.${code}`] !== en[`pos.${code}`] && tr[`pos.${code}`] !== en[`pos.${code}`], `pos.${code} is translated`);
    }
  }
  eq(Object.keys(en).filter(k => k.startsWith('pos.')).sort(), [...seen].map(c => `pos.${c}`).sort(), 'the pos. keys are the codes the rules send');
}

/** A code this page does not know (a newer server) shows the server's message. */
async function unknownCode(browser) {
  // No service worker: once it controls the page (its install races the visit to /rules), it
  // answers /engine/manifest.json itself, past the route below, and the engine in the browser
  // judged the position instead of the server.
  const page = await pageIn(browser, 'ru', { serviceWorkers: 'block' });
  // The server's word (the editor asks the server on a site built without the engine for the
  // browser, or the engine in the browser judges the position and the server is not asked).
  await page.route('**/engine/manifest.json', route => route.fulfill({ status: 404, body: 'no engine' }));
  await page.route('**/api/positions', route => route.fulfill({
    status: 400,
    contentType: 'application/json',
    body: JSON.stringify({ error: { code: 'bad_request', message: "fen 'W:Wc3:Bf6': a reason from a newer server", position: { code: 'from_a_newer_server', args: ['c3'] } } }),
  }));
  await page.goto(`${base}/editor/antarctos?fen=${encodeURIComponent('W:Wc3:Bf6')}`);
  // The verdict as a whole is waited for: the page is drawn again when /api/me answers (the
  // header's log-in link), and the new page's verdict is empty until its own check returns.
  await says(page, '#editor-verdict', `${WORDS.ru.impossible} a reason from a newer server`, 'after the verdict in the page\'s language');
  eq(await page.textContent('#editor-why'), 'a reason from a newer server', 'an unknown code falls back to the message, without its quote of the text');
}

/** The server's word on who is logged in, coming late, redraws the header and not the editor. */
async function lateAccountAnswer(browser) {
  const page = await newPage(browser);
  let answered = false;
  await page.route('**/api/me', async route => {
    await new Promise(r => setTimeout(r, 2000));
    answered = true;
    await route.continue();
  });
  await page.goto(`${base}/editor/antarctos`);
  await page.waitForSelector('.cg-wrap cg-board piece');
  await typed(page, 'W:Wc3:Bf6');
  await says(page, '#editor-verdict', 'A possible position.', 'the typed position is judged');
  check(!answered, 'the position was typed before the server said who the player is');
  await page.waitForSelector('#account-link', { timeout: 10000 });
  check(answered, 'the log-in link came with the answer');
  eq(await page.inputValue('#editor-fen'), 'W:Wc3:Bf6', 'the typed position outlives the answer');
  eq(await page.textContent('#editor-verdict'), 'A possible position.', 'and so does its verdict');
}

await suite([
  ['every code the server sends has words in en, ru and tr', everyCodeHasWords],
  ...['en', 'ru', 'tr'].flatMap(l => [
    [`the board editor in ${l}`, b => editorIn(b, l)],
    [`the analysis board and the home page in ${l}`, b => analysisIn(b, l)],
  ]),
  ['an unknown code shows the server\'s message', unknownCode],
  ['an account answer after an edit keeps the edit', lateAccountAnswer],
]);
