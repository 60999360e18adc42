// A run told as the panel's timeline, as Markdown and as audit JSON: order, hunk states with
// reasons, test summaries, policy verdicts and answers; hostile text stays inert in Markdown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HistoryEngine } from '../../../src/core/history/engine';
import { runTimeline } from '../../../src/core/historyView/timeline';
import { runToMarkdown } from '../../../src/core/historyView/runMarkdown';
import { runAuditJson } from '../../../src/core/history/auditExport';
import { EARLIER_STEP, TRANSCRIPT_STEP, USER_ANSWER_RULE } from '../../../src/core/history';
import { REAPPLY_STEP, UNDO_STEP } from '../../../src/core/history/types';
import { undoKeyOf } from '../../../src/core/patch/undoKey';
import { withHistoryWorkspace } from '../../support/historyWorkspace';

const PATCH = ['--- a/x.js', '+++ b/x.js', '@@ -1,2 +1,2 @@', '-a', '+A', ' b', '@@ -8,2 +8,2 @@', ' h', '-i', '+I', ''].join('\n');
const HOSTILE = '<img src=x onerror="alert(1)"> [click](javascript:alert(1)) ```';

test('the timeline is in time order with every kind of row; hunks carry their state and reason', () =>
  withHistoryWorkspace(async (ws) => {
    let t = 1_000;
    const engine = await HistoryEngine.open({ path: ws.db, now: () => t });
    try {
      const run = engine.startRun({ goal: 'fix x', reasoningModel: 'big', fastModel: 'small', startedAt: t });
      engine.addStep(run, { role: 'user', text: 'fix x', time: ++t });
      engine.addStep(run, { role: 'assistant', text: null, arguments: [{ name: 'propose_patch' }], time: ++t });
      engine.addPolicyDecision({
        runId: run,
        kind: 'command',
        subject: 'npm test',
        verdict: 'ask',
        rule: 'ask:default',
        reason: 'not on the allowlist',
        time: ++t,
      });
      engine.addPolicyDecision({
        runId: run,
        kind: 'command',
        subject: 'npm test',
        verdict: 'allow',
        rule: USER_ANSWER_RULE,
        reason: 'approved by the user',
        time: ++t,
      });
      engine.addTestRun({
        runId: run,
        command: 'npm test',
        trigger: 'agent',
        exitCode: 1,
        durationMs: 1500,
        output: '# tests 3\n# pass 2\n# fail 1\n',
        time: ++t,
      });
      engine.addStep(run, { role: 'tool', tool: 'propose_patch', arguments: { patch: PATCH }, result: HOSTILE, durationMs: 20, time: ++t });
      t++;
      engine.addPatch(run, {
        text: PATCH,
        files: ['x.js'],
        acceptedHunks: ['x.js#1'],
        rejectedHunks: [{ id: 'x.js#2', state: 'rejected', reason: 'keep i' }],
        reversePatch: 'rev',
        appliedAt: t,
      });
      engine.recordQaSummary(run, 'fix x', 'Changed a to A; the user kept i.', ++t);
      engine.finishRun(run, { status: 'finished', tokensIn: 1200, tokensOut: 300, costUsd: 0.01, endedAt: ++t });
      const d = engine.getRun(run)!;
      const view = runTimeline(d);
      assert.deepEqual(
        view.items.map((i) => i.kind),
        ['message', 'policy', 'policy', 'test', 'tool', 'patch', 'summary'],
        'the assistant step without text is left to its tool steps',
      );
      assert.deepEqual(view.run.models, ['big', 'small']);
      const patch = view.items.find((i) => i.kind === 'patch')!;
      assert.ok(patch.kind === 'patch');
      assert.deepEqual(
        patch.hunks.map((h) => [h.id, h.state, h.reason ?? '', h.oldStart]),
        [
          ['x.js#1', 'applied', '', 1],
          ['x.js#2', 'rejected', 'keep i', 8],
        ],
      );
      assert.equal(patch.canRevert, true);
      assert.equal(patch.canApplyAgain, true);
      const testItem = view.items.find((i) => i.kind === 'test')!;
      assert.ok(testItem.kind === 'test' && testItem.exitCode === 1 && /1 failed|fail/i.test(testItem.summary), JSON.stringify(testItem));
      assert.ok(view.items.some((i) => i.kind === 'policy' && i.userAnswer && i.verdict === 'allow'));

      const md = runToMarkdown(d);
      assert.match(md, /^# fix x/);
      assert.match(md, /x\.js#2`.*: rejected: keep i/);
      assert.match(md, /The user approved \(command\): npm test/);
      // The hostile result is inside a fence longer than its own backticks; nowhere is it live HTML.
      assert.ok(md.includes('````text\n' + HOSTILE + '\n````'));
      assert.ok(!/<img/.test(md.replace('````text\n' + HOSTILE + '\n````', '')));

      const audit = JSON.parse(await runAuditJson(d, new Date(0))) as { exportedAt: string; tables: Record<string, Array<{ id: string }>> };
      assert.equal(audit.exportedAt, '1970-01-01T00:00:00.000Z');
      assert.deepEqual(Object.keys(audit.tables), ['runs', 'steps', 'patches', 'test_runs', 'observations', 'policy_decisions']);
      assert.equal(audit.tables.runs![0]!.id, run);
      assert.equal(audit.tables.steps!.length, 3);
    } finally {
      engine.close();
    }
  }));

test('long texts are cut for the panel, and old rows (bare rejected ids, no parse) still show', () =>
  withHistoryWorkspace(async (ws) => {
    const engine = await HistoryEngine.open({ path: ws.db });
    try {
      const run = engine.startRun({ goal: 'g' });
      engine.addStep(run, { role: 'tool', tool: 'read_file', result: 'x'.repeat(50_000) });
      engine.addPatch(run, { text: 'not a patch at all', files: ['y.js'], acceptedHunks: [], rejectedHunks: ['y.js#1'] });
      const view = runTimeline(engine.getRun(run)!);
      const tool = view.items.find((i) => i.kind === 'tool')!;
      assert.ok(tool.kind === 'tool' && tool.result.length < 21_000 && tool.resultChars === 50_000 && /more characters/.test(tool.result));
      const patch = view.items.find((i) => i.kind === 'patch')!;
      assert.ok(patch.kind === 'patch');
      assert.deepEqual(patch.hunks, [{ id: 'y.js#1', path: 'y.js', state: 'rejected' }]);
      assert.equal(patch.canRevert, false);
    } finally {
      engine.close();
    }
  }));

test('the context bookkeeping steps read as what they are, with their message count, not "N message(s)"', () =>
  withHistoryWorkspace(async (ws) => {
    const engine = await HistoryEngine.open({ path: ws.db });
    try {
      const run = engine.startRun({ goal: 'a follow-up' });
      const two = [
        { role: 'user', content: 'fix x' },
        { role: 'assistant', content: 'done' },
      ];
      engine.addStep(run, { role: 'system', tool: EARLIER_STEP, text: '2 message(s)', arguments: two });
      engine.addStep(run, { role: 'user', text: 'now also y' });
      engine.addStep(run, { role: 'system', tool: TRANSCRIPT_STEP, text: '1 message(s)', arguments: two.slice(0, 1) });
      engine.addStep(run, { role: 'system', tool: 'context/summary', text: 'context summarized: 9k -> 2k tokens (budget 8k)' });
      engine.finishRun(run, { status: 'finished' });
      const texts = runTimeline(engine.getRun(run)!).items.map((i) => (i.kind === 'message' ? i.text : i.kind));
      assert.deepEqual(texts, [
        "The chat's earlier turns went to the model with this goal (2 messages).",
        'now also y',
        'The conversation as the model saw it was kept for a follow-up (1 message).',
        'context summarized: 9k -> 2k tokens (budget 8k)',
      ]);
    } finally {
      engine.close();
    }
  }));

test("a patch undone, applied again, then undone: the latest of the user's undo and Apply Again steps says where it stands", () =>
  withHistoryWorkspace(async (ws) => {
    let t = 1_000;
    const engine = await HistoryEngine.open({ path: ws.db, now: () => t });
    try {
      const run = engine.startRun({ goal: 'fix x', reasoningModel: 'big', fastModel: 'small', startedAt: t });
      const reverse = ['--- a/x.js', '+++ b/x.js', '@@ -1,2 +1,2 @@', '-A', '+a', ' b', ''].join('\n');
      engine.addPatch(run, { text: PATCH, files: ['x.js'], acceptedHunks: ['x.js#1'], rejectedHunks: [], reversePatch: reverse, appliedAt: ++t });
      const patchOf = () => {
        const p = runTimeline(engine.getRun(run)!).items.find((i) => i.kind === 'patch')!;
        assert.ok(p.kind === 'patch');
        return p;
      };
      const step = (tool: string) =>
        engine.addStep(run, { role: 'system', tool, text: tool, arguments: { undoKey: undoKeyOf(reverse), files: ['x.js'] }, time: ++t });
      assert.equal(patchOf().canRevert, true);
      step(UNDO_STEP);
      assert.equal(patchOf().undoneAt, t);
      assert.equal(patchOf().canRevert, false);
      step(REAPPLY_STEP);
      assert.equal(patchOf().undoneAt, undefined);
      assert.equal(patchOf().reappliedAt, t);
      assert.equal(patchOf().canRevert, true, 'applied again: it can be reverted again');
      assert.match(runToMarkdown(engine.getRun(run)!), /applied, later applied again by the user/);
      step(UNDO_STEP);
      assert.equal(patchOf().undoneAt, t);
      assert.equal(patchOf().reappliedAt, undefined);
    } finally {
      engine.close();
    }
  }));
