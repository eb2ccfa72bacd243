// A stalled download of the engine's WebAssembly module (the route is never answered, as on a
// connection that hangs): the analysis board shows the position at once from the server while
// the module loads, and after engine/client.ts's timeout (15 s) it says once that the engine in
// the browser did not load and uses the server's; /offline says it is loading, then that it did
// not load, with a button that tries again (and, the route answered again, the game form comes).
//
// A site built without the wasm toolchain (no /engine/manifest.json) has nothing to stall: the
// script then says so and passes, except under CI=true, where it fails.

import { base, check, newPage, suite } from './lib.mjs';

const WASM = /\/engine\/[^/]*\.wasm$/;

const manifest = await fetch(`${base}/engine/manifest.json`).then(r => (r.ok ? r.json() : null), () => null);
if (!manifest) {
  const msg = 'engine_stall.mjs: the server has no engine for the browser (/engine/manifest.json: built without scripts/build-wasm.sh)';
  if (process.env.CI === 'true') {
    console.error(`FAIL: ${msg}`);
    process.exit(1);
  }
  console.log(`SKIPPED: ${msg}`);
  process.exit(0);
}

/** A page whose wasm requests are never answered (no service worker: it would fetch past the
 * route); returns the page and the number of wasm requests seen. */
async function stalledPage(browser) {
  const page = await newPage(browser, { serviceWorkers: 'block' });
  const seen = { wasm: 0 };
  await page.route(WASM, () => { seen.wasm++; });
  return { page, seen };
}

async function analysisFallsBack(browser) {
  const { page, seen } = await stalledPage(browser);
  const asked = [];
  page.on('request', r => { if (/\/api\/(analysis|positions)\b/.test(r.url())) asked.push(new URL(r.url()).pathname); });
  const start = Date.now();
  await page.goto(`${base}/analysis/antarctos`);
  await page.waitForFunction(() => document.querySelector('#analysis-status')?.textContent.includes('White to move'), null, { timeout: 5000 });
  const shown = Date.now() - start;
  console.log(`position shown after ${shown} ms, the wasm stalled (${seen.wasm} request)`);
  check(seen.wasm >= 1, 'the page asked for the wasm module');
  check(await page.$('.cg-wrap cg-board piece') !== null, 'the board shows its pieces while the module loads');
  check(asked.includes('/api/positions'), `the server answered the position (requests: ${asked.join(', ')})`);
  await page.waitForFunction(() => document.querySelector('#message')?.textContent.includes('did not load'), null, { timeout: 25000 });
  const waited = Date.now() - start;
  console.log(`the fallback said so after ${waited} ms`);
  check(waited >= 14000, `not before the timeout (${waited} ms)`);
  const message = (await page.textContent('#message')) ?? '';
  check(message.includes("the server's engine is used"), `the message says the server's engine is used: ${message}`);
  check(message.split('did not load').length === 2, 'said once');
  check(await page.$('#engine-local') === null, 'no switch to an engine that did not load');
  await page.click('#engine-toggle');
  await page.waitForFunction(() => document.querySelector('#engine')?.textContent.includes('on the server'), null, { timeout: 20000 });
  check(asked.some(p => p.startsWith('/api/analysis')), `the server's engine analyses (requests: ${asked.join(', ')})`);
  await page.context().close();
}

async function offlineRetries(browser) {
  const { page } = await stalledPage(browser);
  await page.goto(`${base}/offline`);
  await page.waitForSelector('#offline-loading');
  check(((await page.textContent('#offline-loading')) ?? '').includes('Loading the engine'), '/offline says the engine is loading');
  await page.waitForSelector('#offline-failed', { timeout: 25000 });
  const failed = (await page.textContent('#offline-failed')) ?? '';
  check(failed.includes('did not load'), `/offline says the engine did not load: ${failed}`);
  // The connection is back: the retry loads the module and the form comes.
  await page.unroute(WASM);
  await page.click('#offline-retry');
  await page.waitForSelector('#offline-start', { timeout: 20000 });
  check(await page.$('#offline-failed') === null, 'the failure is gone after the retry');
  await page.context().close();
}

await suite([
  ['the analysis board shows the position at once and falls back to the server', analysisFallsBack],
  ['/offline says the engine did not load and tries again', offlineRetries],
]);
