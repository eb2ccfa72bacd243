// The game's clocks (issue 13): the server is the authority (GameView's `clock`, the time
// left when the state was made); the page counts down from the moment the state arrived, and
// asks for the state again when the shown time reaches zero, so a flag shows within moments
// even if the push is lost. Real-time shows m:ss (tenths under 10 s) with a low-time
// warning; correspondence shows the time left and the deadline. Before each side's first move
// a real-time clock stands at its full time and a line counts down the first move's wait (as
// lichess: the main clock starts with Black's first move).

import type { ClockView, Color, GameView } from '../api';
import { h } from '../dom';
import { colorName, dateTime, t } from '../i18n';

/** Below this much time left (ms) a real-time clock warns: a tenth of the initial time, at
 * least 10 s and at most 30 s. */
export function lowTimeMs(initialMs: number): number {
  return Math.min(30_000, Math.max(10_000, initialMs / 10));
}

/** `ms` as a real-time clock shows it: `h:mm:ss` from an hour, `m:ss`, and `s.t` (tenths)
 * under ten seconds. */
export function formatClock(ms: number): string {
  const left = Math.max(0, ms);
  if (left < 10_000) return (Math.floor(left / 100) / 10).toFixed(1);
  const total = Math.floor(left / 1000);
  const s = total % 60;
  const m = Math.floor(total / 60) % 60;
  const hours = Math.floor(total / 3600);
  const ss = String(s).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** A correspondence time left in days and hours (or hours and minutes). */
export function formatDays(ms: number): string {
  const left = Math.max(0, ms);
  const hours = Math.floor(left / 3_600_000);
  if (hours >= 24) return t('clock.days_hours', { d: Math.floor(hours / 24), h: hours % 24 });
  return t('clock.hours_minutes', { h: hours, m: Math.floor((left % 3_600_000) / 60_000) });
}

/** The time control in short: `3+2`, `5 days`, as the lobby writes it. */
export function controlLabel(c: ClockView | null | undefined): string {
  if (!c) return t('clock.unlimited');
  if (c.kind === 'correspondence') return t('clock.days', { n: c.days });
  const s = c.initial_ms / 1000;
  const minutes = s === 15 ? '¼' : s === 30 ? '½' : s === 45 ? '¾' : s % 60 === 0 ? String(s / 60) : `${s}s`;
  return `${minutes}+${c.increment_ms / 1000}`;
}

/** Both sides' clock faces, kept ticking; `set` with each new state, `stop` when leaving. */
export class GameClocks {
  readonly faces: Record<Color, HTMLElement> = {
    white: h('span.clock', { 'data-color': 'white', role: 'timer', 'aria-live': 'off' }),
    black: h('span.clock', { 'data-color': 'black', role: 'timer', 'aria-live': 'off' }),
  };
  /** "White must move within 27 s", shown while a first move is awaited. */
  readonly firstMove = h('p.first-move#first-move', { hidden: true, role: 'timer', 'aria-live': 'off' });
  private clock: ClockView | null = null;
  private ongoing = false;
  private at = 0; // performance.now() when the state arrived
  private timer: number | undefined;
  private asked = false;
  private you: GameView['you'] = null;

  /** `resync` is called once when a running clock shows zero. */
  constructor(private readonly resync: () => void) {}

  set(g: GameView): void {
    this.clock = g.clock ?? null;
    this.ongoing = g.status === 'ongoing';
    this.at = performance.now();
    this.asked = false;
    this.you = g.you;
    for (const c of ['white', 'black'] as Color[]) {
      this.faces[c].hidden = !this.clock;
      this.faces[c].classList.remove('stale');
    }
    this.firstMove.hidden = true;
    this.firstMove.classList.remove('stale');
    this.draw();
    window.clearInterval(this.timer);
    this.timer = undefined;
    if (this.clock?.running && this.ongoing) {
      this.timer = window.setInterval(() => this.draw(), this.clock.kind === 'realtime' ? 100 : 30_000);
    }
  }

  stop(): void {
    window.clearInterval(this.timer);
  }

  /** The page lost its live connection: the faces stop and are marked as not live (the
   * other side may have moved meanwhile, so counting down either side could mislead). The
   * next `set` makes them live again. */
  offline(): void {
    this.stop();
    this.timer = undefined;
    for (const c of ['white', 'black'] as Color[]) {
      const face = this.faces[c];
      face.classList.add('stale');
      face.title = t('clock.stale_title');
      face.setAttribute('aria-label', `${face.title}: ${face.textContent}`);
    }
    this.firstMove.classList.add('stale');
    this.firstMove.title = t('clock.stale_title');
  }

  /** Time left of `c` now, ms (real-time), or until the deadline (correspondence). */
  left(c: Color): number | null {
    const k = this.clock;
    if (!k) return null;
    const elapsed = performance.now() - this.at;
    if (k.kind === 'realtime') {
      const base = c === 'white' ? k.white_ms : k.black_ms;
      return this.ticking(c) ? base - elapsed : base;
    }
    if (k.running === c && k.deadline_ms !== null && this.ongoing) return k.deadline_ms - Date.now();
    return k.days * 86_400_000;
  }

  /** Whether `c`'s face counts down now (not while a first move is awaited). */
  private ticking(c: Color): boolean {
    const k = this.clock;
    return !!k && this.ongoing && k.running === c && !(k.kind === 'realtime' && k.first_move_ms != null);
  }

  private draw(): void {
    const k = this.clock;
    if (!k) return;
    if (k.kind === 'realtime' && k.first_move_ms != null && k.running && this.ongoing) {
      const left = k.first_move_ms - (performance.now() - this.at);
      this.firstMove.hidden = false;
      const s = Math.max(0, Math.ceil(left / 1000));
      // The player to move is told "You": "White must move" left some wondering who.
      this.firstMove.textContent = this.you === k.running ? t('clock.first_move_you', { s }) : t('clock.first_move', { color: colorName(k.running), s });
      this.firstMove.title = t('clock.first_move_title');
      this.firstMove.classList.toggle('low', left < 10_000);
      if (left <= 0 && !this.asked) {
        this.asked = true;
        // The server aborts on its own; ask a moment later for the state that says so.
        window.setTimeout(this.resync, 400);
      }
    }
    for (const c of ['white', 'black'] as Color[]) {
      const face = this.faces[c];
      const left = this.left(c) ?? 0;
      const running = this.ticking(c);
      face.classList.toggle('running', running);
      if (k.kind === 'realtime') {
        face.textContent = formatClock(left);
        face.classList.toggle('low', running && left < lowTimeMs(k.initial_ms));
        face.title = t('clock.realtime_title');
      } else {
        // A side on vacation: its clock stands until the vacation ends (issue 38).
        const away = running && k.vacation_until_ms ? k.vacation_until_ms : null;
        face.textContent = away ? t('clock.vacation', { when: dateTime(away) }) : running ? formatDays(left) : t('clock.days', { n: k.days });
        face.classList.toggle('vacation', away !== null);
        face.classList.toggle('low', running && !away && left < 86_400_000 / 4);
        face.title = running && k.deadline_ms !== null
          ? t('clock.deadline', { when: dateTime(k.deadline_ms) }) : t('clock.correspondence_title');
      }
      face.setAttribute('aria-label', `${face.title}: ${face.textContent}`);
      if (running && left <= 0 && !this.asked) {
        this.asked = true;
        // The server flags on its own; ask a moment later for the state that says so.
        window.setTimeout(this.resync, 400);
      }
    }
  }
}
