// The one module that says what an approval of a started program binds (policy/launch). Shapes are
// generated: every way a Node or Python process loads code from the workspace (static and dynamic
// import, a computed path, require, createRequire with a built string, a plugin folder read at run
// time, a package by name from node_modules, a .pth file, NODE_OPTIONS) x every way to change what
// it loads (rewrite, append, replace by rename, a new plugin). Each program is run first, so the
// shape really loads the file; then, approved outside the sandbox, any change makes the binding stale.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { bindCode, bindingKey, staleReason, workspaceTree } from '../../../../src/core/policy/launch';
import { node, SHAPES, tick, workspace, WRITERS } from '../../../support/codeLoadShapes';

describe('policy/launch: an approval outside the sandbox binds everything the program can load', () => {
  for (const [name, shape] of Object.entries(SHAPES)) {
    test(`${name}: the shape really loads the file, and every writer makes the approval stale`, async () => {
      const ws = workspace(shape);
      try {
        const out = execFileSync(shape.launch.command, [...shape.launch.args], {
          cwd: ws.root,
          env: { ...process.env, ...shape.launch.env, NODE_TEST_CONTEXT: '' },
          encoding: 'utf8',
        });
        assert.match(out, /helper loaded/, `${name} does not load ${shape.loaded}`);
        for (const [writer, write] of Object.entries(WRITERS)) {
          const approved = bindCode({ root: ws.root, launch: shape.launch, outsideSandbox: true });
          assert.equal(staleReason(approved, bindCode({ root: ws.root, launch: shape.launch, outsideSandbox: true })), undefined, 'unchanged: still approved');
          await tick();
          write(path.join(ws.root, shape.loaded));
          const now = bindCode({ root: ws.root, launch: shape.launch, outsideSandbox: true });
          assert.ok(staleReason(approved, now), `${name}, ${writer}: the change went unnoticed`);
          assert.notEqual(bindingKey(approved), bindingKey(now));
        }
      } finally {
        ws.cleanup();
      }
    });
  }

  test('inside the sandbox only the named files bind: an unrelated edit keeps the approval, a named file does not', async () => {
    const ws = workspace(SHAPES['static import']!);
    try {
      const launch = SHAPES['static import']!.launch;
      const approved = bindCode({ root: ws.root, launch, outsideSandbox: false });
      assert.deepEqual(Object.keys(approved.files).sort(), ['lib/helper.mjs', 'srv.mjs']);
      writeFileSync(path.join(ws.root, 'notes.md'), 'an edit');
      assert.equal(staleReason(approved, bindCode({ root: ws.root, launch, outsideSandbox: false })), undefined);
      writeFileSync(path.join(ws.root, 'lib/helper.mjs'), 'changed');
      assert.match(staleReason(approved, bindCode({ root: ws.root, launch, outsideSandbox: false })) ?? '', /lib\/helper\.mjs \(changed\)/);
    } finally {
      ws.cleanup();
    }
  });

  test('the tree leaves out .git and the state folder (protected, written by PatchPilot itself) and says where it changed', async () => {
    const ws = workspace({ files: { 'src/a.js': 'x', '.git/HEAD': 'ref', '.patchpilot/history.db': 'db' }, launch: node([]), loaded: '' });
    try {
      const before = workspaceTree(ws.root, { exclude: ['.patchpilot'] });
      await tick();
      writeFileSync(path.join(ws.root, '.git/HEAD'), 'other');
      writeFileSync(path.join(ws.root, '.patchpilot/history.db'), 'more');
      assert.equal(workspaceTree(ws.root, { exclude: ['.patchpilot'] }).digest, before.digest);
      writeFileSync(path.join(ws.root, 'src/b.js'), 'y');
      const stale = staleReason({ files: {}, tree: before }, bindCode({ root: ws.root, launch: node([]), outsideSandbox: true }));
      assert.match(stale ?? '', /files in the workspace changed since it was approved: src \(changed\)/);
    } finally {
      ws.cleanup();
    }
  });

  test('a tree over the entry limit matches no approval; an approval made in the sandbox does not cover a start outside it', () => {
    const ws = workspace({ files: { 'a.js': '', 'b.js': '', 'c.js': '' }, launch: node([]), loaded: '' });
    try {
      const big = workspaceTree(ws.root, { maxEntries: 2 });
      assert.equal(big.complete, false);
      const inside = bindCode({ root: ws.root, launch: node(['a.js']), outsideSandbox: false });
      const outside = bindCode({ root: ws.root, launch: node(['a.js']), outsideSandbox: true });
      assert.match(staleReason(inside, outside) ?? '', /runs outside the sandbox now/);
    } finally {
      ws.cleanup();
    }
  });
});
