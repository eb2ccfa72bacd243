// The account pages (issue 13): `/login` (log in, or register: the browser's games become the
// account's) and `/account` (the name, the profile's bio and country, the preferences (an
// anonymous player's too), a new password, log out). The server checks every rule
// (docs/api.md, Accounts); the page only says in the player's language what went wrong.

import { api, ApiError, type VacationsView } from '../api';
import { afterLogin, currentUser, setMe } from '../account';
import { h, mount } from '../dom';
import { dateTime, errorWords, t } from '../i18n';
import { navigate } from '../nav';
import { restartNotifications } from '../notify/live';
import { CHALLENGES_FROM, socialApi, type ChallengesFrom } from '../social/api';
import { setTitle } from '../title';
import { emailSection, forgotForm, linkOutcomeNotice } from './email';
import { prefsSection, profileSection } from './settings';

const NAME = /^[A-Za-z0-9_-]{3,20}$/;

/** What went wrong, in words: the usual codes of the account routes, else the generic words. */
function accountError(err: unknown, passwordOnly = false): string {
  if (err instanceof ApiError) {
    if (err.code === 'bad_credentials') return t(passwordOnly ? 'account.bad_password' : 'account.bad_credentials');
    if (err.code === 'conflict' && err.message.includes('taken')) return t('account.taken');
    if (err.code === 'username_lookalike') return t('account.lookalike');
    if (err.code === 'username_reserved') return t('account.reserved');
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
    restartNotifications();
    navigate(afterLogin(location.search));
  };
  const login = h('form.account#login-form', {
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
  // "Forgot your password?" inside the log-in card, under its button.
  mount(root, h('div.account-pages', h('div.card.login-card', login, forgotForm()), register));
  if (currentUser()) mount(root, h('section.card', h('p', t('account.signed_in_as', { name: currentUser()! })), h('a.button#to-account', { href: '/account' }, t('account.title'))));
}

/** `/account`: the name, a new password, log out. */
export function accountPage(root: HTMLElement): void {
  setTitle(t('account.title'));
  const user = currentUser();
  if (!user) {
    // The e-mail confirmation link works without a session: its outcome comes first.
    mount(root, h('section.card', h('h1', t('account.title')), linkOutcomeNotice(), h('p#account-logged-out', t('account.not_logged_in')), h('a.button.primary#to-login', { href: '/login' }, t('account.login'))),
      h('section.card', prefsSection(false)));
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
    profileSection(user),
    prefsSection(true),
    form,
    emailSection(),
    challengesSection(),
    vacationSection(),
    h('button#logout', { type: 'button', onclick: () => api.logOut().then(() => { setMe(null); restartNotifications(); navigate('/'); }, err => { msg.className = 'error'; msg.textContent = errorWords(err); }) }, t('account.logout'))));
}

/** "Takes challenges from: everyone / players I follow / nobody" (issue 41; docs/api.md,
 * `/api/me/challenges-from`): saved as soon as it is changed. */
function challengesSection(): HTMLElement {
  const msg = h('span.small#challenges-from-result', { role: 'status' });
  const select = h('select#challenges-from', {
    'aria-label': t('social.challenges_from'),
    disabled: true,
    onchange: () => {
      msg.className = 'small';
      msg.textContent = '';
      socialApi.setChallengesFrom(select.value as ChallengesFrom).then(
        v => { select.value = v.from; msg.textContent = t('social.challenges_from_saved'); },
        err => { msg.className = 'small error'; msg.textContent = errorWords(err); });
    },
  }, CHALLENGES_FROM.map(f => h('option', { value: f }, t(`social.challenges_from.${f}` as 'social.challenges_from.everyone')))) as HTMLSelectElement;
  socialApi.challengesFrom().then(v => { select.value = v.from; select.disabled = false; },
    err => { msg.className = 'small error'; msg.textContent = errorWords(err); });
  return h('section#challenges-from-section',
    h('h2', t('social.challenges_from')),
    h('label', t('social.challenges_from'), ' ', select), ' ', msg);
}

/** The local date `YYYY-MM-DD` of `ms`, for a date input. */
function localDate(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
}

/** Vacation (issue 38; docs/api.md): the days left, the vacations under way or ahead with a
 * button to end or cancel each, and a form to take one from a day (today: from now). */
function vacationSection(): HTMLElement {
  const list = h('ul.vacations#vacations');
  const left = h('p.muted#vacation-left');
  const msg = h('p#vacation-result', { role: 'status' });
  const start = h('input#vacation-start', { type: 'date', value: localDate(Date.now()), min: localDate(Date.now()) }) as HTMLInputElement;
  const days = h('input#vacation-days', { type: 'number', min: '1', max: '30', step: '1', value: '7', inputmode: 'numeric' }) as HTMLInputElement;
  const failed = (err: unknown) => { msg.className = 'error'; msg.textContent = errorWords(err); };
  const show = (v: VacationsView) => {
    left.textContent = t('account.vacation_left', { n: v.days_left, max: v.max_days, year: v.year });
    days.max = String(Math.max(1, v.days_left));
    mount(list, ...v.vacations.map(x => h('li',
      h('span', x.current ? t('account.vacation_now', { to: dateTime(x.end_ms) }) : t('account.vacation_item', { from: dateTime(x.start_ms), to: dateTime(x.end_ms), n: x.days })),
      ' ',
      h('button.vacation-end', { type: 'button', onclick: () => api.endVacation(x.start_ms).then(w => { msg.textContent = ''; show(w); }, failed) },
        x.current ? t('account.vacation_end') : t('account.vacation_cancel')),
    )));
  };
  const form = h('form.account#vacation-form', {
    onsubmit: (e: Event) => {
      e.preventDefault();
      msg.className = '';
      msg.textContent = '';
      const [y, m, d] = start.value.split('-').map(Number);
      const day = new Date(y, (m ?? 1) - 1, d ?? 1).getTime();
      // Today: from now; another day: from its local midnight.
      const from = start.value === localDate(Date.now()) || Number.isNaN(day) ? Date.now() : day;
      api.setVacation(from, Number(days.value)).then(show, failed);
    },
  },
  h('label', t('account.vacation_from'), start),
  h('label', t('account.vacation_days'), days),
  h('button#vacation-submit', { type: 'submit' }, t('account.vacation_take')));
  api.vacations().then(show, failed);
  return h('section.vacation#vacation',
    h('h2', t('account.vacation')),
    h('p.muted', t('account.vacation_about', { max: 30 })),
    left, list, form, msg);
}
