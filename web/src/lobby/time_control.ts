// The time-control picker shared by the seek, challenge and friend-game forms: lichess's
// presets, a custom real-time control, correspondence days, unlimited; and the "rated" choice,
// offered only to an account and never with unlimited.

import type { TimeControl } from '../api';
import { h } from '../dom';
import { t } from '../i18n';

/** The quick choices of real-time controls: minutes + increment seconds (clock.rs). */
export const PRESETS: [number, number][] = [[1, 0], [3, 2], [5, 3], [10, 5], [15, 10]];
/** Correspondence: days per move (clock.rs). */
export const DAYS = [1, 2, 3, 5, 7, 14];

/** A control in short, in the page's language: `3+2`, `2 days`, `Unlimited`. */
export function controlLabel(tc: TimeControl): string {
  if (tc.kind === 'realtime') {
    const m = tc.initial_s / 60;
    const minutes = ({ 15: '¼', 30: '½', 45: '¾' } as Record<number, string>)[tc.initial_s] ?? (Number.isInteger(m) ? String(m) : `${tc.initial_s}s`);
    return `${minutes}+${tc.increment_s}`;
  }
  if (tc.kind === 'correspondence') return t('lobby.days', { n: tc.days });
  return t('lobby.unlimited');
}

export interface TimePicker {
  el: HTMLElement;
  /** The control chosen, or null (and a message shown) when the custom one is out of range. */
  value(): TimeControl | null;
  /** Whether "rated" is ticked (and allowed). */
  rated(): boolean;
  /** Whether the control chosen has a rating (real-time or correspondence). */
  clocked(): boolean;
}

/** A picker whose elements' ids start with `name`; `loggedIn` allows "rated", ticked at first
 * when `ratedFirst` (issue 41: an account's seeks and challenges are rated unless it says no). */
export function timePicker(name: string, loggedIn: boolean, initial = '5+3', ratedFirst = loggedIn): TimePicker {
  const select = h(`select#${name}-tc`, { 'aria-label': t('lobby.time') },
    h('optgroup', { label: t('lobby.realtime') },
      ...PRESETS.map(([m, i]) => h('option', { value: `${m}+${i}`, selected: `${m}+${i}` === initial }, `${m}+${i}`)),
      h('option', { value: 'custom' }, t('lobby.custom'))),
    h('optgroup', { label: t('lobby.correspondence') },
      ...DAYS.map(d => h('option', { value: `d${d}`, selected: `d${d}` === initial }, t('lobby.days', { n: d })))),
    h('option', { value: 'unlimited', selected: initial === 'unlimited' }, t('lobby.unlimited')),
  ) as HTMLSelectElement;
  const minutes = h(`input#${name}-minutes`, { type: 'number', step: 'any', value: '5', inputmode: 'decimal' }) as HTMLInputElement;
  const increment = h(`input#${name}-increment`, { type: 'number', step: 'any', value: '3', inputmode: 'numeric' }) as HTMLInputElement;
  const custom = h('div.tc-custom',
    h('label', t('lobby.minutes'), minutes),
    h('label', t('lobby.increment'), increment));
  const rated = h(`input#${name}-rated`, { type: 'checkbox', checked: ratedFirst && loggedIn }) as HTMLInputElement;
  // The player's own choice, given back when a clock allows rating again after "unlimited".
  let wanted = rated.checked;
  rated.addEventListener('change', () => { wanted = rated.checked; });
  const ratedHint = h('span.hint');
  const problem = h('p.error', { role: 'alert' });
  const sync = () => {
    custom.hidden = select.value !== 'custom';
    const unlimited = select.value === 'unlimited';
    rated.disabled = !loggedIn || unlimited;
    rated.checked = !rated.disabled && wanted;
    ratedHint.textContent = !loggedIn ? t('lobby.rated_needs_account') : unlimited ? t('lobby.rated_needs_clock') : '';
    // Nothing to say: no hint at all (issue 41: an empty box stood beside "Rated").
    ratedHint.hidden = ratedHint.textContent === '';
  };
  select.addEventListener('change', sync);
  sync();
  const el = h('div.time-picker',
    h('label.tc-select', t('lobby.time'), select),
    custom,
    h('label.tc-rated', rated, h('span', t('lobby.rated')), ratedHint),
    problem);
  return {
    el,
    rated: () => rated.checked && !rated.disabled,
    clocked: () => select.value !== 'unlimited',
    value: () => {
      problem.textContent = '';
      const v = select.value;
      if (v === 'unlimited') return { kind: 'unlimited' };
      if (v.startsWith('d')) return { kind: 'correspondence', days: Number(v.slice(1)) };
      if (v !== 'custom') {
        const [m, i] = v.split('+').map(Number);
        return { kind: 'realtime', initial_s: m * 60, increment_s: i };
      }
      const initial_s = Math.round(Number(minutes.value) * 60);
      const increment_s = Number(increment.value);
      if (!(initial_s >= 15 && initial_s <= 10800) || !Number.isInteger(increment_s) || increment_s < 0 || increment_s > 60) {
        problem.textContent = t('lobby.bad_custom');
        return null;
      }
      return { kind: 'realtime', initial_s, increment_s };
    },
  };
}
