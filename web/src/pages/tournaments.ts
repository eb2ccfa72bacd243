// `/tournaments` (issue 40): the upcoming, running and finished events, and the form that
// creates one (accounts only).

import type { Variant } from '../api';
import { currentUser } from '../account';
import { h, mount, svgIcon } from '../dom';
import { dateTime, errorWords, t } from '../i18n';
import { navigate } from '../nav';
import { setTitle } from '../title';
import { controlLabel, tournamentsApi, type Kind, type TimeControl, type TStatus, type TournamentSummary } from '../tournaments/api';

const gameName = (v: Variant) => t(`game.${v}` as 'game.antarctos');
export const kindName = (k: Kind) => t(`tour.kind.${k}` as 'tour.kind.arena');

function list(title: string, items: TournamentSummary[]): HTMLElement {
  if (items.length === 0) return h('section.card', h('h2', title), h('p.muted', t('tour.none')));
  return h('section.card', h('h2', title), h('ul.tournament-list', items.map(x =>
    h('li', { 'data-id': x.id },
      h('a', { href: `/tournament/${x.id}` }, x.name),
      ' · ', kindName(x.kind), ' · ', gameName(x.variant), ' · ', controlLabel(x.time_control),
      ' · ', x.rated ? t('tour.rated') : t('rating.casual'),
      ' · ', dateTime(x.starts_at),
      x.players !== undefined ? h('span.t-players', ' · ', t('tour.players_n', { n: x.players })) : '',
      x.winners?.length ? h('span.t-winner', ' · ', trophy(), ' ', x.winners.join(', ')) : ''))));
}

/** A small cup drawn in SVG (no emoji font is needed). */
export function trophy(): SVGSVGElement {
  return svgIcon('M6 3h12v2h3v3a4 4 0 0 1-4 4h-.3A5 5 0 0 1 13 14.9V18h3v3H8v-3h3v-3.1A5 5 0 0 1 7.3 12H7a4 4 0 0 1-4-4V5h3Zm0 4H5v1a2 2 0 0 0 1 1.7Zm12 0v2.7A2 2 0 0 0 19 8V7Z', 14, { label: t('tour.winner'), classes: ['t-icon'] });
}

const CLOCKS: Record<string, Record<string, unknown>> = {
  '1+0': { kind: 'realtime', initial_s: 60, increment_s: 0 },
  '3+2': { kind: 'realtime', initial_s: 180, increment_s: 2 },
  '5+3': { kind: 'realtime', initial_s: 300, increment_s: 3 },
  '10+5': { kind: 'realtime', initial_s: 600, increment_s: 5 },
  '1d': { kind: 'correspondence', days: 1 },
  '3d': { kind: 'correspondence', days: 3 },
  '7d': { kind: 'correspondence', days: 7 },
};

function field(label: string, input: HTMLElement): HTMLElement {
  return h('label.field', h('span', label), input);
}

function createForm(): HTMLElement {
  const kind = h('select#t-kind', (['arena', 'swiss', 'round_robin'] as Kind[]).map(k => h('option', { value: k }, kindName(k)))) as HTMLSelectElement;
  const variant = h('select#t-variant', (['antarctos', 'iceage'] as Variant[]).map(v => h('option', { value: v }, gameName(v)))) as HTMLSelectElement;
  const clock = h('select#t-clock', Object.entries(CLOCKS).map(([k, c]) => h('option', { value: k, selected: k === '3+2' }, controlLabel(c as unknown as TimeControl)))) as HTMLSelectElement;
  const minutes = h('input#t-minutes', { type: 'number', min: '1', max: '1440', value: '60' }) as HTMLInputElement;
  const rounds = h('input#t-rounds', { type: 'number', min: '1', max: '30', value: '5' }) as HTMLInputElement;
  const double = h('input#t-double', { type: 'checkbox' }) as HTMLInputElement;
  const rated = h('input#t-rated', { type: 'checkbox', checked: true }) as HTMLInputElement;
  const startsIn = h('input#t-starts', { type: 'number', min: '0', max: '10000', value: '5' }) as HTMLInputElement;
  const name = h('input#t-name', { type: 'text', maxlength: '60' }) as HTMLInputElement;
  const play = h('input#t-play', { type: 'checkbox', checked: true }) as HTMLInputElement;
  const error = h('p.error', { role: 'alert' });
  const minutesField = field(t('tour.minutes'), minutes);
  const roundsField = field(t('tour.rounds'), rounds);
  const doubleField = h('label.check', double, ' ', t('tour.double'));
  const shown = () => {
    minutesField.hidden = kind.value !== 'arena';
    roundsField.hidden = kind.value !== 'swiss';
    doubleField.hidden = kind.value !== 'round_robin';
  };
  kind.addEventListener('change', shown);
  shown();
  const submit = h('button.primary#t-create', { type: 'submit' }, t('tour.make'));
  const form = h('form.card.tournament-form', h('h2', t('tour.create')),
    field(t('tour.kind'), kind), field(t('tour.game'), variant), field(t('tour.clock'), clock),
    minutesField, roundsField, doubleField, h('label.check', rated, ' ', t('tour.rated')),
    field(t('tour.starts_in'), startsIn), field(t('tour.name'), name),
    h('label.check', play, ' ', t('tour.play_myself')), submit, error) as HTMLFormElement;
  form.addEventListener('submit', e => {
    e.preventDefault();
    const body: Record<string, unknown> = {
      kind: kind.value, variant: variant.value, time_control: CLOCKS[clock.value], rated: rated.checked,
      starts_at: Date.now() + Math.max(0, Number(startsIn.value) || 0) * 60_000 + 2_000,
    };
    if (kind.value === 'arena') body.minutes = Number(minutes.value);
    if (kind.value === 'swiss') body.rounds = Number(rounds.value);
    if (kind.value === 'round_robin') body.double = double.checked;
    if (name.value.trim()) body.name = name.value.trim();
    submit.setAttribute('disabled', '');
    tournamentsApi.create(body).then(
      // The creator plays in it unless they said not; a refused entry (a condition) still
      // leads to the event, whose page says why on its Join.
      r => (play.checked ? tournamentsApi.act(r.id, 'join').catch(() => undefined) : Promise.resolve())
        .then(() => navigate(`/tournament/${r.id}`)),
      err => { error.textContent = tournamentError(err); submit.removeAttribute('disabled'); },
    );
  });
  return form;
}

/** A tournament action's error in words: the site's own words where it has them, else the
 * server's message (which names the field or the condition). */
export function tournamentError(err: unknown, joining = false): string {
  const e = err as { code?: string; message?: string };
  if (joining && e?.code === 'rate_limited') return t('tour.err_too_many_joined');
  switch (e?.code) {
    case 'not_logged_in': return t('tour.create_hint');
    case 'not_eligible': return t('tour.err_not_eligible', { why: e.message ?? '' });
    case 'rate_limited': return t('tour.err_too_many');
    case 'not_a_player': return t('tour.err_not_creator');
    case 'conflict': case 'bad_request': return e.message ?? errorWords(err);
    default: return errorWords(err);
  }
}

export function tournamentsPage(root: HTMLElement): void {
  setTitle(t('tour.title'));
  const head = h('h1', t('tour.title'));
  mount(root, head, h('p.muted', t('page.loading')));
  const statuses: TStatus[] = ['started', 'created', 'finished'];
  Promise.all(statuses.map(s => tournamentsApi.list(s))).then(
    ([running, upcoming, finished]) => mount(root, head,
      currentUser() ? createForm() : h('p.muted', t('tour.create_hint')),
      list(t('tour.running'), running), list(t('tour.upcoming'), upcoming), list(t('tour.finished'), finished)),
    err => mount(root, head, h('p.error', errorWords(err))),
  );
}
