// Makes the game sounds of web/src/sounds/ (16-bit mono PCM WAV, 11,025 Hz), synthesised here
// from sine tones and seeded noise, so they are the project's own work (AGPL like the rest):
//   node web/sounds.mjs
// The files are committed; build.mjs copies them to dist/assets/sounds/. Same output every run.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const RATE = 11025;
const here = dirname(fileURLToPath(import.meta.url));
const dir = join(here, 'src/sounds');

// A small seeded generator (mulberry32): the noise is the same at every run.
function noise(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296 * 2 - 1;
  };
}

/** `seconds` of samples from `f(t)` in -1..1. */
function render(seconds, f) {
  const n = Math.round(seconds * RATE);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = f(i / RATE, i);
  return out;
}

const sine = (freq, t) => Math.sin(2 * Math.PI * freq * t);
const decay = (t, rate) => Math.exp(-t * rate);

/** A wooden knock: a low tone and a filtered noise burst, both dying fast. */
function knock(seconds, pitch, loud, seed) {
  const rnd = noise(seed);
  let low = 0;
  return render(seconds, t => {
    low += 0.35 * (rnd() - low); // one-pole low-pass: a dull click, not a hiss
    const attack = Math.min(1, t * 2000);
    return attack * loud * (0.7 * sine(pitch, t) * decay(t, 45) + 0.6 * low * decay(t, 90));
  });
}

const sounds = {
  move: () => knock(0.09, 190, 0.8, 1),
  capture: () => {
    const a = knock(0.07, 150, 0.9, 2);
    const b = knock(0.1, 120, 1.0, 3);
    const gap = Math.round(0.045 * RATE);
    const out = new Float64Array(gap + b.length);
    out.set(a);
    for (let i = 0; i < b.length; i++) out[gap + i] += b[i];
    return out;
  },
  check: () => render(0.3, t => {
    const first = t < 0.12 ? sine(988, t) * decay(t, 18) : 0;
    const second = t >= 0.1 ? sine(740, t - 0.1) * decay(t - 0.1, 14) : 0;
    return 0.5 * (first + second) * Math.min(1, t * 800);
  }),
  // The Ice Age: a cold chord that swells and fades, with ice crackling over it.
  iceage: () => {
    const rnd = noise(4);
    return render(1.0, t => {
      const swell = Math.min(1, t / 0.15) * decay(Math.max(0, t - 0.15), 3.2);
      const chord = sine(659, t) + 0.8 * sine(988, t * (1 + 0.002 * sine(5, t))) + 0.5 * sine(1319, t) + 0.35 * sine(1976, t);
      const crackle = rnd() > 0.985 ? rnd() * 0.9 : 0;
      return 0.22 * swell * chord + 0.5 * crackle * decay(t, 2.5);
    });
  },
  // The end of a game: three falling-then-resolving notes.
  end: () => render(0.75, t => {
    const note = (start, freq) => (t >= start ? sine(freq, t - start) * decay(t - start, 5) * Math.min(1, (t - start) * 600) : 0);
    return 0.3 * (note(0, 523) + note(0.16, 659) + note(0.32, 784) + 0.6 * note(0.32, 392));
  }),
  // A puzzle solved: two bright rising notes.
  success: () => render(0.4, t => {
    const note = (start, freq) => (t >= start ? sine(freq, t - start) * decay(t - start, 9) * Math.min(1, (t - start) * 600) : 0);
    return 0.35 * (note(0, 784) + note(0.1, 1175));
  }),
  // A puzzle failed: a low falling pair.
  failure: () => render(0.45, t => {
    const note = (start, freq) => (t >= start ? sine(freq, t - start) * decay(t - start, 8) * Math.min(1, (t - start) * 600) : 0);
    return 0.35 * (note(0, 330) + note(0.14, 233));
  }),
};

function wav(samples) {
  const data = Buffer.alloc(samples.length * 2);
  let peak = 0;
  for (const s of samples) peak = Math.max(peak, Math.abs(s));
  const gain = peak > 0.95 ? 0.95 / peak : 1;
  samples.forEach((s, i) => data.writeInt16LE(Math.round(s * gain * 32767), i * 2));
  const head = Buffer.alloc(44);
  head.write('RIFF', 0);
  head.writeUInt32LE(36 + data.length, 4);
  head.write('WAVE', 8);
  head.write('fmt ', 12);
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20); // PCM
  head.writeUInt16LE(1, 22); // mono
  head.writeUInt32LE(RATE, 24);
  head.writeUInt32LE(RATE * 2, 28);
  head.writeUInt16LE(2, 32);
  head.writeUInt16LE(16, 34);
  head.write('data', 36);
  head.writeUInt32LE(data.length, 40);
  return Buffer.concat([head, data]);
}

mkdirSync(dir, { recursive: true });
for (const [name, make] of Object.entries(sounds)) {
  const bytes = wav(make());
  writeFileSync(join(dir, `${name}.wav`), bytes);
  console.log(`${name}.wav ${bytes.length} bytes`);
}
