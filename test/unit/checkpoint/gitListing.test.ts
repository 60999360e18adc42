import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createCheckpointer } from '../../../src/core/session/checkpointWiring';
import { gitInit, tempWorkspace } from '../tools/helpers';
import { settingsWith } from '../../support/fakes';

/** A workspace with what tells the two listings apart if anything does: ignored trees, nested rules, links, untracked and tracked-ignored files. */
function generatedTree(seed: number): Record<string, string> {
  const files: Record<string, string> = {
    '.gitignore': 'node_modules/\n*.log\nbuild/\n',
    // A nested negation (`!keep.log` under a parent's `*.log`) is left out: git keeps such a file, the walk's rules do not.
    'src/.gitignore': 'gen/\n',
    '.patchpilotignore': 'secrets/\n',
    'secrets/key.txt': 'hidden from the agent\n',
    'name with spaces/ünïcode ✓.txt': 'x\n',
  };
  for (let i = 0; i < 30 + seed; i++) {
    files[`src/pkg${i % 7}/f${i}.js`] = `module.exports = ${i};\n`;
    files[`node_modules/dep${i % 5}/index.js`] = `dep ${i}\n`;
    files[`src/gen/out${i}.js`] = 'generated\n';
    if (i % 4 === 0) files[`logs/run${i}.log`] = 'log\n';
    if (i % 6 === 0) files[`build/b${i}.o`] = 'obj\n';
  }
  return files;
}

async function firstLook(root: string, git: boolean) {
  const settings = settingsWith();
  const cp = createCheckpointer(root, { ...settings, checkpoints: { ...settings.checkpoints, enabled: true } })!;
  if (!git) delete (cp as unknown as { options: { listKept?: unknown } }).options.listKept;
  try {
    await (await cp.begin({ runId: git ? 'git' : 'walk', step: 1, tool: 'run_command', scope: 'workspace' }))?.end();
    const known = (cp as unknown as { known: Map<string, { row: { kind: string; size: number } }> }).known;
    return { listing: cp.lastListing, rows: [...known].map(([rel, k]) => `${rel} ${k.row.kind} ${k.row.size}`).sort() };
  } finally {
    cp.dispose();
  }
}

describe("the repository's listing and the walk keep the same paths", () => {
  for (const seed of [0, 5, 11]) {
    test(`generated tree ${seed}: ignored folders, nested .gitignore, symlinks, untracked and tracked-ignored files`, async () => {
      const ws = tempWorkspace(generatedTree(seed));
      try {
        gitInit(ws.root);
        // After the commit: untracked files, a tracked file now matched by an ignore pattern, links, a nested repository.
        writeFileSync(path.join(ws.root, 'untracked.txt'), 'new\n');
        mkdirSync(path.join(ws.root, 'src/fresh'), { recursive: true });
        writeFileSync(path.join(ws.root, 'src/fresh/a.ts'), 'a\n');
        execFileSync('git', ['add', '-f', 'build/b0.o'], { cwd: ws.root });
        symlinkSync('src/pkg0', path.join(ws.root, 'link-to-dir'));
        symlinkSync('missing', path.join(ws.root, 'src/dangling'));
        mkdirSync(path.join(ws.root, 'vendor/nested'), { recursive: true });
        writeFileSync(path.join(ws.root, 'vendor/nested/lib.c'), 'int x;\n');
        execFileSync('git', ['init', '-q'], { cwd: path.join(ws.root, 'vendor/nested') });
        const walked = await firstLook(ws.root, false);
        const listed = await firstLook(ws.root, true);
        assert.equal(listed.listing, 'git');
        assert.equal(walked.listing, 'walk');
        // The walk also keeps folders whose every entry is ignored (`logs/`); git lists files only. Otherwise the same.
        const holdsKept = (row: string) => !row.endsWith(' dir 4096') || listed.rows.some((r) => r.startsWith(`${row.replace(/ dir \d+$/, '')}/`));
        assert.deepEqual(listed.rows, walked.rows.filter(holdsKept));
        assert.ok(walked.rows.includes('logs dir 4096'));
        assert.ok(listed.rows.some((r) => r.startsWith('vendor/nested/lib.c ')));
        assert.ok(!listed.rows.some((r) => /node_modules|secrets|\.log |src\/gen|^build\/|^logs/.test(r)));
      } finally {
        ws.cleanup();
      }
    });
  }
});
