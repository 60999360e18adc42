import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { commitPaths, listWorkspaceFiles, snapshotGit } from '../../../src/core/git';
import { gitInit, tempWorkspace } from './helpers';

const git = (root: string, ...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();

describe('git session', () => {
  test('snapshot records HEAD, branch and dirty files', async () => {
    const ws = tempWorkspace({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    try {
      gitInit(ws.root);
      writeFileSync(path.join(ws.root, 'a.txt'), 'changed\n');
      writeFileSync(path.join(ws.root, 'new.txt'), 'n\n');
      const snap = await snapshotGit(ws.root);
      assert.deepEqual(snap, { isRepo: true, head: git(ws.root, 'rev-parse', 'HEAD'), branch: 'main', dirty: ['a.txt', 'new.txt'] });
    } finally {
      ws.cleanup();
    }
  });

  test('outside a repository, and in a repository without commits', async () => {
    const plain = tempWorkspace({ 'a.txt': '' });
    try {
      assert.deepEqual(await snapshotGit(plain.root), { isRepo: false, head: null, branch: null, dirty: [] });
      git(plain.root, 'init', '-q', '-b', 'main');
      const empty = await snapshotGit(plain.root);
      assert.equal(empty.isRepo, true);
      assert.equal(empty.head, null);
      assert.deepEqual(empty.dirty, ['a.txt']);
    } finally {
      plain.cleanup();
    }
  });

  test('commitPaths commits exactly the given paths (edits, additions, deletions), not what the user staged', async () => {
    const ws = tempWorkspace({ 'a.txt': 'a\n', 'gone.txt': 'g\n', 'user.txt': 'u\n' });
    try {
      gitInit(ws.root);
      writeFileSync(path.join(ws.root, 'a.txt'), 'a2\n');
      writeFileSync(path.join(ws.root, 'added.txt'), 'new\n');
      rmSync(path.join(ws.root, 'gone.txt'));
      writeFileSync(path.join(ws.root, 'user.txt'), 'user edit\n');
      git(ws.root, 'add', 'user.txt');
      const sha = await commitPaths(ws.root, ['a.txt', 'added.txt', 'gone.txt'], 'PatchPilot: fix a');
      assert.ok(sha);
      assert.equal(git(ws.root, 'rev-parse', 'HEAD'), sha);
      assert.equal(git(ws.root, 'show', '--name-status', '--format=%s', 'HEAD'), 'PatchPilot: fix a\n\nM\ta.txt\nA\tadded.txt\nD\tgone.txt');
      assert.equal(git(ws.root, 'diff', '--cached', '--name-only'), 'user.txt', "the user's staged change stays staged");
      assert.equal(await commitPaths(ws.root, ['a.txt'], 'nothing'), null, 'no change, no commit');
    } finally {
      ws.cleanup();
    }
  });

  test('listWorkspaceFiles: git ls-files in a repository, a walk elsewhere, .patchpilotignore in both', async () => {
    const files = { '.gitignore': 'out/\n', '.patchpilotignore': '*.pem\n', 'src/a.ts': '', 'out/b.js': '', 'k.pem': '' };
    const ws = tempWorkspace(files);
    try {
      const walk = await listWorkspaceFiles(ws.root);
      assert.equal(walk.source, 'walk');
      assert.deepEqual(walk.files, ['.gitignore', '.patchpilotignore', 'src/a.ts']);
      gitInit(ws.root);
      const repo = await listWorkspaceFiles(ws.root);
      assert.equal(repo.source, 'git');
      assert.deepEqual(repo.files, ['.gitignore', '.patchpilotignore', 'src/a.ts']);
      const capped = await listWorkspaceFiles(ws.root, { maxFiles: 2 });
      assert.equal(capped.files.length, 2);
      assert.equal(capped.truncated, true);
    } finally {
      ws.cleanup();
    }
  });
});
