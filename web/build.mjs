// Builds the page into dist/: dist/index.html, dist/assets/main.js, dist/assets/main.css,
// dist/assets/engine-worker.js (the engine in the browser) and
// dist/assets/sounds/*.wav (the game sounds, made by sounds.mjs and committed in src/sounds/).
// The rules pages' exact rulings come from docs/rules/<game>.md and its Russian and Turkish
// translations <game>.ru.md, <game>.tr.md (`virtual:decisions`, read by decisions.mjs).
// Run by `npm run build` and by crates/site-http/build.rs. Chess piece images come from
// chessgroundx's cburnett set, whose classes are renamed to chessgroundx's role names.
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { allDecisions, fileOf, GAMES, LANGS } from './decisions.mjs';

const here = dirname(fileURLToPath(import.meta.url));

// The exact rulings in every language (decisions.mjs): a translation that lacks a decision of
// the English file, or has one it does not have, fails the build.
let rulings;
try {
  rulings = allDecisions(message => console.warn(`build.mjs: warning: ${message}`));
} catch (err) {
  console.error(`build.mjs: ${err.message}`);
  process.exit(1);
}
const virtualDecisions = {
  name: 'virtual-decisions',
  setup(build) {
    build.onResolve({ filter: /^virtual:decisions$/ }, () => ({ path: 'decisions', namespace: 'virtual-decisions' }));
    build.onLoad({ filter: /.*/, namespace: 'virtual-decisions' }, () => ({
      contents: JSON.stringify(rulings),
      loader: 'json',
      watchFiles: GAMES.flatMap(g => LANGS.map(l => join(here, '..', fileOf(g, l)))),
    }));
  },
};
const dist = join(here, 'dist');
const assets = join(dist, 'assets');
rmSync(dist, { recursive: true, force: true });
mkdirSync(assets, { recursive: true });

await esbuild.build({
  entryPoints: [join(here, 'src/main.ts')],
  bundle: true,
  minify: true,
  sourcemap: false,
  format: 'iife',
  target: ['es2020'],
  outfile: join(assets, 'main.js'),
  plugins: [virtualDecisions],
  logLevel: 'warning',
});

// The engine's worker (issue 42): the loader and worker of web/wasm/ (the Node tests use the
// same files), as one module script; web/src/engine/client.ts starts it. Node's worker module
// is only imported under Node.js, never in a browser.
await esbuild.build({
  entryPoints: [join(here, 'wasm/engine-worker.mjs')],
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2022'],
  external: ['node:worker_threads'],
  outfile: join(assets, 'engine-worker.js'),
  logLevel: 'warning',
});

const cburnett = readFileSync(
  join(here, 'node_modules/chessgroundx/assets/chessground.cburnett.css'),
  'utf8',
);
const roles = { pawn: 'p', knight: 'n', bishop: 'b', rook: 'r', queen: 'q', king: 'k' };
// The same images name the pieces of the promotion picker and the Ice Age's account (.piece-icon).
const pieces = cburnett.replace(
  /\.cg-wrap piece\.(pawn|knight|bishop|rook|queen|king)\.(white|black)/g,
  (_, name, color) => `.cg-wrap.chess piece.${roles[name]}-piece.${color}, .piece-icon.${roles[name]}-piece.${color}`,
);
// style.css imports `virtual:pieces.css`: the renamed set, made here without touching src/.
const virtualPieces = {
  name: 'virtual-pieces',
  setup(build) {
    build.onResolve({ filter: /^virtual:pieces\.css$/ }, () => ({ path: 'pieces', namespace: 'virtual' }));
    build.onLoad({ filter: /.*/, namespace: 'virtual' }, () => ({ contents: pieces, loader: 'css' }));
  },
};

await esbuild.build({
  entryPoints: [join(here, 'src/style.css')],
  bundle: true,
  minify: true,
  outfile: join(assets, 'main.css'),
  plugins: [virtualPieces],
  logLevel: 'warning',
});

copyFileSync(join(here, 'src/index.html'), join(dist, 'index.html'));
mkdirSync(join(assets, 'sounds'), { recursive: true });
for (const f of readdirSync(join(here, 'src/sounds')).filter(f => f.endsWith('.wav'))) {
  copyFileSync(join(here, 'src/sounds', f), join(assets, 'sounds', f));
}
console.log('built', dist);
