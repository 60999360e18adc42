// The layering rules of ARCHITECTURE.md, enforced so that nobody has to remember them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');

function sourceFiles(dir: string): string[] {
  const abs = path.join(root, dir);
  if (!existsSync(abs)) return [];
  const out: string[] = [];
  for (const name of readdirSync(abs)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const rel = path.join(dir, name);
    if (statSync(path.join(root, rel)).isDirectory()) out.push(...sourceFiles(rel));
    else if (/\.(ts|tsx|js|mjs|cjs)$/.test(name)) out.push(rel);
  }
  return out;
}

/** Every module specifier: import/export from, require(), dynamic import(). */
function specifiers(text: string): string[] {
  const re = /(?:\bfrom\s*|\brequire\s*\(\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;
  return [...text.matchAll(re)].map((m) => m[1]!);
}

test('src/core, src/protocol and src/cli never import vscode', () => {
  const offenders = ['src/core', 'src/protocol', 'src/cli']
    .flatMap(sourceFiles)
    .filter((f) => specifiers(readFileSync(path.join(root, f), 'utf8')).some((s) => s === 'vscode' || s.startsWith('vscode/')));
  assert.deepEqual(offenders, []);
});

test('src/core and src/protocol never import the host or the CLI', () => {
  const offenders = ['src/core', 'src/protocol'].flatMap(sourceFiles).filter((f) =>
    specifiers(readFileSync(path.join(root, f), 'utf8')).some((s) => s.includes('/host/') || s.includes('/cli/')),
  );
  assert.deepEqual(offenders, []);
});

test('src/protocol has zero imports', () => {
  const offenders = sourceFiles('src/protocol').filter((f) =>
    specifiers(readFileSync(path.join(root, f), 'utf8')).some((s) => !s.startsWith('.')),
  );
  assert.deepEqual(offenders, []);
});

test('webview-ui imports nothing from src/ but src/protocol', () => {
  const offenders = sourceFiles('webview-ui').filter((f) =>
    specifiers(readFileSync(path.join(root, f), 'utf8')).some((s) => s.includes('/src/') && !s.includes('/src/protocol')),
  );
  assert.deepEqual(offenders, []);
});

test('the checker itself sees imports in every form', () => {
  const sample = `import * as vscode from 'vscode';\nconst x = require("vscode");\nexport { a } from './a';\nawait import('vscode/x');\nimport 'side';`;
  assert.deepEqual(specifiers(sample), ['vscode', 'vscode', './a', 'vscode/x', 'side']);
});

test('the host logic files (*Logic.ts, patchJournal.ts) stay free of vscode, so they run in plain Node tests', () => {
  const offenders = sourceFiles('src/host/vscode')
    .filter((f) => /Logic\.ts$|patchJournal\.ts$/.test(f))
    .filter((f) => specifiers(readFileSync(path.join(root, f), 'utf8')).some((s) => s === 'vscode' || s.startsWith('vscode/')));
  assert.deepEqual(offenders, []);
});
