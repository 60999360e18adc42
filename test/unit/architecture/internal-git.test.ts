// PatchPilot's own git calls run outside the sandbox in a workspace the agent writes, so they
// all go through src/core/git/safeGit.ts (explicit repository, every executing config neutralised).
// A second way to run git would be a second place to forget that: this test keeps it the only one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');
const RUNNER = 'src/core/git/safeGit.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const rel = `${dir}/${name}`;
    if (statSync(path.join(root, rel)).isDirectory()) return sourceFiles(rel);
    return /\.(ts|tsx|js|mjs|cjs)$/.test(name) ? [rel] : [];
  });
}

/** simple-git (any import form), or a child process started with the literal program "git". */
const RUNS_GIT = /['"]simple-git['"]|\b(?:execFile|execFileSync|spawn|spawnSync|fork)\s*\(\s*['"]git['"]/;

test('only src/core/git/safeGit.ts runs git', () => {
  const offenders = sourceFiles('src').filter((f) => f !== RUNNER && RUNS_GIT.test(readFileSync(path.join(root, f), 'utf8')));
  assert.deepEqual(offenders, []);
  assert.match(readFileSync(path.join(root, RUNNER), 'utf8'), RUNS_GIT, 'the checker recognises the runner itself');
});
