// Bundles the extension and the CLI with esbuild. Both target the Node 20 that VS Code 1.100's
// extension host runs, so PatchPilot works in older and newer VS Code alike.
import { build } from 'esbuild';
import { chmodSync, copyFileSync, mkdirSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { LAZY_CHUNKS } from './lib/lazyChunks.mjs';

const require = createRequire(import.meta.url);
const watch = process.argv.includes('--watch');
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
  define: { PATCHPILOT_VERSION: JSON.stringify(JSON.parse(readFileSync('package.json', 'utf8')).version) },
};

/**
 * The webviews' CSP has no 'unsafe-eval', and test/unit/host/csp.test.ts keeps eval out of their
 * bundles. FAST (under @vscode/webview-ui-toolkit) finds the global object with a last-resort
 * `new Function("return this")()` that every engine VS Code ships never reaches: it becomes
 * `globalThis` at build time, so the bundle holds no eval at all.
 */
const GLOBAL_THIS_FALLBACK = 'new Function("return this")()';
const noEvalInDependencies = {
  name: 'no-eval-in-dependencies',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/].*\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      return text.includes(GLOBAL_THIS_FALLBACK) ? { contents: text.split(GLOBAL_THIS_FALLBACK).join('globalThis'), loader: 'js' } : undefined;
    });
  },
};

/**
 * The heavy libraries are chunks of their own, loaded at first use (scripts/lib/lazyChunks.mjs): the
 * loader's `require('./lazy/NAME')` (src/core/base/lazyChunks.ts) becomes a require of
 * dist/lazy/NAME.js, beside every bundle that holds the loader.
 */
const LOADER = path.join('src', 'core', 'base', 'lazyChunks.ts');
const lazyChunkRequires = {
  name: 'lazy-chunk-requires',
  setup(b) {
    b.onResolve({ filter: /^\.\/lazy\/\w+$/ }, (args) => {
      if (!args.importer.endsWith(LOADER)) return undefined;
      const name = args.path.slice('./lazy/'.length);
      if (!(name in LAZY_CHUNKS)) return { errors: [{ text: `${name} is not a lazy chunk: list it in scripts/lib/lazyChunks.mjs` }] };
      return { path: `./lazy/${name}.js`, external: true };
    });
  },
};

/** A bundle that holds a lazy chunk's package has lost the point of the chunk: the build says which and who imports it. */
function checkNoLazyPackages(result, bundle) {
  const packages = Object.values(LAZY_CHUNKS).flat();
  const inputs = Object.keys(result.metafile.inputs);
  for (const pkg of packages) {
    const inside = inputs.find((f) => f.includes(`node_modules/${pkg}/`));
    if (!inside) continue;
    const importer = inputs.find((f) => result.metafile.inputs[f].imports.some((i) => i.path === inside));
    throw new Error(`${bundle} bundles ${pkg} (${inside}, imported by ${importer}); load it through lazyChunk in src/core/base/lazyChunks.ts`);
  }
}

/** A bundle of the product: the lazy chunks stay out of it (checked). */
async function buildMain(options) {
  const result = await build({ ...common, ...options, metafile: true, plugins: [lazyChunkRequires] });
  checkNoLazyPackages(result, options.outfile);
}

mkdirSync('dist', { recursive: true });
await Promise.all([
  buildMain({ entryPoints: ['src/host/vscode/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] }),
  buildMain({ entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' }, keepNames: true }),
  // The history store's worker thread (src/core/history/workerStore.ts loads it from next to the bundle).
  buildMain({ entryPoints: ['src/core/history/worker/historyWorker.ts'], outfile: 'dist/historyWorker.js' }),
  // The patch engine's worker thread for large plans (src/core/patch/offThreadPlanner.ts loads it from next to the bundle).
  buildMain({ entryPoints: ['src/core/patch/worker/patchWorker.ts'], outfile: 'dist/patchWorker.js' }),
  // The lazy chunks, dist/lazy/NAME.js. keepNames: grammY's node-fetch accepts an abort signal by its class's name, which bundling renames.
  build({
    ...common,
    entryPoints: Object.fromEntries(Object.keys(LAZY_CHUNKS).map((name) => [`lazy/${name}`, `src/core/base/lazy/${name}.ts`])),
    outdir: 'dist',
    keepNames: true,
  }),
  // The chat and history webviews: browser bundles (script + stylesheet) under dist/webview, the only folder
  // besides media/ that the webview may load from (localResourceRoots). No eval, no inline code.
  build({
    bundle: true,
    platform: 'browser',
    target: 'chrome120',
    format: 'iife',
    minify: true,
    sourcemap: true,
    logLevel: 'warning',
    entryPoints: { chat: 'webview-ui/chat/main.ts', history: 'webview-ui/history/main.ts' },
    outdir: 'dist/webview',
    plugins: [noEvalInDependencies],
  }),
]);
chmodSync('dist/cli.js', 0o755);

// sql.js loads its wasm at run time: ship it next to the bundles (no network, ever).
const wasm = path.join(path.dirname(require.resolve('sql.js')), 'sql-wasm.wasm');
if (existsSync(wasm)) copyFileSync(wasm, 'dist/sql-wasm.wasm');
// The command policy parses shell with tree-sitter (wasm): runtime and bash grammar sit next to the bundles.
copyFileSync(require.resolve('web-tree-sitter/tree-sitter.wasm'), 'dist/tree-sitter.wasm');
copyFileSync(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'), 'dist/tree-sitter-bash.wasm');
// Codicons for the webviews: the stylesheet and its font, loaded from dist/webview (font-src is the webview's own source).
const codicons = path.dirname(require.resolve('@vscode/codicons/dist/codicon.css'));
for (const f of ['codicon.css', 'codicon.ttf']) copyFileSync(path.join(codicons, f), path.join('dist/webview', f));
if (watch) console.log('watch mode is not supported; run npm run build again');
