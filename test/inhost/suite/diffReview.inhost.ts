// In-host suite for the diff review, undo and the test task (ext-diff), run in code-server by
// test/e2e/inhost.test.ts; alone: `node scripts/run-inhost.mjs --grep "diff review|test task"`.
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { PatchPilotApi } from '../../../src/host/vscode/extension';
import { VsCodeWorkspaceFs } from '../../../src/host/vscode/workspace/vsCodeWorkspaceFs';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Polls until `probe` returns a value (a loaded machine opens editors slowly; never a fixed sleep). */
async function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}
async function waitForAsync<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}
const root = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
const api = async () => (await vscode.extensions.getExtension('patchpilot.patchpilot')!.activate()) as PatchPilotApi;
const lines = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`);
const patch = `--- a/review.txt\n+++ b/review.txt\n@@ -1,3 +1,3 @@\n-line 1\n+LINE ONE\n line 2\n line 3\n@@ -10,3 +10,3 @@\n line 10\n line 11\n-line 12\n+LINE TWELVE\n`;

describe('diff review', () => {
  it('opens with the dirty editor on the left; accept one hunk, reject the other: exactly the accepted hunk is written; undo restores', async () => {
    const { diffPreview, createPatchEngine } = await api();
    const file = path.join(root(), 'review.txt');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const doc = await vscode.workspace.openTextDocument(file);
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit((e) => e.insert(new vscode.Position(5, 0), 'unsaved\n'));
    assert.equal(doc.isDirty, true);

    const engine = createPatchEngine(root(), diffPreview);
    const dry = await engine.apply(patch, { dryRun: true });
    assert.equal(dry.ok, true, dry.error);
    assert.match(dry.files[0]!.oldText!, /unsaved/);
    const answer = diffPreview.review({ patchText: patch, preview: dry }, new AbortController().signal);
    const diffTab = await waitFor('the review diff tab', () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputTextDiff && input.modified.scheme === 'patchpilot-proposed' ? input : undefined;
    });

    const reviewId = diffTab.modified.path.split('/')[1];
    await vscode.commands.executeCommand('patchpilot.review.acceptHunk', reviewId, 'review.txt#1');
    let rejected = false;
    const rejecting = Promise.resolve(vscode.commands.executeCommand('patchpilot.review.rejectHunk', reviewId, 'review.txt#2')).then(() => (rejected = true));
    // The reason box opens when the host gets to it: Escape (no reason) until the command returns.
    await waitFor('the reject command to finish', () => {
      if (rejected) return true;
      void vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      return undefined;
    });
    await rejecting;
    const a = await answer;
    assert.deepEqual(a.acceptedHunks, ['review.txt#1']);

    const applied = await engine.apply(patch, { acceptedHunks: new Set(a.acceptedHunks) });
    assert.equal(applied.ok, true, applied.error);
    const expected = [...lines];
    expected[0] = 'LINE ONE';
    expected.splice(5, 0, 'unsaved');
    assert.equal(readFileSync(file, 'utf8'), `${expected.join('\n')}\n`);
    assert.equal(doc.isDirty, false);

    await vscode.commands.executeCommand('patchpilot.undoLastPatch');
    assert.equal(readFileSync(file, 'utf8').split('\n')[0], 'line 1');
  });
});

describe('diff review answered at once', () => {
  it('Accept from the chat card before the diff editor has opened ends the review, and leaves no proposal tab open', async () => {
    const { diffPreview, createPatchEngine } = await api();
    const file = path.join(root(), 'quick.txt');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const quick = patch.replaceAll('review.txt', 'quick.txt');
    const dry = await createPatchEngine(root()).apply(quick, { dryRun: true });
    assert.equal(dry.ok, true, dry.error);
    // As the chat card's Accept does, the moment the review exists (the editors are still opening).
    const answer = diffPreview.review({ patchText: quick, preview: dry }, new AbortController().signal, (controls) => void controls.accept());
    const done = await Promise.race([answer, sleep(20_000).then(() => undefined)]);
    assert.ok(done, 'the review ended without waiting for its editors');
    assert.deepEqual([...done.acceptedHunks].sort(), ['quick.txt#1', 'quick.txt#2']);
    const proposals = () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === 'patchpilot-proposed');
    // An editor that finished opening after the answer is closed again.
    await waitFor('no proposal tab left', () => (proposals().length === 0 ? true : undefined), 10_000);
  });
});

describe('workspace writes', () => {
  it('a file changed on disk under a clean editor is written and saved, and the editor shows it, not a save conflict', async () => {
    const file = path.join(root(), 'changed-on-disk.txt');
    writeFileSync(file, 'one\n');
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    assert.equal(doc.getText(), 'one\n');
    // Another tool writes the file, and the agent's change follows before VS Code may have reloaded it.
    writeFileSync(file, 'two\n');
    await new VsCodeWorkspaceFs(root()).applyChanges([{ kind: 'write', path: 'changed-on-disk.txt', content: 'three\n' }]);
    assert.equal(readFileSync(file, 'utf8'), 'three\n');
    await waitFor('the editor to show the file', () => (doc.getText() === 'three\n' && !doc.isDirty ? true : undefined));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});

describe('test task', () => {
  it('runs a command in a task terminal and reports its exit code and output', async () => {
    const { testService } = await api();
    const service = testService();
    assert.ok(service);
    const result = await service.runner.run({ command: 'echo from-the-task; exit 3', cwd: root() });
    assert.equal(result.exitCode, 3);
    assert.match(result.output, /from-the-task/);
  });

  it('"Run Tests" runs the configured commands and records each run in the workspace history', async () => {
    const { history } = await api();
    const settings = vscode.workspace.getConfiguration('patchpilot');
    await settings.update('tests.commands', ['echo recorded-by-run-tests; exit 4'], vscode.ConfigurationTarget.Workspace);
    try {
      const result = (await vscode.commands.executeCommand('patchpilot.runTests')) as { passed: boolean; exitCodes: number[]; output: string };
      assert.deepEqual(result.exitCodes, [4]);
      assert.equal(result.passed, false);
      const store = await history.get();
      assert.ok(store, 'the window history opens');
      const row = await waitForAsync('the test run in history', async () => {
        for await (const r of store.exportAll()) if (r.table === 'test_runs' && r.row.command.includes('recorded-by-run-tests')) return r.row;
        return undefined;
      });
      assert.equal(row.trigger, 'manual');
      assert.equal(row.exitCode, 4);
      assert.match(row.outputTail, /recorded-by-run-tests/);
    } finally {
      await settings.update('tests.commands', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  it('run on save: two quick saves of matching files make one test run, recorded as a save run', async () => {
    const { testService } = await api();
    const settings = vscode.workspace.getConfiguration('patchpilot');
    await settings.update('tests.commands', ['echo saved-run'], vscode.ConfigurationTarget.Workspace);
    await settings.update('tests.runOnSave', '**/*.md', vscode.ConfigurationTarget.Workspace);
    const runs: { trigger: string; paths?: string[] }[] = [];
    const sub = testService()!.onDidRunTests((r) => runs.push(r));
    try {
      // Both edits first, then the two saves back to back: opening editors on a loaded machine can
      // take longer than the debounce, which would make them two separate saves.
      const docs: vscode.TextDocument[] = [];
      for (const name of ['a.md', 'b.md']) {
        const file = path.join(root(), name);
        writeFileSync(file, 'x\n');
        const doc = await vscode.workspace.openTextDocument(file);
        const editor = await vscode.window.showTextDocument(doc);
        await editor.edit((e) => e.insert(new vscode.Position(0, 0), 'saved '));
        docs.push(doc);
      }
      for (const doc of docs) await doc.save();
      await waitFor('the run-on-save test run', () => (runs.length ? true : undefined));
      await sleep(2000); // a second, unwanted run would come within the debounce delay (0.8 s) plus its run
      assert.equal(runs.length, 1, JSON.stringify(runs));
      assert.equal(runs[0]!.trigger, 'save');
      assert.deepEqual([...(runs[0]!.paths ?? [])].sort(), ['a.md', 'b.md']);
    } finally {
      sub.dispose();
      await settings.update('tests.runOnSave', undefined, vscode.ConfigurationTarget.Workspace);
      await settings.update('tests.commands', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });
});
