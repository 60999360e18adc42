// In-host smoke suite: the extension activates in the real extension host and its command runs.
import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { PatchPilotApi } from '../../../src/host/vscode/extension';

const EXTENSION_ID = 'patchpilot.patchpilot';

describe('PatchPilot in the extension host', () => {
  it('is present and activates', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not loaded`);
    await ext.activate();
    assert.equal(ext.isActive, true);
  });

  it('activates quickly and wires the chat to the diff review, the patch engine and the test tasks', async function () {
    const api = (await vscode.extensions.getExtension(EXTENSION_ID)!.activate()) as PatchPilotApi;
    // The report shows the measured time (mocha output does not leave the extension host).
    this.test!.title += ` (activate() took ${api.activationMs.toFixed(1)} ms)`;
    assert.ok(api.activationMs < 2000, `activation took ${api.activationMs} ms`);
    // Patches go to the native diff review (per hunk), not the chat's all-or-nothing card.
    assert.equal(typeof api.host.approver.patchReviewer, 'function');
    assert.ok(api.diffPreview && api.testService(), 'the review and the test service exist');
    const commands = await vscode.commands.getCommands(true);
    for (const c of ['patchpilot.openChat', 'patchpilot.runTests', 'patchpilot.undoLastPatch', 'patchpilot.review.accept', 'patchpilot.review.acceptHunk'])
      assert.ok(commands.includes(c), c);
  });

  it('registers patchpilot.showVersion', async () => {
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('patchpilot.showVersion'));
  });

  it('executes patchpilot.showVersion without an error', async () => {
    await vscode.commands.executeCommand('patchpilot.showVersion');
  });

  it('runs in a VS Code of the version package.json targets', () => {
    const [major, minor] = vscode.version.split('.').map(Number);
    assert.ok(major! > 1 || minor! >= 100, `VS Code ${vscode.version} is older than 1.100`);
  });
});
