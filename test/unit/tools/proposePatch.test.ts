import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PatchManager } from '../../../src/core/patch';
import { NodeWorkspaceFs } from '../../../src/host/node/nodeWorkspaceFs';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { proposePatchTool } from '../../../src/core/tools/proposePatch';
import { ScriptedApprover, tempWorkspace } from './helpers';
import { fakeToolContext, settingsWith } from '../../support/fakes';

const tools = new ToolRegistry([proposePatchTool]);
const original = [
  'function a() {',
  '  return 1;',
  '}',
  '',
  'const x = 1;',
  'const y = 2;',
  'const z = 3;',
  'const w = 4;',
  '',
  'function b() {',
  '  return 2;',
  '}',
  '',
].join('\n');
const twoHunks = `--- a/src/m.js
+++ b/src/m.js
@@ -1,3 +1,3 @@
 function a() {
-  return 1;
+  return 10;
 }
@@ -10,3 +10,3 @@
 function b() {
-  return 2;
+  return 20;
 }
`;

function setup(options: Parameters<typeof fakeToolContext>[1] = {}) {
  const ws = tempWorkspace({ 'src/m.js': original, '.patchpilotignore': 'secret.txt\n', 'secret.txt': 'x\n' });
  const afterWrites: string[][] = [];
  const ctx = fakeToolContext(ws.root, { patches: new PatchManager({ root: ws.root, fs: new NodeWorkspaceFs(ws.root) }), ...options });
  ctx.state.afterWrite = async (paths) => {
    afterWrites.push(paths);
    return 'tests: (after-edit hook ran)';
  };
  const read = () => readFileSync(path.join(ws.root, 'src/m.js'), 'utf8');
  return { ws, ctx, afterWrites, read };
}

describe('propose_patch', () => {
  test('auto-edit applies every hunk without asking, records the file, runs the after-edit hook', async () => {
    const { ws, ctx, afterWrites, read } = setup({ mode: 'auto-edit' });
    try {
      const r = await tools.invoke('propose_patch', { patch: twoHunks }, ctx);
      assert.equal(r.ok, true, r.output);
      assert.match(r.output, /^applied 2 hunks to src\/m\.js\n  src\/m\.js#1 now at lines 1-3\n  src\/m\.js#2 now at lines 10-12/);
      assert.match(r.output, /tests: \(after-edit hook ran\)/);
      assert.match(read(), /return 10;[\s\S]*return 20;/);
      assert.deepEqual([...ctx.state.changedFiles], ['src/m.js']);
      assert.deepEqual(afterWrites, [['src/m.js']]);
      assert.deepEqual(
        ctx.events.map((e) => e.type),
        ['patch-proposed', 'patch-applied'],
      );
      // What was written, for the chat's item and its Undo Patch.
      const applied = ctx.events.find((e) => e.type === 'patch-applied');
      assert.ok(applied && applied.type === 'patch-applied');
      assert.deepEqual([applied.files, applied.hunks.length, applied.total, applied.edited], [['src/m.js'], 2, 2, false]);
      assert.match(applied.undoKey ?? '', /^[0-9a-f]{16}$/);
    } finally {
      ws.cleanup();
    }
  });

  test('ask mode: the approver sees the per-hunk preview and accepts one hunk; the other is reported rejected', async () => {
    const approver = new ScriptedApprover({ patch: () => ({ acceptedHunks: ['src/m.js#2'], feedback: 'keep a() as is' }) });
    const { ws, ctx, read } = setup({ mode: 'ask', approver });
    try {
      const r = await tools.invoke('propose_patch', { patch: twoHunks }, ctx);
      assert.equal(r.ok, true, r.output);
      const preview = approver.patchRequests[0]!.preview;
      assert.equal(preview.dryRun, true);
      assert.deepEqual(
        preview.files[0]!.hunks.map((h) => [h.id, h.status]),
        [
          ['src/m.js#1', 'would-apply'],
          ['src/m.js#2', 'would-apply'],
        ],
      );
      assert.match(r.output, /applied 1 hunk to src\/m\.js/);
      assert.match(r.output, /rejected by the user \(not applied\):\n  src\/m\.js#1/);
      assert.match(r.output, /The user said: keep a\(\) as is/);
      assert.match(read(), /return 1;[\s\S]*return 20;/);
      assert.deepEqual(
        ctx.events.map((e) => e.type),
        ['patch-proposed', 'approval-needed', 'approval-answered', 'patch-applied'],
      );
      const answered = ctx.events.find((e) => e.type === 'approval-answered');
      assert.ok(answered && answered.type === 'approval-answered' && answered.total === 2 && !answered.edited);
    } finally {
      ws.cleanup();
    }
  });

  test('a user who rejects everything changes nothing, and the model hears it', async () => {
    const approver = new ScriptedApprover({ patch: () => ({ acceptedHunks: [], feedback: 'wrong approach' }) });
    const { ws, ctx, read } = setup({ mode: 'ask', approver });
    try {
      const r = await tools.invoke('propose_patch', { patch: twoHunks }, ctx);
      assert.equal(r.ok, false);
      assert.match(r.output, /the user rejected the patch; nothing was changed\.\nThe user said: wrong approach/);
      assert.equal(read(), original);
      assert.equal(ctx.state.changedFiles.size, 0);
    } finally {
      ws.cleanup();
    }
  });

  test('a hunk that does not match refuses the whole patch with the reason, before asking anyone', async () => {
    const approver = new ScriptedApprover({ patch: (r) => ({ acceptedHunks: r.preview.files.flatMap((f) => f.hunks.map((h) => h.id)) }) });
    const { ws, ctx, read } = setup({ mode: 'ask', approver });
    try {
      const bad = twoHunks.replace(' function b() {', ' function c() {').replace('-  return 2;', '-  return 99;');
      const r = await tools.invoke('propose_patch', { patch: bad }, ctx);
      assert.equal(r.ok, false);
      assert.match(r.output, /^patch refused, nothing was changed\./);
      assert.match(r.output, /src\/m\.js/);
      assert.equal(read(), original);
      assert.equal(approver.patchRequests.length, 0);
      assert.match((await tools.invoke('propose_patch', { patch: 'not a patch at all' }, ctx)).output, /patch refused/);
    } finally {
      ws.cleanup();
    }
  });

  test('plan mode checks the patch but writes nothing', async () => {
    const { ws, ctx, read } = setup({ mode: 'plan' });
    try {
      const r = await tools.invoke('propose_patch', { patch: twoHunks }, ctx);
      assert.equal(r.ok, true);
      assert.match(r.output, /plan mode: the patch applies cleanly but was NOT applied/);
      assert.equal(read(), original);
    } finally {
      ws.cleanup();
    }
  });

  test('a protected path asks even in auto mode; an ignored path is refused outright', async () => {
    const approver = new ScriptedApprover({ patch: () => ({ acceptedHunks: [] }) });
    const settings = settingsWith();
    settings.policy.protectedPaths = ['src/m.js'];
    const { ws, ctx, read } = setup({ mode: 'auto', approver, settings });
    try {
      const r = await tools.invoke('propose_patch', { patch: twoHunks }, ctx);
      assert.equal(approver.patchRequests.length, 1);
      assert.equal(r.ok, false);
      assert.equal(read(), original);
      const secret = '--- a/secret.txt\n+++ b/secret.txt\n@@ -1 +1 @@\n-x\n+y\n';
      const s = await tools.invoke('propose_patch', { patch: secret }, ctx);
      assert.equal(s.ok, false);
      assert.match(s.output, /secret\.txt: "secret\.txt" is listed in \.patchpilotignore/);
      assert.equal(readFileSync(path.join(ws.root, 'secret.txt'), 'utf8'), 'x\n');
    } finally {
      ws.cleanup();
    }
  });

  test('new files and deletions count as changed files', async () => {
    const { ws, ctx } = setup({ mode: 'auto' });
    try {
      const create = '--- /dev/null\n+++ b/src/new.js\n@@ -0,0 +1,2 @@\n+export const n = 1;\n+export const m = 2;\n';
      const r = await tools.invoke('propose_patch', { patch: create }, ctx);
      assert.equal(r.ok, true, r.output);
      assert.equal(readFileSync(path.join(ws.root, 'src/new.js'), 'utf8'), 'export const n = 1;\nexport const m = 2;\n');
      assert.ok(ctx.state.changedFiles.has('src/new.js'));
    } finally {
      ws.cleanup();
    }
  });
});
