// A git directory planted under another name (a bare layout) is protected wherever it appears,
// and only there: files that merely share a name with a git-directory part stay writable.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { checkPath, gitDirLayoutAt, gitDirPartOf } from '../../../../src/core/policy/path';
import { makeFixture, type Fixture } from './fixture';

let fx: Fixture;
before(() => {
  fx = makeFixture();
  fx.file('src/config/x.ts', 'export {}');
  fx.file('src/HEAD', 'not git');
  fx.file('bare/HEAD', 'ref: refs/heads/main\n');
  mkdirSync(path.join(fx.ws, 'bare/objects'));
  mkdirSync(path.join(fx.ws, 'bare/refs'));
  fx.file('half/HEAD', 'ref: refs/heads/main\n');
  mkdirSync(path.join(fx.ws, 'half/objects'));
  fx.file('linked/HEAD', 'ref: refs/heads/main\n');
  fx.file('linked/commondir', '../../elsewhere\n');
});
after(() => fx.cleanup());

const write = (rel: string, operation: 'write' | 'create' | 'delete' = 'create') => checkPath({ workspaceRoot: fx.ws, path: rel, operation });

describe('gitDirLayoutAt', () => {
  test("git's own rule: HEAD plus objects/ and refs/, or HEAD plus commondir", () => {
    assert.equal(gitDirLayoutAt(path.join(fx.ws, 'bare')), true);
    assert.equal(gitDirLayoutAt(path.join(fx.ws, 'linked')), true);
    assert.equal(gitDirLayoutAt(path.join(fx.ws, 'half')), false);
    assert.equal(gitDirLayoutAt(path.join(fx.ws, 'src')), false);
    assert.equal(gitDirLayoutAt(path.join(fx.ws, 'missing')), false);
  });

  test('"would become": the path about to be written counts as present', () => {
    assert.equal(gitDirLayoutAt(path.join(fx.ws, 'half'), 'refs/heads/main'), true);
    assert.equal(gitDirLayoutAt(path.join(fx.ws, 'half'), 'refs'), false, 'a file named refs is not the refs/ folder');
    assert.equal(gitDirLayoutAt(path.join(fx.ws, 'src'), 'commondir'), true, 'src/HEAD exists: a commondir completes the layout');
    assert.equal(gitDirLayoutAt(path.join(fx.ws, 'new'), 'HEAD'), false);
  });
});

describe('bare-repository parts are protected paths', () => {
  test('writing the config, hooks or refs of a bare layout asks, in a subfolder and at the root', async () => {
    for (const rel of ['bare/config', 'bare/hooks/post-commit', 'bare/refs/heads/main', 'bare/HEAD', 'linked/config', 'half/refs/heads/x']) {
      const d = await write(rel);
      assert.deepEqual([rel, d.verdict, d.rule], [rel, 'ask', 'protected:git-directory'], d.reason);
    }
    assert.equal(gitDirPartOf(fx.ws, 'bare/objects/ab/cdef'), 'bare');
    assert.equal((await write('bare/HEAD', 'delete')).verdict, 'ask');
  });

  test('the workspace root itself becoming a git directory asks', async () => {
    const root = makeFixture();
    try {
      root.file('HEAD', 'ref: refs/heads/main\n');
      mkdirSync(path.join(root.ws, 'objects'));
      assert.equal((await checkPath({ workspaceRoot: root.ws, path: 'config', operation: 'create' })).verdict, 'allow', 'no refs/ yet: not a layout');
      const d = await checkPath({ workspaceRoot: root.ws, path: 'refs/heads/main', operation: 'create' });
      assert.deepEqual([d.verdict, d.rule], ['ask', 'protected:git-directory']);
      assert.equal(gitDirPartOf(root.ws, 'refs/heads/main'), '');
    } finally {
      root.cleanup();
    }
  });

  test('files that only share a name stay writable', async () => {
    for (const rel of ['src/config/x.ts', 'src/HEAD', 'config', 'half/objects/x', 'docs/hooks/readme.md', 'bare-ish/config']) {
      const d = await write(rel, 'write');
      assert.equal(d.verdict, 'allow', `${rel}: ${d.reason}`);
    }
  });
});
