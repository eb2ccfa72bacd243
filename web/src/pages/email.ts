// E-mail on the account pages (issue 38; docs/api.md, E-mail): the address and whether it is
// confirmed, the low-time reminders switch, and account recovery: "forgot your password" on
// the log-in page and `/reset?token=` where the mailed link leads.

import { api, ApiError, type EmailView } from '../api';
import { h, mount } from '../dom';
import { errorWords, t } from '../i18n';
import { setTitle } from '../title';

/** What the confirmation link said (`/account?email=verified|bad_link`), else null. */
function linkOutcome(): 'verified' | 'bad_link' | null {
  const came = new URLSearchParams(location.search).get('email');
  return came === 'verified' || came === 'bad_link' ? came : null;
}

/** The confirmation link's outcome for a page that is not logged in (the link works without
 * a session): said first, before the log-in prompt; null when the page did not come from it. */
export function linkOutcomeNotice(): HTMLElement | null {
  const came = linkOutcome();
  if (came === 'verified') return h('p#email-result', { role: 'status' }, t('email.just_confirmed'));
  if (came === 'bad_link') return h('p.error#email-result', { role: 'status' }, t('email.bad_link'));
  return null;
}

/** The account page's e-mail section. */
export function emailSection(): HTMLElement {
  const state = h('p#email-state');
  const msg = h('p#email-result', { role: 'status' });
  const input = h('input#email-input', { type: 'email', autocomplete: 'email', placeholder: 'name@example.org' }) as HTMLInputElement;
  const lowTime = h('input#email-low-time', { type: 'checkbox' }) as HTMLInputElement;
  const digest = h('input#email-digest', { type: 'checkbox' }) as HTMLInputElement;
  const failed = (err: unknown) => { msg.className = 'error'; msg.textContent = errorWords(err); };
  // Back from the link of the mail.
  let came = linkOutcome();
  const show = (v: EmailView) => {
    state.textContent = v.email === null ? t('email.none')
      : v.verified ? t('email.confirmed', { email: v.email }) : t('email.unconfirmed', { email: v.email });
    lowTime.checked = v.low_time;
    lowTime.disabled = v.email === null;
    digest.checked = v.digest;
    digest.disabled = v.email === null;
    // A second click on the link (a used link) while the address is confirmed: no error.
    if (came === 'bad_link' && v.verified) { msg.className = ''; msg.textContent = t('email.already_confirmed'); }
    came = null;
    if (!v.mail_on) msg.textContent = t('email.off');
  };
  if (came === 'verified') msg.textContent = t('email.just_confirmed');
  if (came === 'bad_link') { msg.className = 'error'; msg.textContent = t('email.bad_link'); }
  for (const box of [lowTime, digest]) {
    box.addEventListener('change', () => {
      api.emailKinds(digest.checked, lowTime.checked).then(show, failed);
    });
  }
  const form = h('form.account#email-form', {
    onsubmit: (e: Event) => {
      e.preventDefault();
      msg.className = '';
      msg.textContent = '';
      api.setEmail(input.value.trim()).then(v => { show(v); input.value = ''; msg.textContent = t('email.sent', { email: v.email ?? '' }); }, failed);
    },
  }, h('label', t('email.address'), input), h('button#email-submit', { type: 'submit' }, t('email.set')));
  api.email().then(show, failed);
  return h('section.email#email',
    h('h2', t('email.title')),
    h('p.muted', t('email.about')),
    state, form,
    h('label.check', digest, h('span', t('email.digest'))),
    h('label.check', lowTime, h('span', t('email.low_time'))),
    msg);
}

/** The log-in page's "forgot your password": asks for a link by the account's name. */
export function forgotForm(): HTMLElement {
  const name = h('input#forgot-name', { type: 'text', autocomplete: 'username' }) as HTMLInputElement;
  const msg = h('p#forgot-result', { role: 'status' });
  return h('details.forgot#forgot', { open: location.hash === '#forgot' },
    h('summary', t('email.forgot')),
    h('form.account#forgot-form', {
      onsubmit: (e: Event) => {
        e.preventDefault();
        msg.className = '';
        api.askReset(name.value.trim()).then(() => { msg.textContent = t('email.reset_sent'); }, err => { msg.className = 'error'; msg.textContent = errorWords(err); });
      },
    }, h('label', t('account.username'), name), h('button#forgot-submit', { type: 'submit' }, t('email.send_link')), msg));
}

/** `/reset?token=`: a new password from the mailed link. */
export function resetPage(root: HTMLElement): void {
  setTitle(t('email.reset_title'));
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const pw = h('input#reset-password', { type: 'password', autocomplete: 'new-password' }) as HTMLInputElement;
  const msg = h('p#reset-result', { role: 'status' });
  const askAgain = () => h('a#reset-forgot', { href: '/login#forgot' }, t('email.ask_new_link'));
  const bad = (words: string) => { msg.className = 'error'; mount(msg, words, ' ', askAgain()); };
  // A link cut short (no token): said at once, with the way to a new one.
  const warning = token ? null : h('p.error#reset-incomplete', { role: 'alert' }, t('email.reset_no_token'), ' ', askAgain());
  mount(root, h('form.card.account#reset-form', {
    onsubmit: (e: Event) => {
      e.preventDefault();
      msg.className = '';
      msg.textContent = '';
      if ([...pw.value].length < 8) { msg.className = 'error'; msg.textContent = t('account.password_rule'); return; }
      api.resetPassword(token, pw.value).then(
        () => mount(msg, t('email.reset_done'), ' ', h('a#reset-login', { href: '/login' }, t('account.login'))),
        err => {
          // The server's 400 for the link (unknown, used or expired) says so in its message.
          if (err instanceof ApiError && err.code === 'bad_request' && /link/.test(err.message)) bad(t('email.reset_bad_link'));
          else if (err instanceof ApiError && err.code === 'bad_request') bad(err.message);
          else { msg.className = 'error'; msg.textContent = errorWords(err); }
        },
      );
    },
  }, h('h1', t('email.reset_title')), warning, h('label', t('account.new_password'), pw), h('p.muted.small', t('account.password_rule')),
  h('button.primary#reset-submit', { type: 'submit' }, t('email.reset_submit')), msg));
}
