import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { PatchPilotSettings } from '../../../src/core/config/settings';
import { BUGGY, FIX, TEST_CMD, runScripted } from './harness';
import { call } from '../../integration/agent/support';
import { createToolRegistry } from '../../../src/core/tools';
import { spawnSubagentTool } from '../../../src/core/tools/spawnSubagent';
import { TestsAfterLastChange } from '../../../src/core/orchestrator/testsOutcome';

/** A patch that keeps add() wrong (the tests still fail after it). */
const STILL_WRONG = '--- a/add.js\n+++ b/add.js\n@@ -1 +1 @@\n-exports.add = (a, b) => a - b;\n+exports.add = (a, b) => a - b - 1;\n';
/** The fixed code, and a patch that breaks it: a failure the run introduces (the baseline passes). */
const FIXED = { ...BUGGY, 'add.js': 'exports.add = (a, b) => a + b;\n' };
const BREAK = '--- a/add.js\n+++ b/add.js\n@@ -1 +1 @@\n-exports.add = (a, b) => a + b;\n+exports.add = (a, b) => a + b + 1;\n';
const withTests =
  (afterEdit = true) =>
  (s: PatchPilotSettings) => {
    s.tests.commands = [TEST_CMD];
    s.tests.afterEdit = afterEdit;
  };
const finish = call('finish', { summary: 'done' });
/** An honest finish over a failure that was there before the run: it names the test. */
const finishNamingIt = call('finish', { summary: 'done; adds failed before the run too' });
const finishedEvent = (h: Awaited<ReturnType<typeof runScripted>>) =>
  h.events.find((e) => e.type === 'run/finished') as { status: string; tests?: string } | undefined;

describe('the run ends with the state of the tests after its last edit', () => {
  const cases: { name: string; turns: Record<string, unknown>[][]; afterEdit?: boolean; files?: Record<string, string>; expect: string }[] = [
    {
      name: 'an edit that breaks a passing test, then finish (refused once, then again): failed, though the run finished',
      turns: [[call('propose_patch', { patch: BREAK })], [finish], [finish]],
      files: FIXED,
      expect: 'failed',
    },
    {
      name: 'an edit after which only a test that failed before the run still fails: known-failures, the finish naming it is not refused',
      turns: [[call('propose_patch', { patch: STILL_WRONG })], [finishNamingIt]],
      expect: 'known-failures',
    },
    { name: 'an edit whose tests pass: passed', turns: [[call('propose_patch', { patch: FIX })], [finish]], expect: 'passed' },
    { name: 'run_tests in a run without edits: its failures are pre-existing', turns: [[call('run_tests', {})], [finishNamingIt]], expect: 'known-failures' },
    {
      name: 'tests passed, then an edit without tests after it: not-run',
      afterEdit: false,
      turns: [[call('propose_patch', { patch: FIX })], [call('run_tests', {})], [call('write_file', { path: 'note.txt', content: 'x\n' })], [finish]],
      expect: 'not-run',
    },
    {
      name: 'an edit, then run_tests that fails: failed',
      afterEdit: false,
      turns: [[call('propose_patch', { patch: STILL_WRONG })], [call('run_tests', {})], [finish], [finish]],
      expect: 'failed',
    },
    { name: 'no edit and no tests: not-run', turns: [[call('list_dir', { path: '.' })], [finish]], expect: 'not-run' },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const h = await runScripted(
        c.turns.map((calls) => ({ reply: { toolCalls: calls as never } })),
        { settings: withTests(c.afterEdit ?? true), files: c.files ?? BUGGY },
      );
      assert.equal(h.outcome.status, 'finished', h.outcome.reason);
      assert.equal(h.outcome.tests, c.expect);
      assert.equal(finishedEvent(h)?.tests, c.expect);
    });
  }

  test('the history timeline of the run says it', async () => {
    let texts: (string | null)[] = [];
    await runScripted(
      [{ reply: { toolCalls: [call('propose_patch', { patch: BREAK })] } }, { reply: { toolCalls: [finish] } }, { reply: { toolCalls: [finish] } }],
      {
        files: FIXED,
        settings: withTests(),
        inspect: async (h) => {
          const runs = await h.history.listRuns({ limit: 1 });
          texts = (await h.history.getRun(runs[0]!.id))!.steps.map((s) => s.text);
        },
      },
    );
    assert.ok(texts.includes('tests FAILED after the last edit: adds'), JSON.stringify(texts));
  });

  test('a subagent that edits after the tests passed leaves them not-run; its own tests count when it ran them', async () => {
    const tools = createToolRegistry({ history: true }).with([spawnSubagentTool]);
    const spawnWriter = call('spawn_subagent', { task: 'write the note', tools: ['write_file'] });
    const childWrites = [
      { reply: { toolCalls: [call('write_file', { path: 'note.txt', content: 'x\n' })] } },
      { reply: { toolCalls: [call('finish', { summary: 'written' })] } },
    ];
    const afterPassing = [
      { reply: { toolCalls: [call('propose_patch', { patch: FIX })] } },
      { reply: { toolCalls: [call('run_tests', {})] } },
      { reply: { toolCalls: [spawnWriter] } },
    ];
    const untested = await runScripted([...afterPassing, ...childWrites, { reply: { toolCalls: [finish] } }], { settings: withTests(false), deps: { tools } });
    assert.equal(untested.outcome.tests, 'not-run');
    // With tests after every edit, the child's write was tested (and passes): that is the last word.
    const tested = await runScripted(
      [
        { reply: { toolCalls: [call('propose_patch', { patch: BREAK })] } },
        { reply: { toolCalls: [spawnWriter] } },
        ...childWrites,
        { reply: { toolCalls: [finish] } },
        { reply: { toolCalls: [finish] } },
      ],
      { files: FIXED, settings: withTests(true), deps: { tools } },
    );
    assert.equal(tested.outcome.tests, 'failed');
    // A read-only subagent changes nothing of the state.
    const reader = await runScripted(
      [
        { reply: { toolCalls: [call('propose_patch', { patch: FIX })] } },
        { reply: { toolCalls: [call('spawn_subagent', { task: 'read add.js' })] } },
        { reply: { toolCalls: [call('finish', { summary: 'read' })] } },
        { reply: { toolCalls: [finish] } },
      ],
      { settings: withTests(true), deps: { tools } },
    );
    assert.equal(reader.outcome.tests, 'passed');
  });
});

test('the files of failures the latest run introduced (a narrowed run too) are what the next after-edit run includes; pre-existing ones and fixed ones are not', () => {
  const t = new TestsAfterLastChange();
  const report = (failing: Record<string, string>, narrowed = false) => ({
    narrowed,
    failing: Object.keys(failing),
    failingFiles: failing,
    flaky: [],
    unnamedFailure: false,
    aimedAt: narrowed ? ['test/range.js'] : [],
  });
  t.ranReport(report({ 'bin > timeout!': 'test/bin.js' }));
  t.changed();
  t.ranReport(report({ 'range parsing > >=0.0.0': 'test/range.js', 'bin > timeout!': 'test/bin.js' }, true));
  assert.deepEqual(t.openFailureFiles, ['test/range.js']);
  t.changed();
  t.ranReport(report({}, true));
  assert.deepEqual(t.openFailureFiles, []);
});
