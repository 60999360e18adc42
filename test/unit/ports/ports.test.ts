import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as ports from '../../../src/core/ports';
import * as toolTypes from '../../../src/core/tools/types';
import { PatchManager } from '../../../src/core/patch';
import { NodeWorkspaceFs } from '../../../src/host/node/nodeWorkspaceFs';
import { readFileTool } from '../../../src/core/tools/readFile';
import { writeFileTool } from '../../../src/core/tools/writeFile';
import type { ChatModel, CommandExecutor, PathPolicy, PatchEngine, RunHistory } from '../../../src/core/ports';
import { FakeWorkspaceFs } from '../../support/fakes';
import { ScriptedApprover, tempWorkspace } from '../tools/helpers';
import { fakeToolContext } from '../../support/fakes';

const patch = `--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n`;

describe('ports in one place', () => {
  test('src/core/ports exports the runtime parts and the host-facing types (no other path re-exports them)', () => {
    assert.equal(typeof ports.systemClock.now(), 'number');
    assert.equal(typeof ports.WorkspacePathError, 'function');
    assert.equal(typeof toolTypes.ToolError, 'function');
    // Type-level: these compile only while src/core/ports declares them (npm run typecheck).
    const t: [ChatModel?, RunHistory?, CommandExecutor?, PathPolicy?, PatchEngine?] = [];
    assert.equal(t.length, 0);
  });
});

describe('PatchManager through WorkspaceFs', () => {
  test('a dry run sees the unsaved buffer, the apply goes through applyChanges', async () => {
    const fs = new FakeWorkspaceFs({ 'a.txt': 'one\nzwei\n' });
    fs.buffers.set('a.txt', 'one\ntwo\n');
    const pm = new PatchManager({ root: '/nowhere', fs });
    const dry = await pm.apply(patch, { dryRun: true });
    assert.equal(dry.ok, true);
    assert.equal(fs.writes.length, 0);
    const done = await pm.apply(patch);
    assert.equal(done.ok, true);
    assert.deepEqual(fs.writes, [[{ kind: 'write', path: 'a.txt', content: 'one\nTWO\n', mode: 0o644 }]]);
    assert.equal(fs.disk.get('a.txt'), 'one\nTWO\n');
  });

  test('a failing write leaves nothing applied and says so', async () => {
    const fs = new FakeWorkspaceFs({ 'a.txt': 'one\ntwo\n' });
    fs.failNextWrite = 'the editor refused';
    const r = await new PatchManager({ root: '/nowhere', fs }).apply(patch);
    assert.equal(r.ok, false);
    assert.match(r.error!, /not applied: the editor refused/);
    assert.equal(fs.disk.get('a.txt'), 'one\ntwo\n');
  });

  test('a refused path is blocked with the file system reason', async () => {
    const fs = new FakeWorkspaceFs({});
    const r = await new PatchManager({ root: '/nowhere', fs }).apply(`--- a/../x\n+++ b/../x\n@@ -1 +1 @@\n-a\n+b\n`, { dryRun: true });
    assert.equal(r.ok, false);
  });
});

describe('NodeWorkspaceFs keeps the confinement', () => {
  const setup = () => {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'pp-wsfs-')));
    const outside = realpathSync(mkdtempSync(path.join(tmpdir(), 'pp-out-')));
    writeFileSync(path.join(outside, 'secret'), 's\n');
    mkdirSync(path.join(root, 'src'));
    writeFileSync(path.join(root, 'src/a.txt'), 'one\ntwo\n');
    symlinkSync(outside, path.join(root, 'out'));
    return { root, outside, cleanup: () => [root, outside].forEach((d) => rmSync(d, { recursive: true, force: true })) };
  };

  test('outside paths and links that lead out are refused; inside reads and writes work', async () => {
    const { root, outside, cleanup } = setup();
    try {
      const fs = new NodeWorkspaceFs(root);
      await assert.rejects(fs.stat('../x'), ports.WorkspacePathError);
      await assert.rejects(fs.readFile('out/secret'), /outside the workspace/);
      await assert.rejects(fs.applyChanges([{ kind: 'write', path: 'out/secret', content: 'x' }]), /changed on disk|outside/);
      assert.equal(readFileSync(path.join(outside, 'secret'), 'utf8'), 's\n');
      const st = await fs.stat('src/a.txt');
      assert.ok(st.exists && st.type === 'file');
      await fs.applyChanges([
        { kind: 'write', path: 'src/a.txt', content: 'new\n', expectRealPath: st.realPath },
        { kind: 'write', path: 'src/new/b.txt', content: 'b\n' },
      ]);
      assert.equal(readFileSync(path.join(root, 'src/a.txt'), 'utf8'), 'new\n');
      assert.equal(readFileSync(path.join(root, 'src/new/b.txt'), 'utf8'), 'b\n');
      await fs.writeFile('src/c.txt', 'c\n');
      assert.equal(readFileSync(path.join(root, 'src/c.txt'), 'utf8'), 'c\n');
      assert.deepEqual((await fs.list('src')).map((e) => e.name).sort(), ['a.txt', 'c.txt', 'new']);
    } finally {
      cleanup();
    }
  });

  test('a real path that moved since stat refuses the write', async () => {
    const { root, cleanup } = setup();
    try {
      const fs = new NodeWorkspaceFs(root);
      await assert.rejects(
        fs.applyChanges([{ kind: 'write', path: 'src/a.txt', content: 'x', expectRealPath: path.join(root, 'elsewhere') }]),
        /changed on disk/,
      );
      assert.equal(readFileSync(path.join(root, 'src/a.txt'), 'utf8'), 'one\ntwo\n');
    } finally {
      cleanup();
    }
  });
});

describe('file tools through ctx.fs', () => {
  test('read_file reads the unsaved buffer; write_file writes through the host', async () => {
    const ws = tempWorkspace({ 'a.txt': 'on disk\n' });
    try {
      const fs = new FakeWorkspaceFs({ 'a.txt': 'on disk\n' });
      fs.buffers.set('a.txt', 'in the editor\n');
      const ctx = fakeToolContext(ws.root, { fs, mode: 'auto-edit', approver: new ScriptedApprover() });
      const read = await readFileTool.run({ path: 'a.txt' }, ctx);
      assert.match(read.output, /in the editor/);
      const wrote = await writeFileTool.run({ path: 'new.txt', content: 'hello\n' }, ctx);
      assert.equal(wrote.ok, true);
      assert.equal(fs.disk.get('new.txt'), 'hello\n');
    } finally {
      ws.cleanup();
    }
  });
});
