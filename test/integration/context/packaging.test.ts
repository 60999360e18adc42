// The .vsix carries the bundled skills (the extension loads them from its own folder), and the CLI
// of a checkout or the npm package finds them next to dist/. Listed with vsce, the tool that packages the extension.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { findBundledSkillsDir } from '../../../src/core/context/skills/bundledDir';

const root = path.resolve(__dirname, '../../..');
const vsce = path.join(root, 'node_modules/.bin/vsce');

test('the packaged extension carries every bundled skill with its scripts', { skip: existsSync(vsce) ? false : 'vsce is not installed' }, () => {
  const r = spawnSync(vsce, ['ls', '--no-dependencies'], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, r.stderr);
  const listed = new Set(r.stdout.split('\n').map((l) => l.trim()));
  for (const file of [
    'skills/write-tests/SKILL.md',
    'skills/write-tests/scripts/related-tests.sh',
    'skills/fix-failing-tests/SKILL.md',
    'skills/refactor-safely/SKILL.md',
    'skills/review-before-finish/SKILL.md',
    'skills/review-before-finish/scripts/review-diff.sh',
  ]) {
    assert.ok(listed.has(file), `${file} is not in the .vsix`);
  }
  // What runs in VS Code is there; the CLI bundle (the npm package's bin) is not: the extension never runs it.
  assert.ok(listed.has('dist/extension.js') && listed.has('dist/sql-wasm.wasm'));
  assert.equal(listed.has('dist/cli.js'), false);
  // In a checkout (or the npm package), the CLI bundle (dist/cli.js) finds them one folder up.
  assert.equal(findBundledSkillsDir(path.join(root, 'dist')), path.join(root, 'skills'));
});
