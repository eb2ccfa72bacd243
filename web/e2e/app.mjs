// The installable app (issue 42): the web manifest, the service worker that keeps the page, its
// assets and the engine's module, the routes that load with the network gone, and the offline
// notices of the online-only parts, which go when the server answers again.

import { api, base, check, eq, newPage, screenshot, suite } from './lib.mjs';

/** Waits until the service worker controls the page (after its first install, a reload).
 * @param {import('playwright-core').Page} page
 */
async function controlled(page) {
  await page.evaluate(() => navigator.serviceWorker.ready);
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) {
    await page.reload();
  }
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 15000 });
}

/** @type {import('playwright-core').Page | null} */
let installed = null;

async function installs(browser) {
  const page = await newPage(browser);
  await page.goto(`${base}/`);
  eq(await page.getAttribute('link[rel=manifest]', 'href'), '/manifest.webmanifest', 'index.html links the manifest');
  const manifest = await api(page, 'GET', '/manifest.webmanifest');
  eq(manifest.status, 200, 'the manifest is served');
  eq([manifest.json.display, manifest.json.start_url, manifest.json.theme_color], ['standalone', '/', '#102b40'], 'the manifest: standalone, from /, the header colour');
  for (const icon of manifest.json.icons) {
    const res = await page.request.get(`${base}${icon.src}`);
    eq([res.status(), res.headers()['content-type']], [200, icon.type], `icon ${icon.src}`);
  }
  const sw = await page.request.get(`${base}/sw.js`);
  eq([sw.status(), sw.headers()['cache-control'], sw.headers()['content-type']], [200, 'no-cache', 'text/javascript; charset=utf-8'], '/sw.js: served, never cached for long');
  await controlled(page);
  const cached = await page.evaluate(async () => {
    const names = await caches.keys();
    const cache = await caches.open(names[0]);
    return { names, urls: (await cache.keys()).map(r => new URL(r.url).pathname) };
  });
  eq(cached.names.length, 1, 'one cache, the version\'s own');
  check(/^icebound-[0-9a-f]{16}$/.test(cached.names[0]), `the cache is named by the version: ${cached.names[0]}`);
  const script = await page.getAttribute('script[src^="/assets/main-"]', 'src');
  for (const url of ['/', script, '/manifest.webmanifest', '/assets/icons/icon-192.png']) {
    check(cached.urls.includes(url), `the worker keeps ${url}`);
  }
  check(!cached.urls.some(u => u.startsWith('/api/')), 'no API answer is kept');
  const engine = await page.request.get(`${base}/engine/manifest.json`);
  if (engine.ok()) {
    const wasm = (await engine.json()).wasm;
    check(cached.urls.includes(wasm), `the worker keeps the engine's module ${wasm}`);
    const res = await page.request.get(`${base}${wasm}`);
    eq(res.headers()['cache-control'], 'public, max-age=31536000, immutable', 'the module is cached for long');
  } else {
    console.log('(no engine module in this build: scripts/build-wasm.sh was not run)');
  }
  const asset = await page.request.get(`${base}${script}`);
  eq(asset.headers()['cache-control'], 'public, max-age=31536000, immutable', 'the hashed bundle is cached for long');
  installed = page;
}

async function loadsOffline() {
  const page = installed;
  check(page !== null, 'the install scenario ran');
  if (page === null) return;
  await page.context().setOffline(true);
  for (const [path, selector] of [
    ['/', '#start-form'],
    ['/rules', '.rules'],
    ['/rules/iceage', '.rules'],
    ['/analysis/antarctos', '.cg-wrap'],
    ['/editor/iceage', '.cg-wrap'],
  ]) {
    await page.goto(`${base}${path}`);
    await page.waitForSelector(selector, { timeout: 10000 });
    check(await page.isVisible('#offline-badge'), `${path} offline: the header says so`);
  }
  await page.goto(`${base}/`);
  await page.waitForSelector('#offline-part');
  check(!(await page.isVisible('#lobby')), 'offline, the home page has no lobby');
  check((await page.textContent('#offline-part')).includes('lobby'), 'the lobby\'s notice names it');
  await screenshot(page, 'home-offline');
  for (const path of ['/my', '/leaderboard/antarctos', '/login', '/stats', '/@/nobody']) {
    await page.goto(`${base}${path}`);
    await page.waitForSelector('#offline', { timeout: 10000 });
    eq(await page.$$eval('main .error', e => e.length), 0, `${path} offline: a notice, no error`);
  }
  // Back online: the notice goes, the page is drawn.
  await page.goto(`${base}/my`);
  await page.waitForSelector('#offline');
  await page.context().setOffline(false);
  await page.waitForSelector('#offline', { state: 'detached', timeout: 10000 });
  await page.waitForSelector('#my-games, main p.muted', { timeout: 10000 });
  check(!(await page.isVisible('#offline-badge')), 'online again: no offline mark');
}

async function serverGone(browser) {
  // The browser is online, but the server does not answer: the API's requests fail (routed to
  // a refused connection; without the service worker, whose requests routes do not see).
  const page = await newPage(browser, { serviceWorkers: 'block' });
  await page.goto(`${base}/`);
  await page.waitForSelector('#lobby');
  const refuse = route => route.abort('connectionrefused');
  await page.context().route('**/api/**', refuse);
  await page.goto(`${base}/leaderboard/antarctos`);
  await page.waitForSelector('#offline', { timeout: 10000 });
  check(await page.isVisible('#offline-badge'), 'the header says offline');
  eq(await page.$$eval('main .error', e => e.length), 0, 'no error shown');
  await page.goto(`${base}/`);
  await page.waitForSelector('#offline-part', { timeout: 10000 });
  await screenshot(page, 'server-gone');
  // The server is back: the probe (every 5 s) finds it and the lobby returns by itself.
  await page.context().unroute('**/api/**', refuse);
  await page.waitForSelector('#lobby', { timeout: 15000 });
  check(!(await page.isVisible('#offline-badge')), 'the server answers: no offline mark');
}

await suite([
  ['the app installs: manifest, icons, service worker and its cache', installs],
  ['the page\'s routes load offline, the online-only parts say so', loadsOffline],
  ['a server that stops answering: offline notices, then back', serverGone],
]);
