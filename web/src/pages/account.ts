// The account pages (issue 13): `/login` (log in, or register: the browser's games become the
// account's) and `/account` (the name, a new password, log out). The server checks every rule
// (docs/api.md, Accounts); the page only says in the player's language what went wrong.

import { api, ApiError } from '../api';
import { currentUser, setMe } from '../account';
import { h, mount } from '../dom';
import { errorWords, t } from '../i18n';
import { navigate } from '../nav';
import { setTitle } from '../title';

const NAME = /^[A-Za-z0-9_-]{3,20}$/;

/** What went wrong, in words: the usual codes of the account routes, else the generic words. */
function accountError(err: unknown, passwordOnly = false): string {
  if (err instanceof ApiError) {
    if (err.code === 'bad_credentials') return t(passwordOnly ? 'account.bad_password' : 'account.bad_credentials');
    if (err.code === 'conflict' && err.message.includes('taken')) return t('account.taken');
    if (err.code === 'conflict') return t('account.logged_in');
    if (err.code === 'not_logged_in') return t('account.not_logged_in');
    if (err.code === 'cookie_conflict') return t('account.cookie_conflict');
  }
  return errorWords(err);
}

function field(id: string, label: string, type: string, autocomplete: string): [HTMLElement, HTMLInputElement] {
  const input = h(`input#${id}`, { type, autocomplete, required: true, spellcheck: 'false', autocapitalize: 'off' }) as HTMLInputElement;
  return [h('label.field', h('span', label), input), input];
}

/** `/login`: log in, or register. */
export function loginPage(root: HTMLElement): void {
  setTitle(t('account.login_title'));
  const [nameRow, name] = field('login-name', t('account.username'), 'text', 'username');
  const [pwRow, pw] = field('login-password', t('account.password'), 'password', 'current-password');
  const loginMsg = h('p.error#login-error', { role: 'alert' });
  const [newNameRow, newName] = field('register-name', t('account.username'), 'text', 'username');
  const [newPwRow, newPw] = field('register-password', t('account.password'), 'password', 'new-password');
  const registerMsg = h('p.error#register-error', { role: 'alert' });
  const done = (r: { username: string }) => {
    setMe(r.username);
    navigate('/my');
  };
  const login = h('form.card.account#login-form', {
    onsubmit: (e: Event) => {
      e.preventDefault();
      loginMsg.textContent = '';
      api.logIn(name.value.trim(), pw.value).then(done, err => { loginMsg.textContent = accountError(err); });
    },
  }, h('h1', t('account.login_title')), nameRow, pwRow, h('button.primary#login-submit', { type: 'submit' }, t('account.login')), loginMsg);
  const register = h('form.card.account#register-form', {
    onsubmit: (e: Event) => {
      e.preventDefault();
      registerMsg.textContent = '';
      const n = newName.value.trim();
      if (!NAME.test(n)) { registerMsg.textContent = t('account.name_rule'); return; }
      if ([...newPw.value].length < 8) { registerMsg.textContent = t('account.password_rule'); return; }
      api.register(n, newPw.value).then(done, err => { registerMsg.textContent = accountError(err); });
    },
  }, h('h1', t('account.register_title')), h('p.muted', t('account.register_about')), newNameRow, h('p.muted.small', t('account.name_rule')), newPwRow, h('p.muted.small', t('account.password_rule')),
  h('button.primary#register-submit', { type: 'submit' }, t('account.register')), registerMsg);
  mount(root, h('div.account-pages', login, register));
  if (currentUser()) mount(root, h('section.card', h('p', t('account.signed_in_as', { name: currentUser()! })), h('a.button#to-account', { href: '/account' }, t('account.title'))));
}

/** `/account`: the name, a new password, log out. */
export function accountPage(root: HTMLElement): void {
  setTitle(t('account.title'));
  const user = currentUser();
  if (!user) {
    mount(root, h('section.card', h('h1', t('account.title')), h('p', t('account.not_logged_in')), h('a.button.primary#to-login', { href: '/login' }, t('account.login'))));
    return;
  }
  const [oldRow, old] = field('old-password', t('account.old_password'), 'password', 'current-password');
  const [newRow, fresh] = field('new-password', t('account.new_password'), 'password', 'new-password');
  const msg = h('p#password-result', { role: 'status' });
  const form = h('form.account#password-form', {
    onsubmit: (e: Event) => {
      e.preventDefault();
      msg.className = '';
      msg.textContent = '';
      if ([...fresh.value].length < 8) { msg.className = 'error'; msg.textContent = t('account.password_rule'); return; }
      api.changePassword(old.value, fresh.value).then(
        () => { msg.textContent = t('account.password_changed'); old.value = ''; fresh.value = ''; },
        err => { msg.className = 'error'; msg.textContent = accountError(err, true); },
      );
    },
  }, h('h2', t('account.change_password')), oldRow, newRow, h('button#password-submit', { type: 'submit' }, t('account.change_password')), msg);
  mount(root, h('section.card.account-page',
    h('h1#account-name', t('account.signed_in_as', { name: user })),
    h('p', h('a#account-games', { href: '/my' }, t('nav.my'))),
    form,
    h('button#logout', { type: 'button', onclick: () => api.logOut().then(() => { setMe(null); navigate('/'); }, err => { msg.className = 'error'; msg.textContent = errorWords(err); }) }, t('account.logout'))));
}
