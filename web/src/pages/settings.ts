// The account page's preferences and profile sections (issue 41's "Also"): themes per game,
// colours, sound, move confirmation and zen mode (prefs.ts keeps and applies them; an
// anonymous player's stay in this browser), and the profile's bio and country
// (`PUT /api/me/profile`), shown as text on the profile.

import { call } from '../api';
import { COUNTRIES, countryName } from '../countries';
import { h } from '../dom';
import { errorWords, t, type Key } from '../i18n';
import { PREF_CHOICES, prefs, setPrefs, type Prefs } from '../prefs';
import { ratingsApi } from '../ratings_api';

type Choice = keyof typeof PREF_CHOICES;

const wordKey: Record<Choice, (v: string) => Key> = {
  mode: v => `prefs.mode.${v}` as Key,
  antarctos_board: v => `prefs.board.${v}` as Key,
  iceage_board: v => `prefs.board.${v}` as Key,
  antarctos_pieces: v => `prefs.pieces.${v}` as Key,
  iceage_pieces: v => `prefs.pieces.${v}` as Key,
  sound_set: v => `prefs.sound.${v}` as Key,
};

/** The preferences form: each change is saved at once (for an account, on the server). */
export function prefsSection(loggedIn: boolean): HTMLElement {
  const msg = h('p#prefs-result', { role: 'status' });
  const save = (patch: Partial<Prefs>) => {
    msg.className = '';
    msg.textContent = '';
    setPrefs(patch).then(() => { msg.textContent = t('prefs.saved'); }, err => { msg.className = 'error'; msg.textContent = errorWords(err); });
  };
  const now = prefs();
  const select = (field: Choice) => {
    const s = h(`select#pref-${field}`, {
      onchange: (e: Event) => save({ [field]: (e.target as HTMLSelectElement).value } as Partial<Prefs>),
    }, ...PREF_CHOICES[field].map(v => h('option', { value: v }, t(wordKey[field](v))))) as HTMLSelectElement;
    s.value = now[field];
    return h('label.field', h('span', t(`prefs.${field}` as Key)), s);
  };
  const volume = h('input#pref-volume', {
    type: 'range', min: '0', max: '100', step: '5', value: String(now.volume),
    onchange: (e: Event) => save({ volume: Number((e.target as HTMLInputElement).value) }),
  });
  const flag = (field: 'confirm_move' | 'zen') => h('label.check',
    h(`input#pref-${field}`, { type: 'checkbox', checked: now[field], onchange: (e: Event) => save({ [field]: (e.target as HTMLInputElement).checked }) }),
    ' ', t(`prefs.${field}`));
  return h('section.prefs#prefs',
    h('h2', t('prefs.title')),
    h('p.muted.small', t(loggedIn ? 'prefs.about_account' : 'prefs.about_browser')),
    h('div.prefs-grid',
      select('mode'), select('antarctos_board'), select('antarctos_pieces'), select('iceage_board'), select('iceage_pieces'),
      h('label.field', h('span', t('prefs.volume')), volume),
      select('sound_set')),
    flag('confirm_move'), flag('zen'),
    msg);
}

/** The profile's own text: a bio (at most 400 characters) and a country. */
export function profileSection(user: string): HTMLElement {
  const bio = h('textarea#profile-bio', { maxlength: '400', rows: '4', spellcheck: 'true' }) as HTMLTextAreaElement;
  const names = COUNTRIES.map(c => [c, countryName(c)] as const).sort((a, b) => a[1].localeCompare(b[1]));
  const country = h('select#profile-country', {},
    h('option', { value: '' }, t('profile.no_country')),
    ...names.map(([c, n]) => h('option', { value: c }, n))) as HTMLSelectElement;
  const msg = h('p#profile-result', { role: 'status' });
  ratingsApi.player(user).then(p => {
    bio.value = p.bio ?? '';
    country.value = p.country ?? '';
  }, () => undefined);
  const form = h('form.account#profile-form', {
    onsubmit: (e: Event) => {
      e.preventDefault();
      msg.className = '';
      msg.textContent = '';
      call<{ bio: string | null; country: string | null }>('PUT', '/api/me/profile', { bio: bio.value, country: country.value }).then(
        r => { bio.value = r.bio ?? ''; msg.textContent = t('profile.saved'); },
        // The server names the field and the fault (in English) after the page's words.
        err => { msg.className = 'error'; msg.textContent = errorWords(err); });
    },
  },
  h('h2', t('profile.edit')),
  h('label.field', h('span', t('profile.bio')), bio),
  h('label.field', h('span', t('profile.country')), country),
  h('button#profile-save', { type: 'submit' }, t('profile.save')),
  msg);
  return form;
}

