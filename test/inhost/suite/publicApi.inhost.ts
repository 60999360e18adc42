// In-host: another extension's view of PatchPilot. A "consumer" gets the public API the way
// docs/api.md says (the activated extension's exports, typed by src/protocol/patchPilotApi.ts only),
// subscribes, and hears a goal run: started, the patch proposed and applied, the tests, the end,
// each with the ids of the history database.
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { PatchPilotPublicApi } from '../../../src/protocol/patchPilotApi';
import type { PatchPilotApi } from '../../../src/host/vscode/extension';
import { ScriptedModelServer } from '../../support/scriptedModel';

const settings = () => vscode.workspace.getConfiguration('patchpilot');
const BUGGY = 'exports.mul = (a, b) => a + b;\n';
const FIXED = 'exports.mul = (a, b) => a * b;\n';
const PATCH = '--- a/apiMul.js\n+++ b/apiMul.js\n@@ -1 +1 @@\n-exports.mul = (a, b) => a + b;\n+exports.mul = (a, b) => a * b;\n';

describe('public API: a consumer extension hears a goal run', function () {
  this.timeout(120_000);
  const file = () => vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'apiMul.js');
  let model: ScriptedModelServer | undefined;
  let runId: string | null = null;

  before(async () => {
    await vscode.workspace.fs.writeFile(file(), Buffer.from(BUGGY));
    model = await ScriptedModelServer.start([
      { reply: { toolCalls: [{ name: 'propose_patch', arguments: { patch: PATCH } }] } },
      { reply: { toolCalls: [{ name: 'finish', arguments: { summary: 'mul multiplies.' } }] }, expect: { lastMessageContains: 'api-tests-ok' } },
    ]);
    await settings().update('llm.baseUrl', model.baseUrl, vscode.ConfigurationTarget.Global);
    await settings().update('llm.model', 'scripted-model', vscode.ConfigurationTarget.Global);
    await settings().update('approval.mode', 'auto-edit', vscode.ConfigurationTarget.Global);
    await settings().update('tests.commands', ['echo api-tests-ok'], vscode.ConfigurationTarget.Workspace);
  });

  after(async () => {
    const internal = (await vscode.extensions.getExtension('patchpilot.patchpilot')!.activate()) as PatchPilotApi;
    if (runId) await internal.historyPanel.runs.deleteRun(runId, true);
    for (const key of ['llm.baseUrl', 'llm.model', 'approval.mode']) await settings().update(key, undefined, vscode.ConfigurationTarget.Global);
    await settings().update('tests.commands', undefined, vscode.ConfigurationTarget.Workspace);
    await vscode.workspace.fs.delete(file()).then(undefined, () => undefined);
    await model?.close();
  });

  it('run started, patch proposed and applied, tests passed, run finished: the run id and the patch id are the history rows', async () => {
    // The consumer: only what another extension has (the exports, the public types).
    const exports = (await vscode.extensions.getExtension('patchpilot.patchpilot')!.activate()) as { version: number; api: PatchPilotPublicApi };
    const { api } = exports;
    assert.equal(api.version, 1);
    assert.equal(exports.version, api.version);
    const heard: { event: string; payload: Record<string, unknown> }[] = [];
    const subscriptions = Object.entries(api.events).map(([event, subscribe]) =>
      (subscribe as (l: (e: unknown) => void) => { dispose(): unknown })((payload) => heard.push({ event, payload: payload as Record<string, unknown> })),
    );
    const finished = new Promise<void>((resolve) => subscriptions.push(api.events.onDidFinishRun(() => resolve())));

    // The run itself, started as the chat starts it.
    const internal = exports as unknown as PatchPilotApi;
    internal.host.newChat();
    const sent = await internal.host.send('make mul multiply');
    assert.equal(sent.delivered, 'started', sent.reason);
    const outcome = await sent.outcome!;
    runId = outcome.runId;
    await finished;
    subscriptions.forEach((s) => s.dispose());
    assert.equal(outcome.status, 'finished', outcome.reason);
    assert.deepEqual(model!.mismatches, []);
    assert.equal(Buffer.from(await vscode.workspace.fs.readFile(file())).toString(), FIXED);

    assert.ok(runId, 'the run is recorded');
    assert.deepEqual(
      heard.map((h) => h.event),
      ['onDidStartRun', 'onDidProposePatch', 'onDidFinishTests', 'onDidApplyPatch', 'onDidFinishTests', 'onDidFinishRun'],
      JSON.stringify(heard),
    );
    assert.ok(
      heard.every((h) => h.payload.runId === runId),
      JSON.stringify(heard),
    );
    const store = await internal.history.get();
    const detail = await store!.getRun(runId);
    assert.equal(detail?.patches.length, 1);
    const patchId = detail!.patches[0]!.id;
    // heard[2] is the baseline: the tests run once before the run's first change.
    assert.equal(heard[1]!.payload.patchId, patchId);
    assert.equal(heard[3]!.payload.patchId, patchId);
    assert.deepEqual(heard[3]!.payload.files, ['apiMul.js']);
    assert.equal(heard[4]!.payload.passed, true);
    assert.equal(heard[4]!.payload.command, 'echo api-tests-ok');
    // The patch was the first step: the number `patchpilot restore --before-step` and the chat use.
    assert.deepEqual([heard[1]!.payload.step, heard[3]!.payload.step], [1, 1]);
    assert.deepEqual([heard[5]!.payload.status, heard[5]!.payload.tests], ['finished', 'passed']);

    // Undo Patch on the chat's item: the consumer hears which patch of which run was undone.
    const applied = internal.host
      .snapshot()
      .entries.flatMap((e) => (e.kind === 'event' && e.event.type === 'patch/applied' && e.event.patchId === patchId ? [e.event] : []));
    const undoKey = applied[0]?.type === 'patch/applied' ? applied[0].undoKey : undefined;
    assert.ok(undoKey, 'the applied patch has an undo key');
    const undone = new Promise<Record<string, unknown>>((resolve) => {
      const sub = api.events.onDidUndoPatch((e) => {
        sub.dispose();
        resolve(e as unknown as Record<string, unknown>);
      });
    });
    const result = await internal.host.undoPatch(undoKey);
    assert.equal(result.ok, true, result.message);
    assert.deepEqual(await undone, { runId, patchId, files: ['apiMul.js'] });
    assert.equal(Buffer.from(await vscode.workspace.fs.readFile(file())).toString(), BUGGY);
  });
});
