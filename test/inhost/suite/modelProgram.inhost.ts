// In-host suite for a model behind a local program (`patchpilot.llm.command`) in a real VS Code:
// set in the user settings, a goal typed in the chat runs through the program
// (test/support/modelProgram/tinyModel.js, mode agent: read_file, propose_patch, finish) and the
// fix lands; set in the workspace's .vscode/settings.json, it is ignored (a workspace never names
// the program that runs) and the run goes to the endpoint of the user settings instead.
// (In VS Code 1.100 the setting's "machine" scope already keeps the workspace value out of
// getConfiguration, inspect() included; PatchPilot's own user-only filter, tested in the CLI and
// unit tests, is the second guard. The test checks the outcome, whichever layer drops it.)
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { PatchPilotApi } from '../../../src/host/vscode/extension';
import { ScriptedModelServer } from '../../support/scriptedModel';

const extension = () => vscode.extensions.getExtension('patchpilot.patchpilot')!;
const api = async () => (await extension().activate()) as PatchPilotApi;
const settings = () => vscode.workspace.getConfiguration('patchpilot');
const BUGGY = 'exports.add = (a, b) => a - b;\n';
const FIXED = 'exports.add = (a, b) => a + b;\n';

/** The command line a user would write: node, the program, its mode, the file it logs requests to. */
function programLine(log: string): string {
  const program = path.join(extension().extensionPath, 'test', 'support', 'modelProgram', 'tinyModel.js');
  return [process.execPath, program, 'agent', log].map((a) => JSON.stringify(a)).join(' ');
}

async function until(what: string, ok: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('model program (patchpilot.llm.command)', () => {
  const folder = () => vscode.workspace.workspaceFolders![0]!.uri;
  const addJs = () => vscode.Uri.joinPath(folder(), 'add.js');
  const workspaceSettings = () => vscode.Uri.joinPath(folder(), '.vscode', 'settings.json');
  const logs = [path.join(tmpdir(), `pp-program-user-${process.pid}.jsonl`), path.join(tmpdir(), `pp-program-workspace-${process.pid}.jsonl`)];
  const runIds: string[] = [];
  let savedWorkspaceSettings: Uint8Array | undefined;

  async function run(goal: string): Promise<{ status: string; reason?: string }> {
    const { host } = await api();
    host.newChat();
    const sent = await host.send(goal);
    assert.equal(sent.delivered, 'started', sent.reason);
    const outcome = await sent.outcome!;
    if (outcome.runId) runIds.push(outcome.runId);
    return outcome;
  }

  before(async () => {
    for (const log of logs) rmSync(log, { force: true });
    savedWorkspaceSettings = await Promise.resolve(vscode.workspace.fs.readFile(workspaceSettings())).catch(() => undefined);
    await settings().update('approval.mode', 'auto-edit', vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    const { historyPanel } = await api();
    for (const id of runIds) await historyPanel.runs.deleteRun(id, true);
    for (const key of ['llm.command', 'llm.baseUrl', 'llm.model', 'approval.mode']) await settings().update(key, undefined, vscode.ConfigurationTarget.Global);
    if (savedWorkspaceSettings) await vscode.workspace.fs.writeFile(workspaceSettings(), savedWorkspaceSettings);
    else await vscode.workspace.fs.delete(workspaceSettings()).then(undefined, () => undefined);
    await vscode.workspace.fs.delete(addJs()).then(undefined, () => undefined);
    for (const log of logs) rmSync(log, { force: true });
  });

  it('set in the user settings, the program serves the model: read_file, the patch, finish; no endpoint or model needed', async () => {
    await vscode.workspace.fs.writeFile(addJs(), Buffer.from(BUGGY));
    await settings().update('llm.command', programLine(logs[0]!), vscode.ConfigurationTarget.Global);
    const outcome = await run('make add() add');
    assert.equal(outcome.status, 'finished', outcome.reason);
    assert.equal(Buffer.from(await vscode.workspace.fs.readFile(addJs())).toString(), FIXED, 'the fix landed');
    const requests = readFileSync(logs[0]!, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { model: string; messages: { role: string }[] });
    assert.equal(requests.length, 3, 'read_file, propose_patch, finish: one request each');
    assert.ok(requests.every((q) => q.model === 'local-program' && q.messages[0]!.role === 'system'));
    const { host } = await api();
    assert.match(JSON.stringify(host.snapshot().entries), /add\(\) subtracted; the patch makes it add\./);
  });

  it('set in the workspace settings, it is ignored: the run goes to the endpoint of the user settings', async () => {
    const model = await ScriptedModelServer.start([{ reply: { text: 'Answered by the endpoint, not a program.' } }]);
    try {
      await settings().update('llm.command', undefined, vscode.ConfigurationTarget.Global);
      await settings().update('llm.baseUrl', model.baseUrl, vscode.ConfigurationTarget.Global);
      await settings().update('llm.model', 'scripted-model', vscode.ConfigurationTarget.Global);
      // Written as a cloned repository would carry it; the marker (a harmless workspace value) says VS Code has read the file.
      const marker = { 'inhost-marker-model': 4096 };
      const file = { 'patchpilot.llm.command': programLine(logs[1]!), 'patchpilot.llm.contextWindows': marker };
      await vscode.workspace.fs.writeFile(workspaceSettings(), Buffer.from(JSON.stringify(file, null, 2)));
      await until(
        'VS Code to read .vscode/settings.json',
        () => JSON.stringify(settings().inspect('llm.contextWindows')?.workspaceValue) === JSON.stringify(marker),
      );

      const outcome = await run('say who answers');
      assert.equal(outcome.status, 'finished', outcome.reason);
      assert.equal(model.chatRequests.length, 1, 'the endpoint of the user settings got the request');
      assert.equal(existsSync(logs[1]!), false, "the workspace's program never ran");
      const { host } = await api();
      assert.match(JSON.stringify(host.snapshot().entries), /Answered by the endpoint, not a program\./);
    } finally {
      await model.close();
    }
  });
});
