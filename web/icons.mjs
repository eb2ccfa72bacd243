// Makes the app's icons in web/src/icons/ (the installable app's manifest, issue 42): a
// six-armed snowflake in the site's ice colour on its header colour, as an SVG and as PNGs of
// 192 and 512 pixels (what browsers ask of an installable app; 512 also "maskable": the flake
// stays inside the middle 80 %). Drawn here, antialiased by coverage, with node:zlib only:
//   node web/icons.mjs
// The files are committed; build.mjs copies them to dist/assets/icons/. Same output every run.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const dir = join(here, 'src/icons');
/** The header's colour (style.css `--header`), also the manifest's theme colour. */
const BACK = [0x10, 0x2b, 0x40];
/** The ice colour (style.css `--ice`). */
const INK = [0xcf, 0xea, 0xf8];

/** The flake's strokes in a 0..1 square: six arms, each with two pairs of branches. */
function strokes() {
  const out = [];
  const c = 0.5;
  const arm = 0.3;
  for (let k = 0; k < 6; k++) {
    const a = (k * Math.PI) / 3 - Math.PI / 2;
    const dx = Math.cos(a);
    const dy = Math.sin(a);
    out.push([c, c, c + dx * arm, c + dy * arm]);
    for (const [at, len] of [[0.55, 0.09], [0.8, 0.06]]) {
      const px = c + dx * arm * at;
      const py = c + dy * arm * at;
      for (const side of [-1, 1]) {
        const b = a + side * (Math.PI / 4);
        out.push([px, py, px + Math.cos(b) * len, py + Math.sin(b) * len]);
      }
    }
  }
  return out;
}

const WIDTH = 0.036;

function distance(x, y, [x1, y1, x2, y2]) {
  const vx = x2 - x1;
  const vy = y2 - y1;
  const t = Math.max(0, Math.min(1, ((x - x1) * vx + (y - y1) * vy) / (vx * vx + vy * vy)));
  return Math.hypot(x - x1 - t * vx, y - y1 - t * vy);
}

/** RGBA rows of a `size` pixel icon, 4 x 4 samples per pixel. */
function draw(size) {
  const lines = strokes();
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4);
    for (let x = 0; x < size; x++) {
      let hit = 0;
      for (let sy = 0; sy < 4; sy++) {
        for (let sx = 0; sx < 4; sx++) {
          const u = (x + (sx + 0.5) / 4) / size;
          const v = (y + (sy + 0.5) / 4) / size;
          if (lines.some(l => distance(u, v, l) <= WIDTH / 2)) hit++;
        }
      }
      const f = hit / 16;
      for (let i = 0; i < 3; i++) row[1 + x * 4 + i] = Math.round(BACK[i] * (1 - f) + INK[i] * f);
      row[1 + x * 4 + 3] = 255;
    }
    rows.push(row);
  }
  return Buffer.concat(rows);
}

const CRC = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function chunk(type, data) {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  let crc = 0xffffffff;
  for (const b of body) crc = CRC[(crc ^ b) & 0xff] ^ (crc >>> 8);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const sum = Buffer.alloc(4);
  sum.writeUInt32BE((crc ^ 0xffffffff) >>> 0);
  return Buffer.concat([len, body, sum]);
}

function png(size) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bits per channel
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(draw(size), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function svg() {
  const hex = c => '#' + c.map(v => v.toString(16).padStart(2, '0')).join('');
  const r = v => +(v * 100).toFixed(2);
  const paths = strokes().map(([x1, y1, x2, y2]) => `M${r(x1)} ${r(y1)}L${r(x2)} ${r(y2)}`).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">` +
    `<rect width="100" height="100" rx="18" fill="${hex(BACK)}"/>` +
    `<path d="${paths}" stroke="${hex(INK)}" stroke-width="${r(WIDTH)}" stroke-linecap="round" fill="none"/>` +
    `</svg>\n`;
}

mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'icon.svg'), svg());
for (const size of [192, 512]) writeFileSync(join(dir, `icon-${size}.png`), png(size));
console.log('icons written to', dir);
