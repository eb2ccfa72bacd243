// E-mail on the account pages (issue 38; docs/api.md, E-mail): the address and whether it is
// confirmed, the low-time reminders switch, and account recovery: "forgot your password" on
// the log-in page and `/reset?token=` where the mailed link leads.

import { api, type EmailView } from '../api';
import { h, mount } from '../dom';
import { errorWords, t } from '../i18n';
import { setTitle } from '../title';

/** The account page's e-mail section. */
export function emailSection(): HTMLElement {
  const state = h('p#email-state');
  const msg = h('p#email-result', { role: 'status' });
  const input = h('input#email-input', { type: 'email', autocomplete: 'email', placeholder: 'name@example.org' }) as HTMLInputElement;
  const lowTime = h('input#email-low-time', { type: 'checkbox' }) as HTMLInputElement;
  const digest = h('input#email-digest', { type: 'checkbox' }) as HTMLInputElement;
  const failed = (err: unknown) => { msg.className = 'error'; msg.textContent = errorWords(err); };
  const show = (v: EmailView) => {
    state.textContent = v.email === null ? t('email.none')
      : v.verified ? t('email.confirmed', { email: v.email }) : t('email.unconfirmed', { email: v.email });
    lowTime.checked = v.low_time;
    lowTime.disabled = v.email === null;
    digest.checked = v.digest;
    digest.disabled = v.email === null;
    if (!v.mail_on) msg.textContent = t('email.off');
  };
  // Back from the link of the mail.
  const came = new URLSearchParams(location.search).get('email');
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
  return h('details.forgot#forgot',
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
  mount(root, h('form.card.account#reset-form', {
    onsubmit: (e: Event) => {
      e.preventDefault();
      msg.className = '';
      if ([...pw.value].length < 8) { msg.className = 'error'; msg.textContent = t('account.password_rule'); return; }
      api.resetPassword(token, pw.value).then(
        () => mount(msg, t('email.reset_done'), ' ', h('a#reset-login', { href: '/login' }, t('account.login'))),
        err => { msg.className = 'error'; msg.textContent = errorWords(err); },
      );
    },
  }, h('h1', t('email.reset_title')), h('label', t('account.new_password'), pw), h('p.muted.small', t('account.password_rule')),
  h('button.primary#reset-submit', { type: 'submit' }, t('email.reset_submit')), msg));
}
