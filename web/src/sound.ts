// The game sounds (web/src/sounds/*.wav, made by web/sounds.mjs and served from /assets/sounds/):
// a move, a capture, a check, the Ice Age, the end of a game and a puzzle solved or failed, behind
// a remembered mute switch.

import { setSoundOn, soundOn } from './prefs';

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

/** Plays `name` unless the sound is off. A browser that blocks sound before the first click
 * (autoplay rules) just stays silent. */
export function play(name: Sound): void {
  if (!soundOn()) return;
  const a = audio(name);
  try {
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
