// Web Push on this device (issue 38): after a player's first correspondence game the page offers
// to notify this browser (a system notification when the site is closed); the bell's list has
// the same switch. The browser's push service gets the site's VAPID key
// (`GET /api/push/key`), and the subscription is stored with `POST /api/push/subscriptions`.

import { call } from '../api';
import { boardsMoved, h } from '../dom';
import { t } from '../i18n';

const DISMISSED = 'icebound.push_offer_dismissed';

/** Whether this browser can take pushes at all. */
export function pushSupported(): boolean {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

function keyBytes(b64: string): ArrayBuffer {
  const text = atob(b64.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (b64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes.buffer;
}

/** This browser's subscription, if any. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const reg = await navigator.serviceWorker.getRegistration();
  return reg ? reg.pushManager.getSubscription() : null;
}

/** Asks the player, subscribes this browser and tells the site. */
export async function subscribe(): Promise<void> {
  if ((await Notification.requestPermission()) !== 'granted') throw new Error(t('notify.push_denied'));
  const reg = await navigator.serviceWorker.ready;
  const { vapid_public_key } = await call<{ vapid_public_key: string }>('GET', '/api/push/key');
  const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(vapid_public_key) });
  await call<void>('POST', '/api/push/subscriptions', sub.toJSON());
}

/** Ends this browser's subscription, here and on the site. */
export async function unsubscribe(): Promise<void> {
  const sub = await currentSubscription();
  if (!sub) return;
  await call<void>('DELETE', '/api/push/subscriptions', { endpoint: sub.endpoint });
  await sub.unsubscribe();
}

/** The offer, once per browser, on the page of a correspondence game the player plays: a band
 * above `#app` with "Turn on" and "Not now", in the page's flow so that it covers no control
 * (browser finding 4 of round 5: a corner box lay over the chat's Send). Nothing when pushes
 * are not possible here, already on, refused, or the offer was dismissed. */
export async function offerPush(): Promise<void> {
  if (!pushSupported() || Notification.permission === 'denied' || localStorage.getItem(DISMISSED)) return;
  if (document.getElementById('push-offer')) return;
  try {
    if (await currentSubscription()) return;
  } catch {
    return;
  }
  const error = h('p.error', { role: 'alert' });
  const close = () => { localStorage.setItem(DISMISSED, '1'); box.remove(); boardsMoved(); };
  const on = h('button.primary#push-offer-on', {
    type: 'button',
    onclick: async () => {
      on.setAttribute('disabled', '');
      try {
        await subscribe();
        box.remove();
        boardsMoved();
      } catch (err) {
        error.textContent = err instanceof Error ? err.message : String(err);
        on.removeAttribute('disabled');
      }
    },
  }, t('notify.push_on'));
  const box = h('section.push-offer#push-offer', { role: 'region', 'aria-labelledby': 'push-offer-text' },
    h('p#push-offer-text', t('notify.push_offer')),
    h('div.actions', on, h('button#push-offer-later', { type: 'button', onclick: close }, t('notify.push_later'))),
    error);
  document.body.insertBefore(box, document.getElementById('app'));
  boardsMoved();
}
