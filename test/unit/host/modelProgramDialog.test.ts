// VS Code's "PatchPilot: Approve Model Program…": its modal shows the exact command bytes and what the
// approval binds (the named files and the workspace tree), and the chat's refused model request (the
// core's own message, from a real ModelProgramApprovals check) is what offers the command.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ModelProgramApprovals } from '../../../src/core/approvals';
import { approvalDialog, isModelProgramRefusal } from '../../../src/host/vscode/commands/modelProgramDialog';

function arena() {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'pp-model-dialog-')));
  const user = mkdtempSync(path.join(tmpdir(), 'pp-model-dialog-user-'));
  mkdirSync(path.join(root, 'tools'));
  writeFileSync(path.join(root, 'tools', 'model.js'), "require('./helper.js');\n");
  writeFileSync(path.join(root, 'tools', 'helper.js'), '');
  return { root, user, done: () => [root, user].forEach((d) => rmSync(d, { recursive: true, force: true })) };
}

test('the modal shows the exact command (two spaces, a tab, a newline visible) and what the approval binds', () => {
  const a = arena();
  try {
    const line = `node  ${path.join(a.root, 'tools', 'model.js')}\t--log\nx`;
    const check = new ModelProgramApprovals({ root: a.root, userStateDir: a.user }).check(line);
    const { message, detail } = approvalDialog(line, check, '.patchpilot');
    assert.match(message, /outside the sandbox, at every model request/);
    assert.ok(detail.includes(`Command: node␠␠${path.join(a.root, 'tools', 'model.js')}\\t--log\\nx   [shown escaped`), detail);
    assert.match(detail, /workspace files it runs: tools\/helper\.js, tools\/model\.js|workspace files it runs: tools\/model\.js, tools\/helper\.js/);
    assert.match(detail, /everything it can load from the workspace \(\d+ entries, all of the workspace but \.git and \.patchpilot\)/);
    assert.match(detail, /Now: it runs workspace files .* and is not approved yet$/);
  } finally {
    a.done();
  }
});

test("the chat's refused model request offers the command; other lines do not", () => {
  const a = arena();
  try {
    const line = `node ${path.join(a.root, 'tools', 'model.js')}`;
    const reason = new ModelProgramApprovals({ root: a.root, userStateDir: a.user }).check(line).reason!;
    // As programFetch words the refusal, inside a chat entry.
    const entry = { kind: 'event', event: { type: 'run/error', message: `the model program was not started: ${reason}` } };
    assert.equal(isModelProgramRefusal(JSON.stringify(entry)), true);
    assert.equal(isModelProgramRefusal(JSON.stringify({ kind: 'notice', text: 'the model program exited with code 1' })), false);
  } finally {
    a.done();
  }
});

test('approvals made by the CLI and by VS Code (two user keys) live side by side in the one store', () => {
  const a = arena();
  const other = mkdtempSync(path.join(tmpdir(), 'pp-model-dialog-user2-'));
  try {
    const line = `node ${path.join(a.root, 'tools', 'model.js')}`;
    new ModelProgramApprovals({ root: a.root, userStateDir: a.user }).approve(line);
    new ModelProgramApprovals({ root: a.root, userStateDir: other }).approve(line);
    assert.equal(
      new ModelProgramApprovals({ root: a.root, userStateDir: a.user }).check(line).approved,
      true,
      "the second host's approval dropped the first's",
    );
    assert.equal(new ModelProgramApprovals({ root: a.root, userStateDir: other }).check(line).approved, true);
  } finally {
    a.done();
    rmSync(other, { recursive: true, force: true });
  }
});
