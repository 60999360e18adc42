// In-host suite for provider "vscode": PatchPilot's agent on a model that another extension
// provides through VS Code's Language Model API, as GitHub Copilot provides its models. The model is
// the fixture test/inhost/fixtures/fake-language-model (registered with the chatProvider proposal,
// which the runner enables for it); the run goes through the real chat host, the real orchestrator
// and the real read_file tool.
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { PatchPilotApi } from '../../../src/host/vscode/extension';
import { VsCodeChatModel } from '../../../src/host/vscode/llm/vsCodeChatModel';

const api = async () => (await vscode.extensions.getExtension('patchpilot.patchpilot')!.activate()) as PatchPilotApi;
const settings = () => vscode.workspace.getConfiguration('patchpilot');
const MODEL_ID = 'fake-echo-tools';

interface SeenPart {
  kind: string;
  text?: string;
  callId?: string;
  name?: string;
}
interface SeenRequest {
  messages: { role: string; parts: SeenPart[] }[];
  tools: { name: string; inputSchema: unknown }[];
}

async function fakeModelRequests(): Promise<SeenRequest[]> {
  const ext = vscode.extensions.getExtension<{ requests: SeenRequest[] }>('patchpilot-test.fake-language-model');
  assert.ok(ext, 'the fake language model extension is installed');
  return (await ext.activate()).requests;
}

/** The fixture activates with the window; its model may register a moment after this suite starts. */
async function waitForModel(): Promise<void> {
  await fakeModelRequests(); // activation errors (a proposal not enabled) surface here
  const deadline = Date.now() + 30_000;
  while (!(await vscode.lm.selectChatModels({ id: MODEL_ID })).length) {
    if (Date.now() > deadline)
      throw new Error(`VS Code never offered the model ${MODEL_ID}; it offers ${(await vscode.lm.selectChatModels()).map((m) => m.id).join(', ') || 'none'}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('vscode language models (provider "vscode")', () => {
  const runIds: string[] = [];
  let notes: vscode.Uri;

  before(async function () {
    this.timeout(60_000);
    await waitForModel();
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    notes = vscode.Uri.joinPath(folder, 'lm-notes.txt');
    await vscode.workspace.fs.writeFile(notes, Buffer.from('the password is periwinkle\n'));
    await settings().update('llm.provider', 'vscode', vscode.ConfigurationTarget.Global);
    await settings().update('llm.model', MODEL_ID, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    const { historyPanel } = await api();
    for (const id of runIds) await historyPanel.runs.deleteRun(id, true);
    await settings().update('llm.provider', undefined, vscode.ConfigurationTarget.Global);
    await settings().update('llm.model', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.fs.delete(notes).then(undefined, () => undefined);
  });

  it('a goal runs on the VS Code model: its tool call runs read_file, the result goes back as a tool result, the answer shows', async () => {
    const { host } = await api();
    host.newChat();
    const requests = await fakeModelRequests();
    requests.length = 0;
    const sent = await host.send('READ lm-notes.txt and tell me what it says');
    assert.equal(sent.delivered, 'started', sent.reason);
    const outcome = await sent.outcome!;
    if (outcome.runId) runIds.push(outcome.runId);
    assert.equal(outcome.status, 'finished', outcome.reason);

    const entries = JSON.stringify(host.snapshot().entries);
    assert.match(entries, /read_file/, `the chat shows the tool call: ${entries.slice(0, 2000)}`);
    assert.match(entries, /The file says: .*periwinkle/, 'the chat shows the answer built on the tool result');
    assert.equal(host.status().model, MODEL_ID);

    assert.ok(requests.length >= 2, `two model requests at least, saw ${requests.length}`);
    const [first, second] = requests as [SeenRequest, SeenRequest];
    // No system role for extensions: the system prompt is the first User message.
    assert.equal(first.messages[0]!.role, 'user');
    assert.match(first.messages[0]!.parts[0]!.text ?? '', /PatchPilot|tool/i);
    assert.ok(
      first.tools.some((t) => t.name === 'read_file' && typeof t.inputSchema === 'object'),
      'the tools are offered with their schemas',
    );
    // The tool call comes back as the assistant's part, its result as a tool result in a User message.
    const assistant = second.messages.find((m) => m.role === 'assistant' && m.parts.some((p) => p.kind === 'tool-call'));
    const call = assistant?.parts.find((p) => p.kind === 'tool-call');
    assert.equal(call?.name, 'read_file');
    const result = second.messages.find((m) => m.parts.some((p) => p.kind === 'tool-result'));
    assert.equal(result?.role, 'user');
    const resultPart = result?.parts.find((p) => p.kind === 'tool-result');
    assert.equal(resultPart?.callId, call?.callId);
    assert.match(resultPart?.text ?? '', /periwinkle/);
  });

  it("the window is the model's maxInputTokens (from VS Code) unless set; cancelling aborts; a refusal says what happened", async () => {
    const model = await VsCodeChatModel.select({ model: MODEL_ID });
    assert.deepEqual(model.contextWindow('reasoning'), { tokens: 48000, known: true, source: 'endpoint', from: 'VS Code', detail: 'maxInputTokens' });
    const set = await VsCodeChatModel.select({ model: MODEL_ID, contextWindows: { [MODEL_ID]: 20000 } });
    assert.equal(set.contextWindow('reasoning').tokens, 20000, "the user's setting wins");
    const events: string[] = [];
    const turn = await model.streamChatWithRecovery({
      role: 'reasoning',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hello there' },
      ],
      onEvent: (e) => events.push(e.type),
    });
    assert.equal(turn.text, 'Echo: hello there');
    assert.equal(turn.finishReason, 'stop');
    assert.equal(turn.usage.estimated, false, "counted by the model's own countTokens");
    assert.ok(turn.usage.promptTokens > 0 && turn.usage.completionTokens > 0);
    assert.deepEqual([...new Set(events)], ['request-started', 'text-delta', 'usage']);

    const aborted = new AbortController();
    aborted.abort();
    await assert.rejects(
      model.streamChatWithRecovery({ role: 'reasoning', messages: [{ role: 'user', content: 'x' }], signal: aborted.signal }),
      (err: Error & { kind?: string }) => err.kind === 'cancelled',
    );

    await assert.rejects(
      model.streamChatWithRecovery({ role: 'reasoning', messages: [{ role: 'user', content: 'BLOCKED please' }] }),
      (err: Error & { kind?: string }) => {
        assert.match(err.message, /fake-echo-tools/);
        assert.equal(err.kind, 'quota', err.message);
        assert.match(err.message, /refused the request.*fake quota is used up/);
        return true;
      },
    );
    await assert.rejects(VsCodeChatModel.select({ model: 'no-such-model' }), /offers no model "no-such-model" \(it offers .*fake-echo-tools/);
  });

  it('the chat says before a run that VS Code offers no such model, and is ready again with one it offers', async () => {
    const { host } = await api();
    await settings().update('llm.model', 'no-such-model', vscode.ConfigurationTarget.Global);
    try {
      await host.refreshStatus();
      assert.match(host.status().notice ?? '', /VS Code offers no model "no-such-model" \(it offers .*fake-echo-tools.*Select Model/);
      const refused = await host.send('hello');
      assert.equal(refused.delivered, 'refused');
    } finally {
      await settings().update('llm.model', MODEL_ID, vscode.ConfigurationTarget.Global);
    }
    await host.refreshStatus();
    assert.equal(host.status().notice, undefined);
  });
});
