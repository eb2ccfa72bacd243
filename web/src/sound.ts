// The game sounds (web/src/sounds/*.wav, made by web/sounds.mjs and served from /assets/sounds/):
// a move, a capture, a check, the Ice Age, the end of a game and a puzzle solved or failed, behind
// a remembered mute switch.

import { prefs, setSoundOn, soundOn } from './prefs';

/** The sounds of the `quiet` set (preferences): moves, captures and the game's end. */
const QUIET: Sound[] = ['move', 'capture', 'end'];

export type Sound = 'move' | 'capture' | 'check' | 'iceage' | 'end' | 'success' | 'failure';

const cache = new Map<Sound, HTMLAudioElement>();

function audio(name: Sound): HTMLAudioElement {
  let a = cache.get(name);
  if (!a) {
    a = new Audio(`/assets/sounds/${name}.wav`);
    a.preload = 'auto';
    cache.set(name, a);
  }
  return a;
}

/** Plays `name` unless the sound is off, at the preferences' volume, if their sound set has
 * it. A browser that blocks sound before the first click (autoplay rules) just stays
 * silent. */
export function play(name: Sound): void {
  const want = prefs();
  if (!soundOn() || want.volume === 0) return;
  if (want.sound_set === 'quiet' && !QUIET.includes(name)) return;
  const a = audio(name);
  try {
    a.volume = want.volume / 100;
    a.currentTime = 0;
    const p = a.play();
    if (p) p.catch(() => undefined);
  } catch {
    // no sound on this browser
  }
}

export function enabled(): boolean {
  return soundOn();
}

export function setEnabled(on: boolean): void {
  setSoundOn(on);
}
