import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PatchManager } from '../../../src/core/patch';
import { proposePatchTool } from '../../../src/core/tools/proposePatch';
import { validateSettingValue, buildSettings } from '../../../src/core/config/settingValues';
import { FakeWorkspaceFs } from '../../support/fakes';
import { ScriptedApprover, tempWorkspace } from './helpers';
import { fakeToolContext } from '../../support/fakes';
import type { PatchApprovalAnswer, PatchApprovalRequest } from '../../../src/core/ports';

const original = ['function a() {', '  return 1;', '}', '', 'x', 'y', 'z', 'w', '', 'function b() {', '  return 2;', '}', ''].join('\n');
const twoHunks = `--- a/m.js\n+++ b/m.js\n@@ -1,3 +1,3 @@\n function a() {\n-  return 1;\n+  return 10;\n }\n@@ -10,3 +10,3 @@\n function b() {\n-  return 2;\n+  return 20;\n }\n`;

function setup(answer: (r: PatchApprovalRequest) => PatchApprovalAnswer) {
  const ws = tempWorkspace({ 'm.js': original });
  const fs = new FakeWorkspaceFs({ 'm.js': original });
  const approver = new ScriptedApprover({ patch: answer });
  const ctx = fakeToolContext(ws.root, { mode: 'ask', approver, fs, patches: new PatchManager({ root: ws.root, fs }) });
  return { ws, fs, ctx };
}

describe('propose_patch with the diff review answer', () => {
  test('the reason of a rejected hunk reaches the model; only the accepted hunk is written', async () => {
    const { ws, fs, ctx } = setup(() => ({ acceptedHunks: ['m.js#1'], hunkReasons: { 'm.js#2': 'b must keep returning 2' } }));
    try {
      const r = await proposePatchTool.run({ patch: twoHunks }, ctx);
      assert.equal(r.ok, true);
      assert.match(r.output, /rejected by the user \(not applied\):\n  m\.js#2: b must keep returning 2/);
      assert.equal(fs.disk.get('m.js'), original.replace('return 1;', 'return 10;'));
    } finally {
      ws.cleanup();
    }
  });

  test('everything rejected with reasons: nothing written, the reasons are in the refusal', async () => {
    const { ws, fs, ctx } = setup(() => ({ acceptedHunks: [], hunkReasons: { 'm.js#1': 'no' } }));
    try {
      const r = await proposePatchTool.run({ patch: twoHunks }, ctx);
      assert.equal(r.ok, false);
      assert.match(r.output, /m\.js#1: no/);
      assert.equal(fs.writes.length, 0);
    } finally {
      ws.cleanup();
    }
  });

  test("the user's edited version is what gets written, and the model is shown it", async () => {
    const edited = `--- a/m.js\n+++ b/m.js\n@@ -1,3 +1,3 @@\n function a() {\n-  return 1;\n+  return 11;\n }\n`;
    const { ws, fs, ctx } = setup(() => ({ acceptedHunks: ['m.js#1'], editedPatch: edited }));
    try {
      const r = await proposePatchTool.run({ patch: twoHunks }, ctx);
      assert.equal(r.ok, true, r.output);
      assert.match(r.output, /the user edited the change/);
      assert.match(r.output, /\+  return 11;/);
      assert.equal(fs.disk.get('m.js'), original.replace('return 1;', 'return 11;'));
    } finally {
      ws.cleanup();
    }
  });

  test('an edited version may not touch other files', async () => {
    const edited = `--- a/other.js\n+++ b/other.js\n@@ -0,0 +1 @@\n+x\n`;
    const { ws, fs, ctx } = setup(() => ({ acceptedHunks: ['m.js#1'], editedPatch: edited }));
    try {
      const r = await proposePatchTool.run({ patch: twoHunks }, ctx);
      assert.equal(r.ok, false);
      assert.match(r.output, /touches other\.js/);
      assert.equal(fs.writes.length, 0);
    } finally {
      ws.cleanup();
    }
  });
});

describe('patchpilot.tests.runOnSave', () => {
  test('off, on, true/false or a workspace-relative glob; anything else names the key', () => {
    assert.deepEqual(validateSettingValue('patchpilot.tests.runOnSave', 'on'), { ok: true, value: 'on' });
    assert.deepEqual(validateSettingValue('patchpilot.tests.runOnSave', false), { ok: true, value: 'off' });
    assert.deepEqual(validateSettingValue('patchpilot.tests.runOnSave', ' src/**/*.ts '), { ok: true, value: 'src/**/*.ts' });
    assert.equal(validateSettingValue('patchpilot.tests.runOnSave', '../x/*.ts').ok, false);
    assert.equal(validateSettingValue('patchpilot.tests.runOnSave', 3).ok, false);
    assert.equal(buildSettings({}).tests.runOnSave, 'off');
  });
});
