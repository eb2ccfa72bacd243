// A short two-note chime for a notification, made with WebAudio (no sound file to fetch),
// behind the site's mute switch. A browser that blocks sound before the first click stays
// silent.

import { soundOn } from '../prefs';

let context: AudioContext | undefined;

export function chime(): void {
  if (!soundOn()) return;
  try {
    context ??= new AudioContext();
    const ctx = context;
    const start = ctx.currentTime;
    for (const [i, freq] of [880, 1320].entries()) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = 'sine';
      osc.frequency.value = freq;
      const at = start + i * 0.12;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.15, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.25);
      osc.connect(gain).connect(ctx.destination);
      osc.start(at);
      osc.stop(at + 0.3);
    }
  } catch {
    // no WebAudio here
  }
}
