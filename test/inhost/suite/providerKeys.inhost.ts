// In-host suite for the keys of providers: each provider's key lives in VS Code's real
// SecretStorage under its own name, and a run sends the chosen provider's key only, never the key
// saved for another provider (or for a custom endpoint) to it.
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { PatchPilotApi } from '../../../src/host/vscode/extension';
import { ScriptedModelServer } from '../../support/scriptedModel';

const api = async () => (await vscode.extensions.getExtension('patchpilot.patchpilot')!.activate()) as PatchPilotApi;
const settings = () => vscode.workspace.getConfiguration('patchpilot');

describe('provider keys', () => {
  let model: ScriptedModelServer | undefined;
  const runIds: string[] = [];

  before(async () => {
    model = await ScriptedModelServer.start([{ reply: { text: 'First.' } }, { reply: { text: 'Second.' } }, { reply: { text: 'Third.' } }]);
    await settings().update('llm.baseUrl', model.baseUrl, vscode.ConfigurationTarget.Global);
    await settings().update('llm.model', 'scripted-model', vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    const { historyPanel, providerKeys } = await api();
    for (const id of runIds) await historyPanel.runs.deleteRun(id, true);
    for (const p of ['deepseek', 'groq', undefined]) await providerKeys.for(p).delete();
    for (const key of ['llm.provider', 'llm.baseUrl', 'llm.model']) await settings().update(key, undefined, vscode.ConfigurationTarget.Global);
    await model?.close();
  });

  async function run(goal: string): Promise<string> {
    const { host } = await api();
    host.newChat();
    const sent = await host.send(goal);
    assert.equal(sent.delivered, 'started', sent.reason);
    const outcome = await sent.outcome!;
    if (outcome.runId) runIds.push(outcome.runId);
    return model!.chatRequests.at(-1)?.headers.authorization ?? '';
  }

  it("a run sends the chosen provider's own key, and another provider's key never", async () => {
    const { providerKeys } = await api();
    await providerKeys.for(undefined).set('sk-custom-endpoint');
    await providerKeys.for('deepseek').set('sk-deepseek');
    await providerKeys.for('groq').set('sk-groq');
    await settings().update('llm.provider', 'deepseek', vscode.ConfigurationTarget.Global);
    assert.equal(await run('one'), 'Bearer sk-deepseek');
    // Switching to a provider without a saved key: no key at all, not the last one's.
    await providerKeys.for('groq').delete();
    await settings().update('llm.provider', 'groq', vscode.ConfigurationTarget.Global);
    assert.equal(await run('two'), '');
    await settings().update('llm.provider', undefined, vscode.ConfigurationTarget.Global);
    assert.equal(await run('three'), 'Bearer sk-custom-endpoint', 'no provider: the key saved before providers existed');
  });
});
