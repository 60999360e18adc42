// In-host: after the agent's patch is applied, the new problems VS Code reports for the edited file
// (here the built-in JSON language features: a syntax error in a .json file) reach the model with
// the patch result. The model is the scripted OpenAI-compatible server started inside the extension host.
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { PatchPilotApi } from '../../../src/host/vscode/extension';
import { ScriptedModelServer } from '../../support/scriptedModel';

const api = async () => (await vscode.extensions.getExtension('patchpilot.patchpilot')!.activate()) as PatchPilotApi;
const settings = () => vscode.workspace.getConfiguration('patchpilot');
const VALID = '{\n  "name": "demo",\n  "port": 8080\n}\n';
const BREAK = '--- a/diag-config.json\n+++ b/diag-config.json\n@@ -1,4 +1,4 @@\n {\n   "name": "demo",\n-  "port": 8080\n+  "port": 8080 "host": "x"\n }\n';

async function until(what: string, ok: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('diagnostics after an edit', () => {
  const file = () => vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'diag-config.json');
  let model: ScriptedModelServer | undefined;
  let runId: string | undefined;

  before(async function () {
    this.timeout(90_000);
    // The JSON language server starts with the first .json document: warm it up (an error it reports,
    // then the valid file that clears it), so the edit's check is not the server's first.
    await vscode.workspace.fs.writeFile(file(), Buffer.from('{ "warm": }\n'));
    // Open in an editor, as a file being worked on is: the JSON server pulls problems for the open tabs.
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file()), { preview: false });
    await until('the JSON language server to report', () => vscode.languages.getDiagnostics(file()).length > 0, 60_000);
    await vscode.workspace.fs.writeFile(file(), Buffer.from(VALID));
    await until('the valid file to have no problems', () => vscode.languages.getDiagnostics(file()).length === 0);
    model = await ScriptedModelServer.start([
      { reply: { toolCalls: [{ name: 'propose_patch', arguments: { patch: BREAK } }] } },
      { reply: { text: 'I will fix the comma.' }, expect: { lastMessageContains: 'new problems in the files you edited' } },
    ]);
    await settings().update('llm.baseUrl', model.baseUrl, vscode.ConfigurationTarget.Global);
    await settings().update('llm.model', 'scripted-model', vscode.ConfigurationTarget.Global);
    await settings().update('approval.mode', 'auto-edit', vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    const { historyPanel } = await api();
    if (runId) await historyPanel.runs.deleteRun(runId, true);
    for (const key of ['llm.baseUrl', 'llm.model', 'approval.mode']) await settings().update(key, undefined, vscode.ConfigurationTarget.Global);
    await model?.close();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(file()).then(undefined, () => undefined);
  });

  it('a patch that breaks a .json file: the JSON error in that file goes back to the model with the patch result', async () => {
    const { host } = await api();
    host.newChat();
    const sent = await host.send('add a host to diag-config.json');
    assert.equal(sent.delivered, 'started', sent.reason);
    const outcome = await sent.outcome!;
    runId = outcome.runId ?? undefined;
    assert.equal(outcome.status, 'finished', outcome.reason);
    assert.deepEqual(model!.mismatches, []);
    const result = (model!.chatRequests[1]!.body.messages as { content: string }[]).at(-1)!.content;
    assert.match(result, /^applied 1 hunk to diag-config\.json/);
    assert.match(result, /new problems in the files you edited \(1 error/);
    assert.match(result, /diag-config\.json:3:\d+: error: /);
  });
});
