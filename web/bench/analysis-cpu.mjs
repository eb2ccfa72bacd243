// The server's CPU for one analysis-board session (issue 42, docs/performance.md "Server CPU
// of an analysis session"), with the board's engine in the browser and on the server.
//
//   node web/bench/analysis-cpu.mjs --url http://127.0.0.1:8080 --pid <server pid> \
//     [--engine browser|server|both] [--seconds 40]
//
// One headless chromium (/usr/bin/chromium, or CHROMIUM) opens the Antarctos analysis board
// with the engine line on, and every quarter of the session plays one move of the fixed line
// c3-d4 f6-g5 b2-c3 on the board, so that the line restarts on a new position (four positions,
// as the earlier measurement's four 10-second searches). The server's CPU is read from
// /proc/<pid>/stat (utime + stime, in clock ticks) before the page opens and after the session;
// the script prints the wall time, the server's CPU seconds and the requests the page sent to
// /api/analysis, /api/solve and /api/positions.

import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { chromium } from 'playwright-core';
import { base, clickSquare } from '../e2e/lib.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : dflt;
};
const pid = Number(arg('pid', '0'));
const seconds = Number(arg('seconds', '40'));
const engines = arg('engine', 'both') === 'both' ? ['server', 'browser'] : [arg('engine')];
if (!(pid > 0) || !(seconds > 0) || !engines.every(e => e === 'browser' || e === 'server')) {
  console.error('usage: analysis-cpu.mjs --url <site> --pid <server pid> [--engine browser|server|both] [--seconds 40]');
  process.exit(2);
}
const TICK = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());
const LINE = [['c3', 'd4'], ['f6', 'g5'], ['b2', 'c3']];

/** The server process's CPU so far, in clock ticks (utime + stime, /proc/<pid>/stat). */
function cpuTicks() {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start after its closing ')'.
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(f[11]) + Number(f[12]);
}

const sleep = ms => new Promise(r => setTimeout(r, ms));

async function session(browser, where) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  await context.addInitScript(w => localStorage.setItem('icebound.engine', w), where);
  const page = await context.newPage();
  const asked = [];
  page.on('request', r => { if (/\/api\/(analysis|solve|positions)\b/.test(r.url())) asked.push(new URL(r.url()).pathname); });
  const t0 = cpuTicks();
  const start = performance.now();
  await page.goto(`${base}/analysis/antarctos`);
  await page.waitForSelector('.cg-wrap cg-board piece');
  await page.waitForSelector('#engine-toggle');
  // The switch shows checked once the module is compiled: wait for it (or for it unchecked).
  const want = where === 'browser' ? '#engine-local:checked' : '#engine-local:not(:checked)';
  const shown = await page.waitForSelector(want, { timeout: 20000 }).then(() => true, () => false);
  if (!shown) throw new Error(`the board's engine is not ${where === 'browser' ? 'in the browser' : 'on the server'} (no wasm build in this server?)`);
  await page.click('#engine-toggle');
  await page.waitForFunction(() => document.querySelectorAll('#engine-pv button.move').length > 0, null, { timeout: 30000 });
  const quarter = (seconds * 1000) / 4;
  for (let i = 0; i < 4; i++) {
    const until = start + quarter * (i + 1);
    await sleep(Math.max(0, until - performance.now()));
    if (i < LINE.length) {
      for (const sq of LINE[i]) await clickSquare(page, sq);
    }
  }
  const wall = (performance.now() - start) / 1000;
  const ticks = cpuTicks() - t0;
  const depth = (await page.textContent('#engine').catch(() => '')).replace(/\s+/g, ' ').slice(0, 80);
  await context.close();
  const counts = {};
  for (const p of asked) counts[p] = (counts[p] ?? 0) + 1;
  return { where, wall, ticks, cpu: ticks / TICK, counts, depth };
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  console.log(`server pid ${pid}, ${TICK} ticks a second, sessions of ${seconds} s, load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  console.log('| engine | wall | server CPU | share of a core | requests |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const where of engines) {
    const r = await session(browser, where);
    const req = Object.entries(r.counts).map(([p, n]) => `${p} ×${n}`).join(', ') || 'none';
    console.log(`| ${where} | ${r.wall.toFixed(1)} s | ${r.ticks} ticks = ${r.cpu.toFixed(2)} s | ${(r.cpu / r.wall).toFixed(3)} | ${req} |`);
    console.error(`  (${where}: the panel at the end: ${r.depth})`);
  }
} finally {
  await browser.close();
}
