// Builds the page into dist/: dist/index.html, dist/assets/main-<hash>.js,
// dist/assets/main-<hash>.css (esbuild's content hash in the name: index.html names them, and
// they may be cached for long), dist/assets/sounds/*.wav (the game sounds, made by sounds.mjs
// and committed in src/sounds/), dist/assets/engine-worker-<hash>.js (the engine in the browser), and
// the installable app's dist/manifest.webmanifest and dist/assets/icons/ (made by icons.mjs).
// crates/site-http/build.rs then adds the engine's module and the service worker dist/sw.js,
// which lists every file of dist/.
// The rules pages' exact rulings come from docs/rules/<game>.md and its Russian and Turkish
// translations <game>.ru.md, <game>.tr.md (`virtual:decisions`, read by decisions.mjs).
// Run by `npm run build` and by crates/site-http/build.rs. Chess piece images come from
// chessgroundx's cburnett set, whose classes are renamed to chessgroundx's role names.
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
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

/** The one output file of an esbuild run with `metafile`, as its name under assets/. */
function output(result, ext) {
  const files = Object.keys(result.metafile.outputs).filter(f => f.endsWith(ext));
  if (files.length !== 1) throw new Error(`build.mjs: expected one ${ext} output, got ${files.join(', ')}`);
  return basename(files[0]);
}

// The engine's worker (issue 42): the loader and worker of web/wasm/ (the Node tests use the
// same files), as one module script under its content hash (`engine-worker-<hash>.js`, cached
// for a year like the bundle: after a deploy a page never starts an older worker);
// web/src/engine/client.ts starts it, named through `ENGINE_WORKER_URL`. Built before the page
// for that name. Node's worker module is only imported under Node.js, never in a browser.
const worker = await esbuild.build({
  entryPoints: [join(here, 'wasm/engine-worker.mjs')],
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2022'],
  external: ['node:worker_threads'],
  outdir: assets,
  entryNames: '[name]-[hash]',
  metafile: true,
  logLevel: 'warning',
});
const workerUrl = `/assets/${output(worker, '.js')}`;

const script = await esbuild.build({
  entryPoints: [join(here, 'src/main.ts')],
  bundle: true,
  minify: true,
  sourcemap: false,
  format: 'iife',
  target: ['es2020'],
  outdir: assets,
  entryNames: '[name]-[hash]',
  metafile: true,
  define: { ENGINE_WORKER_URL: JSON.stringify(workerUrl) },
  plugins: [virtualDecisions],
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

const style = await esbuild.build({
  entryPoints: { main: join(here, 'src/style.css') },
  bundle: true,
  minify: true,
  outdir: assets,
  entryNames: '[name]-[hash]',
  metafile: true,
  plugins: [virtualPieces],
  logLevel: 'warning',
});

// index.html names the hashed bundle and style sheet.
const html = readFileSync(join(here, 'src/index.html'), 'utf8')
  .replace('/assets/main.js', `/assets/${output(script, '.js')}`)
  .replace('/assets/main.css', `/assets/${output(style, '.css')}`);
writeFileSync(join(dist, 'index.html'), html);
copyFileSync(join(here, 'src/manifest.webmanifest'), join(dist, 'manifest.webmanifest'));
mkdirSync(join(assets, 'icons'), { recursive: true });
for (const f of readdirSync(join(here, 'src/icons'))) {
  copyFileSync(join(here, 'src/icons', f), join(assets, 'icons', f));
}
mkdirSync(join(assets, 'sounds'), { recursive: true });
for (const f of readdirSync(join(here, 'src/sounds')).filter(f => f.endsWith('.wav'))) {
  copyFileSync(join(here, 'src/sounds', f), join(assets, 'sounds', f));
}
console.log('built', dist);
