// The installable app (issue 42): registers the service worker (/sw.js, written by
// crates/site-http/build.rs from sw.js), which keeps the page, its assets and the engine's
// module for offline use. A page built without it (plain `npm run build`) has no /sw.js: the
// registration then fails quietly and the site works online as before.

/** Registers /sw.js once the page has loaded, so that its downloads never slow the first
 * drawing. Does nothing where service workers are unavailable (plain HTTP off localhost). */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(err => {
      console.info('icebound: no offline copy of the page (service worker):', String(err?.message ?? err));
    });
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
