// In-host smoke suite: the extension activates in the real extension host and its command runs.
import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import * as vscode from 'vscode';

const EXTENSION_ID = 'patchpilot.patchpilot';

describe('PatchPilot in the extension host', () => {
  it('is present and activates', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not loaded`);
    await ext.activate();
    assert.equal(ext.isActive, true);
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
