// The home page's lobby (issue 13): quick pairing buttons, the open seeks (live, from the
// server-sent events of `GET /api/lobby`), a form to make a seek, direct challenges to and from
// this player. When someone accepts this player's seek or challenge, the stream names the game
// and the page goes there.

import { ApiError, type Color, type GameView, type Variant } from '../api';
import { currentUser, loginHref } from '../account';
import { listenChat, roomChat } from '../chat/box';
import { h, mount } from '../dom';
import { errorWords, t } from '../i18n';
import { checkServer } from '../online';
import { navigate } from '../nav';
import { challengeAnswered } from '../notify/challenge_popup';
import { lobbyApi, type ChallengeView, type LobbyView, type SeekView, type Side, type Terms } from './api';
import { controlLabel, timePicker } from './time_control';
import { variantOf } from '../variants';
import { shownRating } from '../ratings_api';

/** A name the challenge form may be opened with (the site's user names). */
const CHALLENGE_NAME = /^[A-Za-z0-9_-]{2,20}$/;

/** Games this tab was already sent to (a stream that reconnects names them again). */
const SEEN_KEY = 'icebound.lobby.seen';

function seenGames(): Set<string> {
  try {
    return new Set(JSON.parse(sessionStorage.getItem(SEEN_KEY) ?? '[]') as string[]);
  } catch {
    return new Set();
  }
}

function goToGame(id: string): void {
  const seen = seenGames();
  seen.add(id);
  sessionStorage.setItem(SEEN_KEY, JSON.stringify([...seen].slice(-50)));
  navigate(`/game/${id}`);
}

const QUICK: [string, string][] = [
  ['1+0', '1+0'], ['3+2', '3+2'], ['5+3', '5+3'], ['10+5', '10+5'], ['15+10', '15+10'],
  ['d1', ''], ['d3', ''], ['d7', ''],
];

function quickControl(code: string): Terms['time_control'] {
  if (code.startsWith('d')) return { kind: 'correspondence', days: Number(code.slice(1)) };
  const [m, i] = code.split('+').map(Number);
  return { kind: 'realtime', initial_s: m * 60, increment_s: i };
}

const gameName = (v: Variant) => t(variantOf(v).nameKey);
const opposite = (c: Color): Color => (c === 'white' ? 'black' : 'white');

/** What the viewer would play against an offer whose maker asked for `side`. */
function yourSide(side: Side): string {
  if (side === 'random') return t('lobby.side_random');
  return t(opposite(side) === 'white' ? 'lobby.you_white' : 'lobby.you_black');
}

function sideSelect(id: string): HTMLSelectElement {
  return h(`select#${id}`, { 'aria-label': t('home.side') },
    h('option', { value: 'random', selected: true }, t('color.random')),
    h('option', { value: 'white' }, t('color.white')),
    h('option', { value: 'black' }, t('color.black')),
  ) as HTMLSelectElement;
}

function variantSelect(id: string): HTMLSelectElement {
  return h(`select#${id}`, { 'aria-label': t('home.game') },
    h('option', { value: 'antarctos' }, t('game.antarctos')),
    h('option', { value: 'iceage' }, t('game.iceage')),
  ) as HTMLSelectElement;
}

/** The lobby: its element, and a teardown that closes the stream. */
export function lobbySection(loggedIn: boolean): { el: HTMLElement; destroy: () => void } {
  const error = h('p.error#lobby-error', { role: 'alert' });
  const status = h('p.lobby-status#lobby-status', { role: 'status' });
  const seekList = h('ul.seek-list#seeks');
  const incoming = h('ul.challenge-list#challenges-in');
  const outgoing = h('ul.challenge-list#challenges-out');
  let quickVariant: Variant = 'antarctos';

  const fail = (err: unknown, gone?: 'seek' | 'challenge') => {
    if (gone && err instanceof ApiError && (err.code === 'not_found' || err.code === 'conflict')) {
      error.textContent = t(gone === 'seek' ? 'lobby.seek_gone' : 'lobby.challenge_gone');
    } else {
      error.textContent = errorWords(err);
    }
  };
  /** Runs an action of a button, with the button disabled meanwhile. */
  const act = async (button: HTMLButtonElement, action: () => Promise<void>) => {
    error.textContent = '';
    button.disabled = true;
    try {
      await action();
    } finally {
      button.disabled = false;
    }
  };
  const started = (g: GameView) => goToGame(g.id);

  // ---------- quick pairing ----------
  // Rated by default for an account (issue 41).
  const quickRated = h('input#quick-rated', { type: 'checkbox', disabled: !loggedIn, checked: loggedIn }) as HTMLInputElement;
  const quickButtons = QUICK.map(([code, text]) => {
    const b = h('button.quick', { type: 'button', dataset: { tc: code } },
      h('span.quick-time', text || t('lobby.days', { n: Number(code.slice(1)) })),
      h('span.quick-kind', t(code.startsWith('d') ? 'lobby.correspondence' : 'lobby.realtime')),
    ) as HTMLButtonElement;
    b.addEventListener('click', () => act(b, async () => {
      try {
        const r = await lobbyApi.quick(quickVariant, quickControl(code), quickRated.checked);
        if (r.game) started(r.game);
        else if (r.seek) status.textContent = t(r.seek.speed === 'correspondence' ? 'lobby.waiting_corr' : 'lobby.waiting', { label: controlLabel(r.seek.time_control) });
      } catch (err) {
        fail(err);
      }
    }));
    return b;
  });
  const quick = h('section.lobby-quick',
    h('h2', t('lobby.quick')),
    h('p.hint', t('lobby.quick_hint')),
    h('div.choices', { role: 'radiogroup', 'aria-label': t('home.game') },
      ...(['antarctos', 'iceage'] as Variant[]).map(v => h('label.choice',
        h('input', { type: 'radio', name: 'quick-variant', value: v, checked: v === quickVariant, onchange: () => { quickVariant = v; } }),
        h('span', gameName(v))))),
    h('label.tc-rated', quickRated, h('span', t('lobby.rated')), loggedIn ? null : h('span.hint', t('lobby.rated_needs_account'))),
    h('div.quick-grid', ...quickButtons),
  );

  // ---------- the seek list ----------
  const seekItem = (s: SeekView) => {
    const button = h(s.mine ? 'button.withdraw' : 'button.primary.accept', { type: 'button' }, t(s.mine ? 'lobby.withdraw' : 'lobby.accept')) as HTMLButtonElement;
    button.addEventListener('click', () => act(button, async () => {
      try {
        if (s.mine) {
          await lobbyApi.withdraw(s.id);
          status.textContent = '';
        } else {
          started(await lobbyApi.accept(s.id));
        }
      } catch (err) {
        fail(err, 'seek');
      }
    }));
    return h('li.seek', { dataset: { id: s.id }, class: s.mine ? 'mine' : '' },
      h('span.seek-player', s.username ?? t('lobby.anonymous')),
      s.rating ? h('span.seek-rating', { title: s.rating.provisional ? t('rating.provisional') : '' }, shownRating(s.rating.rating, s.rating.provisional)) : null,
      h('span.seek-game', gameName(s.variant)),
      h('span.seek-time', controlLabel(s.time_control)),
      h('span.seek-mode', t(s.rated ? 'lobby.rated' : 'lobby.casual')),
      s.rating_range ? h('span.seek-range', { title: t('lobby.range') }, `${s.rating_range[0]}–${s.rating_range[1]}`) : null,
      h('span.seek-side', s.mine ? t('lobby.yours') : yourSide(s.color)),
      button);
  };

  // ---------- making a seek ----------
  const seekVariant = variantSelect('seek-variant');
  const seekPicker = timePicker('seek', loggedIn);
  const seekSide = sideSelect('seek-color');
  const seekSubmit = h('button.primary#seek-submit', { type: 'submit' }, t('lobby.seek_submit')) as HTMLButtonElement;
  // A rating range (issue 41): only accounts rated within it see the seek. Both empty: anyone.
  const rangeMin = h('input#seek-range-min', { type: 'number', min: '0', max: '4000', step: '50', inputmode: 'numeric', placeholder: '1200', 'aria-label': t('lobby.range_min') }) as HTMLInputElement;
  const rangeMax = h('input#seek-range-max', { type: 'number', min: '0', max: '4000', step: '50', inputmode: 'numeric', placeholder: '1800', 'aria-label': t('lobby.range_max') }) as HTMLInputElement;
  const rangeRow = loggedIn
    ? h('div.form-row.seek-range-row', h('label', t('lobby.range'), h('span.range-pair', rangeMin, ' – ', rangeMax)), h('p.hint', t('lobby.range_hint')))
    : null;
  /** The range typed: undefined when both are empty, null (and a message) when half or wrong. */
  const rangeOf = (): [number, number] | undefined | null => {
    const [a, b] = [rangeMin.value.trim(), rangeMax.value.trim()];
    if (!a && !b) return undefined;
    const [lo, hi] = [Number(a || 0), Number(b || 4000)];
    if (!Number.isInteger(lo) || !Number.isInteger(hi) || lo < 0 || hi > 4000 || lo > hi) {
      error.textContent = t('lobby.range_bad');
      return null;
    }
    return [lo, hi];
  };
  const seekForm = h('form#seek-form', {
    onsubmit: (e: Event) => {
      e.preventDefault();
      const tc = seekPicker.value();
      if (!tc) return;
      error.textContent = '';
      const range = loggedIn && seekPicker.clocked() ? rangeOf() : undefined;
      if (range === null) return;
      void act(seekSubmit, async () => {
        try {
          const terms: Terms = { variant: seekVariant.value as Variant, time_control: tc, rated: seekPicker.rated(), color: seekSide.value as Side };
          if (range) terms.rating_range = range;
          const s = await lobbyApi.seek(terms);
          status.textContent = t(s.speed === 'correspondence' ? 'lobby.waiting_corr' : 'lobby.waiting', { label: controlLabel(s.time_control) });
        } catch (err) {
          fail(err);
        }
      });
    },
  },
  h('div.form-row', h('label', t('home.game'), seekVariant), h('label', t('home.side'), seekSide)),
  seekPicker.el,
  rangeRow,
  h('div.actions', seekSubmit));

  // ---------- challenges ----------
  const challengeItem = (c: ChallengeView) => {
    const buttons: HTMLButtonElement[] = [];
    const button = (cls: string, words: Parameters<typeof t>[0], action: () => Promise<void>) => {
      const b = h(`button.${cls}`, { type: 'button' }, t(words)) as HTMLButtonElement;
      b.addEventListener('click', () => act(b, async () => {
        try {
          await action();
        } catch (err) {
          fail(err, 'challenge');
        }
      }));
      buttons.push(b);
    };
    if (c.direction === 'incoming') {
      button('primary.challenge-accept', 'lobby.accept', async () => { const g = await lobbyApi.acceptChallenge(c.id); challengeAnswered(c.id); started(g); });
      button('challenge-decline', 'lobby.decline', async () => { await lobbyApi.declineChallenge(c.id); challengeAnswered(c.id); });
    } else {
      button('challenge-cancel', c.status === 'open' ? 'lobby.cancel' : 'lobby.dismiss', () => lobbyApi.cancelChallenge(c.id));
    }
    const other = (name: string): string => (c.bot ? `BOT ${name}` : name);
    const who = c.direction === 'incoming' ? t('lobby.challenge_from', { name: other(c.challenger) }) : t('lobby.challenge_to', { name: other(c.challenged) });
    const state = c.direction === 'incoming'
      ? yourSide(c.color)
      : c.status === 'accepted' && c.game
        ? h('a', { href: `/game/${c.game}` }, t('lobby.accepted'))
        : t(c.status === 'declined' ? 'lobby.declined' : 'lobby.waiting_answer');
    return h('li.challenge', { dataset: { id: c.id, status: c.status } },
      h('span.challenge-who', who),
      h('span.seek-game', gameName(c.variant)),
      h('span.seek-time', controlLabel(c.time_control)),
      h('span.seek-mode', t(c.rated ? 'lobby.rated' : 'lobby.casual')),
      h('span.challenge-state', state),
      ...buttons);
  };
  const challengeUser = h('input#challenge-user', { type: 'text', autocomplete: 'off', spellcheck: 'false', required: true, maxlength: '20', 'aria-label': t('lobby.challenge_user') }) as HTMLInputElement;
  const challengeVariant = variantSelect('challenge-variant');
  const challengePicker = timePicker('challenge', loggedIn, '10+5');
  const challengeSide = sideSelect('challenge-color');
  const challengeSubmit = h('button.primary#challenge-submit', { type: 'submit' }, t('lobby.challenge_submit')) as HTMLButtonElement;
  const challengeResult = h('p.challenge-result#challenge-result', { role: 'status' });
  const challengeForm = loggedIn
    ? h('form#challenge-form', {
      onsubmit: (e: Event) => {
        e.preventDefault();
        const tc = challengePicker.value();
        if (!tc) return;
        // The answer shows beside the button: the lists above may be off the screen (browser
        // finding 15 of round 4).
        const name = challengeUser.value.trim();
        challengeResult.className = 'challenge-result';
        challengeResult.textContent = '';
        void act(challengeSubmit, async () => {
          try {
            await lobbyApi.challenge(name, { variant: challengeVariant.value as Variant, time_control: tc, rated: challengePicker.rated(), color: challengeSide.value as Side });
            challengeUser.value = '';
            challengeResult.textContent = t('lobby.challenge_sent', { name });
          } catch (err) {
            challengeResult.className = 'challenge-result error';
            if (err instanceof ApiError && err.code === 'not_found') challengeResult.textContent = t('lobby.no_such_player');
            else if (err instanceof ApiError && err.code === 'bad_request' && /yourself/.test(err.message)) challengeResult.textContent = t('lobby.challenge_self');
            else challengeResult.textContent = errorWords(err);
          }
          challengeResult.scrollIntoView({ block: 'nearest' });
        });
      },
    },
    h('div.form-row', h('label', t('lobby.challenge_user'), challengeUser)),
    h('div.form-row', h('label', t('home.game'), challengeVariant), h('label', t('home.side'), challengeSide)),
    challengePicker.el,
    h('div.actions', challengeSubmit), challengeResult)
    : h('p.hint', t('lobby.login_to_challenge'), ' ', h('a', { href: loginHref() }, t('nav.login')));

  // `/?challenge=<name>` (a profile's or the following list's Challenge button, browser finding
  // 4): the form opens with the name filled in, for the player to pick a game and a time.
  const asked = new URLSearchParams(location.search).get('challenge')?.trim() ?? '';
  const challengeBox = h('details.lobby-challenge#lobby-challenge', h('summary', t('lobby.challenge_title')), challengeForm) as HTMLDetailsElement;
  if (CHALLENGE_NAME.test(asked)) {
    challengeUser.value = asked;
    challengeBox.open = true;
    requestAnimationFrame(() => {
      challengeBox.scrollIntoView({ block: 'start' });
      (loggedIn ? challengeVariant : challengeBox.querySelector('a'))?.focus({ preventScroll: true });
    });
  }

  // ---------- the stream ----------
  const show = (view: LobbyView) => {
    const fresh = view.started.filter(g => !seenGames().has(g));
    if (fresh.length) {
      goToGame(fresh[fresh.length - 1]);
      return;
    }
    mount(seekList, view.seeks.length ? view.seeks.map(seekItem) : h('li.empty', t('lobby.no_seeks')));
    mount(incoming, view.challenges.incoming.map(challengeItem));
    mount(outgoing, view.challenges.outgoing.map(challengeItem));
    incoming.hidden = view.challenges.incoming.length === 0;
    outgoing.hidden = view.challenges.outgoing.length === 0;
    if (!view.seeks.some(s => s.mine)) status.textContent = '';
  };
  const offline = h('p.hint#lobby-offline', { hidden: true }, t('lobby.offline'));
  const events = new EventSource(lobbyApi.streamUrl);
  const chat = roomChat(null, currentUser);
  listenChat(events, chat);
  events.addEventListener('lobby', e => {
    offline.hidden = true;
    try {
      show(JSON.parse((e as MessageEvent<string>).data) as LobbyView);
    } catch {
      // A malformed event: the next one redraws.
    }
  });
  // The stream broke: if the server is gone, online.ts puts the offline notice in its place.
  events.onerror = () => { offline.hidden = false; void checkServer(); };

  const el = h('section.card.lobby#lobby',
    h('h1', t('lobby.title')),
    quick,
    status,
    error,
    h('section.lobby-challenges', incoming, outgoing),
    h('section.lobby-seeks', h('h2', t('lobby.seeks')), offline, seekList),
    h('details.lobby-new-seek', h('summary', t('lobby.new_seek')), seekForm),
    challengeBox,
    h('section.lobby-chat', chat.el),
  );
  mount(seekList, h('li.empty', t('lobby.no_seeks')));
  incoming.hidden = true;
  outgoing.hidden = true;
  return { el, destroy: () => events.close() };
}
