// One file-name case for the product's modules: camelCase (patchManager.ts, checkPath.ts), the case
// most of the repository already used. The parser's files keep their kebab names until the patch
// engine's work on them is done (renaming under it would only make its merges conflict).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');
const PENDING_RENAME = ['src/core/patch/parse/'];

function files(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.name === 'node_modules' || e.name === 'dist') return [];
    return e.isDirectory() ? files(rel) : /\.(ts|tsx|mts)$/.test(e.name) ? [rel] : [];
  });
}

test('modules in src/ and webview-ui/ are named in camelCase', () => {
  const offenders = ['src', 'webview-ui']
    .flatMap(files)
    .filter((f) => !PENDING_RENAME.some((p) => f.startsWith(p)))
    .filter((f) => !/^[a-z][a-zA-Z0-9]*(\.[a-z]+)*\.tsx?$/.test(path.basename(f)));
  assert.deepEqual(offenders, []);
});
