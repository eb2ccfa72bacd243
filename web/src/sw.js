// The service worker of the installable app (issue 42), served as /sw.js (scope: the whole
// site). crates/site-http/build.rs writes dist/sw.js as two lines,
//   const VERSION = "<16 hex digits: FNV-1a 64 of every file of dist/, names and bytes>";
//   const PRECACHE = ["/", "/assets/main-<hash>.js", ..., "/engine/icebound_engine-<hash>.wasm"];
// followed by this file. A new deploy changes VERSION, so the browser installs the new worker,
// which fills a cache of its own ("icebound-<VERSION>"), takes over at once and deletes the
// caches of older versions.
//
// What it serves:
// - a page navigation (any route of the single page): the network, or, when the server cannot
//   be reached, the cached page shell ("/"), so that the home page, rules, analysis board,
//   editor and offline play load offline;
// - a file of PRECACHE: from the cache when its name has a content hash (it never changes),
//   otherwise the network first and the cache when the network fails;
// - anything under /api/ (and every other request): never touched, never cached.
/* global VERSION, PRECACHE */

const CACHE = `icebound-${VERSION}`;
const PREFIX = 'icebound-';
/** A name with a content hash: `main-JTWFEO7P.js`, `icebound_engine-0123456789abcdef.wasm`. */
const HASHED = /-[0-9A-Za-z]{8,16}\.[a-z0-9]+$/;
const precached = new Set(PRECACHE);

self.addEventListener('install', event => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // `reload`: past the HTTP cache, so that the cache holds this deploy's files.
    await cache.addAll(PRECACHE.map(url => new Request(url, { cache: 'reload' })));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', event => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', event => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/api/') || url.pathname === '/healthz' || url.pathname === '/sw.js') return;
  if (request.mode === 'navigate') {
    event.respondWith(network(request, '/'));
  } else if (precached.has(url.pathname)) {
    event.respondWith(HASHED.test(url.pathname) ? cacheFirst(url.pathname) : network(request, url.pathname));
  }
});

/** The network's answer, or the cached `fallback` when the server cannot be reached. */
async function network(request, fallback) {
  try {
    return await fetch(request);
  } catch (err) {
    const cached = await caches.match(fallback, { cacheName: CACHE });
    if (cached) return cached;
    throw err;
  }
}

/** The cached copy, or the network's when the cache lacks it. */
async function cacheFirst(path) {
  const cached = await caches.match(path, { cacheName: CACHE });
  return cached ?? fetch(path);
}

// Web Push (issue 38): a message from the site (docs/api.md, "Web Push") is shown as a system
// notification, one per notification id (`tag`: a repeat replaces it); a click opens or focuses
// the site at the page it names.
self.addEventListener('push', event => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = { text: event.data ? event.data.text() : '' };
  }
  event.waitUntil(self.registration.showNotification('icebound', {
    body: message.text || '',
    tag: message.id || undefined,
    icon: '/assets/icons/icon-192.png',
    data: { url: typeof message.url === 'string' && message.url.startsWith('/') ? message.url : '/' },
  }));
});

self.addEventListener('notificationclick', event => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || '/', self.location.origin).href;
  event.waitUntil((async () => {
    for (const client of await self.clients.matchAll({ type: 'window', includeUncontrolled: true })) {
      if (new URL(client.url).origin === self.location.origin && 'focus' in client) {
        await client.focus();
        if ('navigate' in client) await client.navigate(url);
        return;
      }
    }
    await self.clients.openWindow(url);
  })());
});
