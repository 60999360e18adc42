// In-host: the trust loop in the real VS Code, through the chat host. A cost budget stops a run while
// its subagent works (the subagent's requests count in the parent's meter), and a run whose tests
// fail after its edit cannot end green: its first finish is refused, the second ends "finished,
// tests failed". The model is the scripted OpenAI-compatible server started inside the extension host.
import * as assert from 'node:assert/strict';
import { after, afterEach, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { PatchPilotApi } from '../../../src/host/vscode/extension';
import { ScriptedModelServer } from '../../support/scriptedModel';

const api = async () => (await vscode.extensions.getExtension('patchpilot.patchpilot')!.activate()) as PatchPilotApi;
const settings = () => vscode.workspace.getConfiguration('patchpilot');
const MODEL = 'scripted-model';
const SUBAGENT_PROMPT = 'You are a PatchPilot subagent';
const isSubagent = (body: Record<string, unknown>) => {
  const first = (body.messages as { content?: unknown }[] | undefined)?.[0]?.content;
  return typeof first === 'string' && first.startsWith(SUBAGENT_PROMPT);
};
const toolCall = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, arguments: args }] });
const GLOBAL_KEYS = ['llm.baseUrl', 'llm.model', 'approval.mode', 'llm.prices', 'limits.maxCostUsd'];

describe('limits and verdicts in the real VS Code', function () {
  this.timeout(120_000);
  const folder = () => vscode.workspace.workspaceFolders![0]!.uri;
  let model: ScriptedModelServer | undefined;
  const runIds: string[] = [];
  const created: vscode.Uri[] = [];

  async function useModel(server: ScriptedModelServer, extra: Record<string, unknown> = {}): Promise<void> {
    model = server;
    await settings().update('llm.baseUrl', server.baseUrl, vscode.ConfigurationTarget.Global);
    await settings().update('llm.model', MODEL, vscode.ConfigurationTarget.Global);
    await settings().update('approval.mode', 'auto-edit', vscode.ConfigurationTarget.Global);
    for (const [key, value] of Object.entries(extra)) await settings().update(key, value, vscode.ConfigurationTarget.Global);
  }

  async function write(name: string, text: string): Promise<vscode.Uri> {
    const uri = vscode.Uri.joinPath(folder(), name);
    await vscode.workspace.fs.writeFile(uri, Buffer.from(text));
    created.push(uri);
    return uri;
  }

  afterEach(async () => {
    for (const key of GLOBAL_KEYS) await settings().update(key, undefined, vscode.ConfigurationTarget.Global);
    await settings().update('tests.commands', undefined, vscode.ConfigurationTarget.Workspace);
    await model?.close();
    model = undefined;
  });

  after(async () => {
    const { historyPanel } = await api();
    for (const id of runIds) await historyPanel.runs.deleteRun(id, true);
    for (const uri of created) await vscode.workspace.fs.delete(uri).then(undefined, () => undefined);
  });

  it('a cost budget stops the run while its subagent works: the subagent is cancelled, the run ends stopped naming the limit', async () => {
    await write('budget-notes.txt', `${'a line the subagent reads again and again\n'.repeat(40)}`);
    // At $10 per million tokens each subagent request (about 2,000 tokens) costs about $0.02: $0.07 allows a few.
    await useModel(
      await ScriptedModelServer.start({
        turns: [
          { reply: toolCall('spawn_subagent', { task: 'read budget-notes.txt until told to stop' }) },
          { reply: toolCall('finish', { summary: 'never reached' }) },
        ],
        routes: [{ match: isSubagent, reply: () => toolCall('read_file', { path: 'budget-notes.txt' }) }],
      }),
      { 'llm.prices': { [MODEL]: { input: 10, output: 10 } }, 'limits.maxCostUsd': 0.07 },
    );
    const { host } = await api();
    host.newChat();
    const sent = await host.send('delegate reading the notes');
    assert.equal(sent.delivered, 'started', sent.reason);
    const outcome = await sent.outcome!;
    if (outcome.runId) runIds.push(outcome.runId);
    assert.deepEqual([outcome.status, outcome.stoppedBy], ['stopped', 'budget'], outcome.reason);
    assert.match(outcome.reason, /the cost budget of \$0\.0700 \(patchpilot\.limits\.maxCostUsd\)/);

    const requests = model!.chatRequests.map((q) => q.body as Record<string, unknown>);
    assert.equal(requests.filter((b) => !isSubagent(b)).length, 1, "the parent's second turn was never asked for");
    assert.ok(requests.filter(isSubagent).length >= 2, 'the subagent was working when the budget stopped it');
    // The chat saw the subagent end, cancelled by its parent's budget.
    const events = host.snapshot().entries.flatMap((e) => (e.kind === 'event' ? [e.event] : []));
    const sub = events.find((e) => e.type === 'subagent/finished');
    assert.equal(sub?.type === 'subagent/finished' ? sub.status : undefined, 'cancelled');
    const sources = new Set((outcome.usageRecords ?? []).map((r) => r.source));
    assert.ok(sources.has('main') && sources.has('subagent 1'), JSON.stringify([...sources]));
  });

  it('tests failing after the edit: the first finish is refused, the second ends finished with tests failed, not green', async () => {
    // The tests pass before the run (the baseline); the edit breaks them: a failure the run introduced.
    await write('verdict.js', 'exports.half = (n) => n / 2;\n');
    const patch = '--- a/verdict.js\n+++ b/verdict.js\n@@ -1 +1 @@\n-exports.half = (n) => n / 2;\n+exports.half = (n) => n / 3;\n';
    await settings().update(
      'tests.commands',
      ['node -e "process.exit(require(\'./verdict.js\').half(4) === 2 ? 0 : 1)"'],
      vscode.ConfigurationTarget.Workspace,
    );
    await useModel(
      await ScriptedModelServer.start([
        { reply: toolCall('propose_patch', { patch }) },
        { reply: toolCall('finish', { summary: 'half halves' }) },
        { reply: toolCall('finish', { summary: 'I could not make the tests pass' }), expect: { lastMessageContains: 'fail' } },
      ]),
    );
    const { host } = await api();
    host.newChat();
    const sent = await host.send('make half halve');
    assert.equal(sent.delivered, 'started', sent.reason);
    // The test command runs code the patch changed: outside a sandbox that asks first. Approve it, as on the chat's card.
    let approvedTests = 0;
    const approving = setInterval(() => {
      for (const a of host.snapshot().approvals) if (a.kind === 'tests' && host.approvals.answer(a.id, { approved: true })) approvedTests++;
    }, 100);
    const outcome = await sent.outcome!.finally(() => clearInterval(approving));
    assert.ok(approvedTests <= 2, `asked ${approvedTests} times`);
    if (outcome.runId) runIds.push(outcome.runId);
    assert.deepEqual(model!.mismatches, []);
    assert.equal(model!.chatRequests.length, 3, 'the first finish went back to the model');
    assert.deepEqual([outcome.status, outcome.tests], ['finished', 'failed'], outcome.reason);
    const events = host.snapshot().entries.flatMap((e) => (e.kind === 'event' ? [e.event] : []));
    const end = events.find((e) => e.type === 'run/finished');
    assert.equal(end?.type === 'run/finished' ? end.tests : undefined, 'failed');
  });
});
