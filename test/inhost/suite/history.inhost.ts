// In-host suite for the history panel's host side (issue 12), in code-server's real extension host:
// the panel's requests through the same router the webview uses (queries, paging, search, time
// filter), export, delete, Revert and Apply Again through the run's review and the PatchManager,
// the one panel instance, and a damaged database. Alone: `node scripts/run-inhost.mjs --grep history`.
import * as assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { HistoryEngine } from '../../../src/core/history/engine';
import type { PatchPilotApi } from '../../../src/host/vscode/extension';
import { routeHistory } from '../../../src/host/vscode/history/router';
import type { HistoryToHost, HistoryToHostType, HistoryToWebviewMessage } from '../../../src/protocol/history';

const DAY = 86_400_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}
/** A promise that must settle within `ms`; otherwise the test fails naming the step, not mocha's bare timeout. */
async function within<T>(ms: number, what: string, promise: PromiseLike<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
const root = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
const dbPath = () => path.join(root(), '.patchpilot', 'history.db');
const api = async () => (await vscode.extensions.getExtension('patchpilot.patchpilot')!.activate()) as PatchPilotApi;

/** A request as the webview sends it, through the host's validator and handler, answered by id. */
async function ask<K extends HistoryToHostType>(type: K, payload: HistoryToHost[K][0]): Promise<HistoryToHost[K][1]> {
  const h = (await api()).historyPanel;
  let answer: HistoryToWebviewMessage | undefined;
  await routeHistory(
    { kind: 'request', id: 7, type, payload },
    { service: h.service, patches: h.patches, runs: h.runs, log: { info: () => undefined, warn: () => undefined } },
    (m) => (answer = m),
  );
  assert.ok(answer && answer.kind === 'response', `no answer to ${type}`);
  if (!answer.ok) throw new Error(answer.error);
  return answer.result as HistoryToHost[K][1];
}

const BEFORE = ['function add(a, b) {', '  return a - b;', '}', '', 'function sub(a, b) {', '  return a + b;', '}', ''].join('\n');
const AFTER = BEFORE.replace('return a - b;', 'return a + b;');
const PATCH = [
  '--- a/calc.js',
  '+++ b/calc.js',
  '@@ -1,3 +1,3 @@',
  ' function add(a, b) {',
  '-  return a - b;',
  '+  return a + b;',
  ' }',
  '@@ -5,3 +5,3 @@',
  ' function sub(a, b) {',
  '-  return a + b;',
  '+  return a - b;',
  ' }',
  '',
].join('\n');

let patchRun = '';
let patchId = '';
let now = 0;
/** Runs other suites recorded in this workspace before this one. */
let before0 = 0;

async function setMode(mode: string | undefined): Promise<void> {
  await vscode.workspace.getConfiguration('patchpilot').update('approval.mode', mode, vscode.ConfigurationTarget.Global);
}

describe('history panel, host side', function () {
  this.timeout(120_000);

  before(async () => {
    const h = (await api()).historyPanel;
    now = Date.now();
    before0 = (await ask('history/runs', { offset: 0, limit: 1 })).total;
    // A history of 450 runs over 45 days, one with a real applied patch (one hunk accepted, one rejected with a reason).
    writeFileSync(path.join(root(), 'calc.js'), BEFORE);
    const engine = createEngine();
    const e = await engine;
    for (let i = 0; i < 450; i++) {
      const id = e.startRun({ goal: `run number ${i}`, reasoningModel: 'm', startedAt: now - (450 - i) * 2.4 * 3_600_000 });
      e.addStep(id, {
        role: 'tool',
        tool: 'grep',
        result: i === 100 ? 'the quasimodo function lives in bells.js' : `nothing special ${i}`,
        time: now - (450 - i) * 2.4 * 3_600_000 + 1,
      });
      e.finishRun(id, { status: 'finished', endedAt: now - (450 - i) * 2.4 * 3_600_000 + 5000 });
    }
    const old = e.startRun({ goal: 'an ancient run about quasimodo', startedAt: now - 300 * DAY });
    e.finishRun(old, { status: 'failed', endedAt: now - 300 * DAY + 1000 });
    const { createPatchEngine } = await api();
    const applied = await createPatchEngine(root()).apply(PATCH, { acceptedHunks: new Set(['calc.js#1']) });
    assert.equal(applied.ok, true, applied.error);
    assert.equal(readFileSync(path.join(root(), 'calc.js'), 'utf8'), AFTER);
    patchRun = e.startRun({ goal: 'fix add in calc.js', startedAt: now - 1000 });
    patchId = e.addPatch(patchRun, {
      text: PATCH,
      files: ['calc.js'],
      acceptedHunks: ['calc.js#1'],
      rejectedHunks: [{ id: 'calc.js#2', state: 'rejected', reason: 'sub is right as it is' }],
      reversePatch: applied.reversePatch,
      appliedAt: now - 500,
      snapshots: [{ path: 'calc.js', before: BEFORE, after: AFTER }],
    });
    e.addTestRun({ runId: patchRun, command: 'npm test', trigger: 'agent', exitCode: 0, durationMs: 10, output: 'ok', time: now - 400 });
    e.finishRun(patchRun, { status: 'finished', endedAt: now - 100 });
    e.close();
    await h.service.reopen();
  });

  after(async () => {
    await setMode(undefined);
  });

  it('pages the runs newest first, with the total, and the time filter drops older runs', async () => {
    const first = await ask('history/runs', { offset: 0, limit: 200 });
    assert.equal(first.total, before0 + 452);
    assert.equal(first.runs.length, 200);
    // Other suites' runs (minutes old) sit among these; ours keep their order.
    const ours = first.runs.filter((r) => r.goal === 'fix add in calc.js' || r.goal.startsWith('run number'));
    assert.equal(ours[0]!.goal, 'fix add in calc.js');
    assert.equal(ours[1]!.goal, 'run number 449');
    const last = await ask('history/runs', { offset: before0 + 400, limit: 200 });
    assert.equal(last.runs.length, 52);
    assert.equal(last.runs.at(-1)!.goal, 'an ancient run about quasimodo');
    const week = await ask('history/runs', { offset: 0, limit: 1000, since: now - 7 * DAY });
    assert.ok(week.total - before0 > 60 && week.total - before0 < 80, `runs in 7 days: ${week.total}`);
    assert.ok(week.runs.every((r) => r.startedAt >= now - 7 * DAY));
  });

  it('searches tool results with BM25, marks the words, and honours the time filter', async () => {
    const all = await ask('history/search', { query: 'quasimodo', types: ['runs', 'observations', 'patches', 'tests'], prefix: false });
    assert.deepEqual(all.hits.map((h) => h.kind).sort(), ['run', 'step']);
    const step = all.hits.find((h) => h.kind === 'step')!;
    assert.equal(step.runGoal, 'run number 100');
    assert.deepEqual(
      step.ranges.map(([a, b]) => step.snippet.slice(a, b)),
      ['quasimodo'],
    );
    const recent = await ask('history/search', { query: 'quasimod', types: ['runs'], prefix: true, since: now - 60 * DAY });
    assert.deepEqual(
      recent.hits.map((h) => h.kind),
      ['step'],
      'the prefix finds the word; the ancient run is outside the range',
    );
  });

  it('shows the timeline: the patch with an applied and a rejected hunk and its reason, the test exit code', async () => {
    const { timeline } = await ask('history/run', { runId: patchRun });
    assert.ok(timeline);
    const p = timeline.items.find((i) => i.kind === 'patch');
    assert.ok(p && p.kind === 'patch');
    assert.deepEqual(
      p.hunks.map((h) => [h.id, h.state, h.reason]),
      [
        ['calc.js#1', 'applied', undefined],
        ['calc.js#2', 'rejected', 'sub is right as it is'],
      ],
    );
    assert.ok(p.canRevert && p.canApplyAgain);
    const t = timeline.items.find((i) => i.kind === 'test');
    assert.ok(t && t.kind === 'test' && t.exitCode === 0);
  });

  it('opens the recorded before and after read-only in the diff editor', async () => {
    const r = await ask('history/openPatch', { runId: patchRun, patchId });
    assert.equal(r.ok, true, r.message);
    const tab = await waitFor('the recorded diff', () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputTextDiff && input.modified.scheme === 'patchpilot-history' ? input : undefined;
    });
    const left = await vscode.workspace.openTextDocument(tab.original);
    const right = await vscode.workspace.openTextDocument(tab.modified);
    assert.equal(left.getText(), BEFORE);
    assert.equal(right.getText(), AFTER);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it("Revert goes through the run's review in ask mode and the PatchManager; Apply Again writes the applied hunk only", async () => {
    await setMode('ask');
    const h = (await api()).historyPanel;
    const reverting = h.patches.revert(patchRun, patchId);
    // This review's own card and diff tab (never one an earlier suite left behind), then its Accept.
    await waitFor("the chat card of the revert's review", async () =>
      (await api()).host.snapshot().approvals.some((a) => a.review && a.title === 'patch to calc.js') ? true : undefined,
    );
    const tab = await waitFor("the diff tab of the revert's review", () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .map((t) => t.input)
        .find(
          (i): i is vscode.TabInputTextDiff =>
            i instanceof vscode.TabInputTextDiff && i.modified.scheme === 'patchpilot-proposed' && i.modified.path.endsWith('/calc.js'),
        ),
    );
    await within(30_000, 'the Accept command', vscode.commands.executeCommand('patchpilot.review.accept', tab.modified));
    const r = await within(30_000, 'the revert to end after Accept', reverting);
    assert.equal(r.ok, true, r.message);
    assert.equal(readFileSync(path.join(root(), 'calc.js'), 'utf8'), BEFORE);

    await setMode('auto-edit');
    const again = await h.patches.applyAgain(patchRun, patchId);
    assert.equal(again.ok, true, again.message);
    assert.equal(readFileSync(path.join(root(), 'calc.js'), 'utf8'), AFTER, 'the rejected hunk stays out');
    // Applying it twice does not apply: the engine refuses a hunk whose old lines are gone.
    const twice = await h.patches.applyAgain(patchRun, patchId);
    assert.equal(twice.ok, false);
    assert.match(twice.message, /already have this patch's changes/);
    // Reverted, then Revert again (as after Undo Last Patch): it says the patch was undone, in words.
    assert.equal((await h.patches.revert(patchRun, patchId)).ok, true);
    const undone = await h.patches.revert(patchRun, patchId);
    assert.equal(undone.ok, false);
    assert.match(undone.message, /it was undone\. Nothing to revert/);
    assert.equal(readFileSync(path.join(root(), 'calc.js'), 'utf8'), BEFORE);
    assert.equal((await h.patches.applyAgain(patchRun, patchId)).ok, true);
    assert.equal(readFileSync(path.join(root(), 'calc.js'), 'utf8'), AFTER);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it("Apply Again's review card shows exactly what Accept writes: the applied hunk, not the rejected one", async () => {
    const h = (await api()).historyPanel;
    await setMode('auto-edit');
    assert.equal((await h.patches.revert(patchRun, patchId)).ok, true);
    assert.equal(readFileSync(path.join(root(), 'calc.js'), 'utf8'), BEFORE);
    await setMode('ask');
    const applying = h.patches.applyAgain(patchRun, patchId);
    const card = await waitFor('the chat card of the Apply Again review', async () =>
      (await api()).host.snapshot().approvals.find((a) => a.review && a.title === 'patch to calc.js'),
    );
    assert.match(card.detail ?? '', /^\+ {2}return a \+ b;$/m, 'the applied hunk is on the card');
    assert.doesNotMatch(card.detail ?? '', /^\+ {2}return a - b;$/m, 'the rejected hunk is not on the card');
    assert.match(card.reason ?? '', /1 hunk\b/);
    const tab = await waitFor('the diff tab of the Apply Again review', () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .map((t) => t.input)
        .find(
          (i): i is vscode.TabInputTextDiff =>
            i instanceof vscode.TabInputTextDiff && i.modified.scheme === 'patchpilot-proposed' && i.modified.path.endsWith('/calc.js'),
        ),
    );
    assert.equal((await vscode.workspace.openTextDocument(tab.modified)).getText(), AFTER, 'the diff shows what the card shows');
    await within(30_000, 'the Accept command', vscode.commands.executeCommand('patchpilot.review.accept', tab.modified));
    const r = await within(30_000, 'Apply Again to end after Accept', applying);
    assert.equal(r.ok, true, r.message);
    assert.equal(readFileSync(path.join(root(), 'calc.js'), 'utf8'), AFTER);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('plan mode writes nothing', async () => {
    await setMode('plan');
    const r = await (await api()).historyPanel.patches.revert(patchRun, patchId);
    assert.equal(r.ok, false);
    assert.match(r.message, /plan/);
    assert.equal(readFileSync(path.join(root(), 'calc.js'), 'utf8'), AFTER);
  });

  it('exports a run as audit JSON and as Markdown', async () => {
    const h = (await api()).historyPanel;
    const json = vscode.Uri.file(path.join(root(), 'out', 'run.json'));
    mkdirSync(path.dirname(json.fsPath), { recursive: true });
    assert.equal((await h.runs.exportRun(patchRun, 'json', json)).ok, true);
    const audit = JSON.parse(readFileSync(json.fsPath, 'utf8')) as { tables: { runs: Array<{ id: string }>; patches: Array<{ rejectedHunks: unknown[] }> } };
    assert.equal(audit.tables.runs[0]!.id, patchRun);
    assert.deepEqual(audit.tables.patches[0]!.rejectedHunks, [{ id: 'calc.js#2', state: 'rejected', reason: 'sub is right as it is' }]);
    const md = vscode.Uri.file(path.join(root(), 'out', 'run.md'));
    assert.equal((await h.runs.exportRun(patchRun, 'markdown', md)).ok, true);
    assert.match(readFileSync(md.fsPath, 'utf8'), /^# fix add in calc\.js[\s\S]*calc\.js#2`.*rejected: sub is right as it is/);
    // The save dialog's next default: the folder of this export, named by the day and the goal.
    const detail = (await (await h.service.store()).getRun(patchRun))!;
    const next = await h.runs.defaultExportUri(detail, 'markdown');
    assert.equal(path.dirname(next!.fsPath), path.dirname(md.fsPath));
    assert.match(path.basename(next!.fsPath), /^patchpilot-\d{4}-\d{2}-\d{2}-fix-add-in-calc-js\.md$/);
  });

  it('deletes a run with everything under it; search no longer finds it', async () => {
    const h = (await api()).historyPanel;
    const target = (await ask('history/search', { query: 'quasimodo', types: ['runs'], prefix: false })).hits.find((x) => x.kind === 'step')!.runId!;
    assert.equal((await h.runs.deleteRun(target, true)).ok, true);
    assert.deepEqual(await ask('history/run', { runId: target }), {});
    const after = await ask('history/search', { query: 'quasimodo', types: ['runs'], prefix: false });
    assert.ok(after.hits.every((x) => x.runId !== target));
    assert.equal((await ask('history/runs', { offset: 0, limit: 1 })).total, before0 + 451);
  });

  it('Show History opens one panel and reveals it when run again', async () => {
    await vscode.commands.executeCommand('patchpilot.showHistory');
    await vscode.commands.executeCommand('workbench.action.files.newUntitledFile');
    await vscode.commands.executeCommand('patchpilot.showHistory');
    const panels = () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.includes('patchpilot.history'));
    await waitFor('the history panel', () => (panels().length ? true : undefined));
    await waitFor('the panel to be revealed', () => (panels()[0]?.isActive ? true : undefined), 10_000);
    assert.equal(panels().length, 1);
    assert.equal((await api()).historyPanel.panel.isOpen, true);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('a damaged database is moved aside and the panel says so, instead of a blank panel', async () => {
    const h = (await api()).historyPanel;
    await h.service.reopen();
    // reopen() closed the store; garble the file before it opens again (its last good copy stays as the backup).
    writeFileSync(dbPath(), 'this is not a database '.repeat(20));
    const status = await ask('history/ready', {});
    assert.equal(status.available, true);
    assert.ok(
      status.problems.some(
        (p) =>
          /not a SQLite database/.test(p.message) &&
          /moved to .*corrupt-/.test(p.message) &&
          /Restored the previous copy|started a new, empty history/.test(p.message),
      ),
      JSON.stringify(status.problems),
    );
    assert.ok(readdirSync(path.dirname(dbPath())).some((f) => f.includes('.corrupt-')));
  });
});

function createEngine(): Promise<HistoryEngine> {
  mkdirSync(path.dirname(dbPath()), { recursive: true });
  return HistoryEngine.open({ path: dbPath() });
}
