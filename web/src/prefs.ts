// Settings this browser remembers (localStorage): sound on or off, which games are shown
// flipped, and where the analysis board's engine runs. A storage that refuses writes (private mode, full) only loses the memory.

const SOUND = 'icebound.sound';
const FLIPPED = 'icebound.flipped';
const ENGINE = 'icebound.engine';
/** Games whose flip is remembered, newest last; older ones are forgotten. */
const MAX_FLIPPED = 100;

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // not remembered; the setting still holds for this page
  }
}

export function soundOn(): boolean {
  return read(SOUND) !== 'off';
}

export function setSoundOn(on: boolean): void {
  write(SOUND, on ? 'on' : 'off');
}

function flippedIds(): string[] {
  try {
    const list = JSON.parse(read(FLIPPED) ?? '[]');
    return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** Whether the player turned game `id`'s board around. */
export function isFlipped(id: string): boolean {
  return flippedIds().includes(id);
}

export function setFlipped(id: string, flipped: boolean): void {
  const ids = flippedIds().filter(x => x !== id);
  if (flipped) ids.push(id);
  write(FLIPPED, JSON.stringify(ids.slice(-MAX_FLIPPED)));
}

/** Whether the analysis board runs the engine in this browser (the default) rather than on
 * the server. */
export function engineInBrowser(): boolean {
  return read(ENGINE) !== 'server';
}

export function setEngineInBrowser(on: boolean): void {
  write(ENGINE, on ? 'browser' : 'server');
}
