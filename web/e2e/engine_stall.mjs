// A stalled download of the engine's WebAssembly module (the route is never answered, as on a
// connection that hangs): while the module loads the analysis board asks the server nothing
// (the engine in the browser is the default, and a page that works locally costs the server
// nothing, issue 42); after engine/client.ts's timeout (15 s) it says once that the engine in
// the browser did not load, and the server's shows the position; /offline says it is loading,
// then that it did not load, with a button that tries again (and, the route answered again, the
// game form comes).
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
  const start = Date.now();
  page.on('request', r => {
    if (/\/api\/(analysis|positions)\b/.test(r.url())) asked.push({ path: new URL(r.url()).pathname, at: Date.now() - start });
  });
  await page.goto(`${base}/analysis/antarctos`);
  await page.waitForFunction(() => document.querySelector('#engine-note')?.textContent.includes('did not load'), null, { timeout: 25000 });
  const waited = Date.now() - start;
  console.log(`the fallback said so after ${waited} ms (${seen.wasm} wasm request)`);
  check(seen.wasm >= 1, 'the page asked for the wasm module');
  check(waited >= 14000, `not before the timeout (${waited} ms)`);
  check(asked.every(r => r.at >= 14000), `no server request while the module loads: ${JSON.stringify(asked)}`);
  const message = (await page.textContent('#engine-note')) ?? '';
  check(message.includes("the server's engine is used"), `the message says the server's engine is used: ${message}`);
  check(message.split('did not load').length === 2, 'said once');
  await page.waitForFunction(() => document.querySelector('#analysis-status')?.textContent.includes('White to move'), null, { timeout: 10000 });
  check(await page.$('.cg-wrap cg-board piece') !== null, 'the board shows its pieces from the server');
  check(asked.some(r => r.path === '/api/positions'), `the server answered the position (requests: ${JSON.stringify(asked)})`);
  check(((await page.textContent('#engine-note')) ?? '').includes('did not load'), 'the note stays once the position is shown');
  check(await page.$('#engine-local') === null, 'no switch to an engine that did not load');
  await page.click('#engine-toggle');
  await page.waitForFunction(() => document.querySelector('#engine')?.textContent.includes('on the server'), null, { timeout: 20000 });
  check(asked.some(r => r.path.startsWith('/api/analysis')), `the server's engine analyses (requests: ${JSON.stringify(asked)})`);
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
  ['the analysis board waits for the module, then falls back to the server once', analysisFallsBack],
  ['/offline says the engine did not load and tries again', offlineRetries],
]);
