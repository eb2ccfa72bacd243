// The profile's social line (issue 41): followers and following counts, a moderator's mark,
// and for a logged-in visitor follow/unfollow, block/unblock and a report form.

import { currentUser, loadMe } from '../account';
import { h, mount } from '../dom';
import { errorWords, t } from '../i18n';
import { REPORT_REASONS, socialApi, type ReportReason, type SocialView } from './api';

function reportForm(name: string): HTMLElement {
  const box = h('div#report-box');
  const reason = h('select#report-reason', { 'aria-label': t('social.report_reason') },
    REPORT_REASONS.map(r => h('option', { value: r }, t(`social.reason.${r}` as 'social.reason.other')))) as HTMLSelectElement;
  const text = h('textarea#report-text', { maxlength: 2000, rows: 3, 'aria-label': t('social.report_text'), placeholder: t('social.report_text') }) as HTMLTextAreaElement;
  const note = h('p.small#report-note', { role: 'status' });
  const send = h('button#report-send', {
    type: 'button',
    onclick: () => {
      socialApi.report(name, reason.value as ReportReason, text.value).then(
        () => { mount(note, t('social.report_sent')); text.value = ''; },
        err => mount(note, h('span.error', errorWords(err))));
    },
  }, t('social.report_send'));
  mount(box, h('details', h('summary', t('social.report')), h('div.form', reason, text, h('div.actions', send), note)));
  return box;
}

/** The social line of `name`'s profile for the visitor (its buttons once the server said who
 * the visitor is). */
export function socialBox(name: string): HTMLElement {
  let me: string | null = null;
  const box = h('div#profile-social');
  const draw = (s: SocialView) => {
    const mine = me !== null && me.toLowerCase() === s.username.toLowerCase();
    const open = !s.closed;
    const toggle = (id: string, on: boolean, label: string, act: () => Promise<void>) =>
      h(`button#${id}`, { type: 'button', 'aria-pressed': String(on), onclick: () => act().then(() => socialApi.social(name).then(draw), err => mount(box, h('p.error', errorWords(err)))) }, label);
    mount(box,
      h('p.muted',
        h('a', { href: `/@/${encodeURIComponent(s.username)}/followers` }, t('social.followers_n', { n: s.followers })), ' · ',
        t('social.following_n', { n: s.following })),
      s.closed ? h('p.error#profile-closed', t('social.closed')) : null,
      s.mark ? h('p.error#profile-mark', t(`social.mark.${s.mark}` as 'social.mark.booster')) : null,
      me !== null && !mine && open ? h('div.actions',
        // To the lobby's challenge form with the name filled in (browser finding 4).
        s.you_block ? null : h('a.button.primary#challenge-button', { href: `/?challenge=${encodeURIComponent(s.username)}` }, t('social.challenge')),
        toggle('follow-button', s.you_follow, s.you_follow ? t('social.unfollow') : t('social.follow'), () => socialApi.follow(name, !s.you_follow)),
        toggle('block-button', s.you_block, s.you_block ? t('social.unblock') : t('social.block'), () => socialApi.block(name, !s.you_block))) : null,
      me !== null && !mine && open ? reportForm(s.username) : null,
      mine ? h('p.actions', h('a.button#following-link', { href: '/following' }, t('social.nav_following')), modLink) : null);
  };
  // One's own profile links to the following list, and a moderator's to the moderators' page.
  const modLink = h('span#mod-link');
  void loadMe().then(() => {
    me = currentUser() ?? null;
    if (me !== null && me.toLowerCase() === name.toLowerCase()) {
      socialApi.me().then(m => { if (m.moderator) mount(modLink, h('a.button', { href: '/mod' }, t('mod.title'))); }, () => undefined);
    }
    return socialApi.social(name).then(draw);
  }).catch(() => undefined);
  return box;
}
