// In-host suite for provider "anthropic" in a real VS Code: the settings choose Anthropic with its
// base URL at a loopback server speaking the Messages API (test/support/anthropicServer), the key
// lives in SecretStorage under Anthropic's name, and a goal typed in the chat runs through the real
// chat host, the real @anthropic-ai/sdk client and the real read_file tool: a tool call with
// extended thinking, then finish. The thinking block goes back with its signature unchanged.
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { PatchPilotApi } from '../../../src/host/vscode/extension';
import { AnthropicServer, reply } from '../../support/anthropicServer';

const api = async () => (await vscode.extensions.getExtension('patchpilot.patchpilot')!.activate()) as PatchPilotApi;
const settings = () => vscode.workspace.getConfiguration('patchpilot');
const SIGNATURE = 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds+/=';
const KEYS = ['llm.provider', 'llm.baseUrl', 'llm.model', 'llm.anthropic.thinkingBudget'];

describe('anthropic natively (provider "anthropic")', () => {
  let server: AnthropicServer | undefined;
  let notes: vscode.Uri;
  const runIds: string[] = [];

  before(async () => {
    server = await AnthropicServer.start([
      {
        sse: reply({
          thinking: { text: 'Read the notes first.', signature: SIGNATURE },
          text: 'Let me look.',
          tools: [{ id: 'toolu_read', name: 'read_file', input: { path: 'anthropic-notes.txt' } }],
          usage: { input_tokens: 900, output_tokens: 40, cache_creation_input_tokens: 2_000 },
        }),
      },
      {
        sse: reply({
          thinking: { text: 'The notes name a colour.', signature: 'sig-2' },
          tools: [{ id: 'toolu_finish', name: 'finish', input: { summary: 'The notes say the colour is vermilion.' } }],
          usage: { input_tokens: 300, output_tokens: 30, cache_read_input_tokens: 2_000 },
        }),
      },
    ]);
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    notes = vscode.Uri.joinPath(folder, 'anthropic-notes.txt');
    await vscode.workspace.fs.writeFile(notes, Buffer.from('the colour is vermilion\n'));
    const { providerKeys } = await api();
    await providerKeys.for('anthropic').set('sk-ant-inhost');
    await settings().update('llm.provider', 'anthropic', vscode.ConfigurationTarget.Global);
    await settings().update('llm.baseUrl', server.baseUrl, vscode.ConfigurationTarget.Global);
    await settings().update('llm.model', 'claude-sonnet-4-20250514', vscode.ConfigurationTarget.Global);
    await settings().update('llm.anthropic.thinkingBudget', 2048, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    const { historyPanel, providerKeys } = await api();
    for (const id of runIds) await historyPanel.runs.deleteRun(id, true);
    await providerKeys.for('anthropic').delete();
    for (const key of KEYS) await settings().update(key, undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.fs.delete(notes).then(undefined, () => undefined);
    await server?.close();
  });

  it('a goal makes a tool call and finishes; the key goes as x-api-key, thinking goes back signed', async () => {
    const { host } = await api();
    host.newChat();
    const sent = await host.send('What colour do the notes in anthropic-notes.txt name?');
    assert.equal(sent.delivered, 'started', sent.reason);
    const outcome = await sent.outcome!;
    if (outcome.runId) runIds.push(outcome.runId);
    assert.equal(outcome.status, 'finished', outcome.reason);

    const entries = JSON.stringify(host.snapshot().entries);
    assert.match(entries, /read_file/, `the chat shows the tool call: ${entries.slice(0, 2000)}`);
    assert.match(entries, /vermilion/, 'the chat shows the summary');
    assert.match(entries, /Read the notes first\./, 'the chat shows the thinking');

    const requests = server!.requests;
    assert.equal(requests.length, 2, `two Messages requests, saw ${requests.length}`);
    for (const q of requests) {
      assert.equal(q.path, '/v1/messages');
      assert.equal(q.headers['x-api-key'], 'sk-ant-inhost', 'the key from SecretStorage, under Anthropic');
      assert.equal(q.headers.authorization, undefined);
      assert.equal(q.body.model, 'claude-sonnet-4-20250514');
      assert.deepEqual(q.body.thinking, { type: 'enabled', budget_tokens: 2048 });
      assert.deepEqual(q.body.system.at(-1).cache_control, { type: 'ephemeral' }, 'a cache breakpoint on the stable prefix');
    }
    assert.ok(
      (requests[0]!.body.tools as { name: string }[]).some((t) => t.name === 'read_file'),
      'the tools are offered',
    );
    // The second request: the first reply's thinking first on its assistant message, signature unchanged;
    // the file's text as the tool result of the same call.
    const second = requests[1]!.body.messages as { role: string; content: any[] }[];
    const assistant = second.find((m) => m.role === 'assistant')!;
    assert.deepEqual(assistant.content[0], { type: 'thinking', thinking: 'Read the notes first.', signature: SIGNATURE });
    assert.equal(assistant.content.at(-1).type, 'tool_use');
    const result = second.at(-1)!.content.find((b) => b.type === 'tool_result');
    assert.equal(result.tool_use_id, 'toolu_read');
    assert.match(JSON.stringify(result.content), /vermilion/);
  });
});
