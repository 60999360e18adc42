// The real-task benchmark's pieces that need no repository: every task file is complete and keeps
// the promises of the set (10 tasks, 4 fixes across files, 3 slow suites), and the figures are read
// from the CLI's --json events as documented.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyFigures, failureBeforeModel, tally } from '../../../bench/tasks/agentRun';
import { cells } from '../../../bench/tasks/runTask';
import { loadTasks } from '../../../bench/tasks/task';
import { markdownTable } from '../../../bench/tasks/table';

test('every task file is complete, and the set has its mix', () => {
  const tasks = loadTasks();
  assert.ok(tasks.length >= 10, `${tasks.length} tasks`);
  assert.ok(tasks.filter((t) => t.fixFiles.length > 1).length >= 4, 'four fixes change more than one file');
  assert.ok(tasks.filter((t) => t.suite).length >= 3, 'three tasks with a slow or flaky suite');
  for (const t of tasks) {
    // A held-out test listed as a fix file would be applied by --check's applyFix and given away.
    assert.deepEqual(
      t.fixFiles.filter((f) => t.heldOutTests.includes(f)),
      [],
      t.name,
    );
    assert.doesNotMatch(t.goal, /\b[0-9a-f]{40}\b/, `${t.name}: the goal names no commit`);
  }
});

test('an unknown task name is an error that lists the known ones', () => {
  assert.throws(() => loadTasks(['no-such-task']), /no such task: no-such-task \(defs: .*ms-negative-decimals/);
});

test('figures come from the --json events', () => {
  const f = emptyFigures('log');
  const events = [
    { type: 'test/finished', command: 'npm test', exitCode: 1, durationMs: 1500, summary: '' },
    { type: 'test/finished', command: 'npm test -- test/a.js', exitCode: 0, durationMs: 200, summary: '' },
    { type: 'test/finished', command: 'npm test', exitCode: 0, durationMs: 300, summary: '' },
    { type: 'patch/refused', files: ['a.js'], hunks: [] },
    { type: 'model/notice', kind: 'finish-refused', message: '' },
    { type: 'model/notice', kind: 'empty-reply', message: '' },
    {
      type: 'run/finished',
      status: 'finished',
      reason: '',
      steps: 7,
      tests: 'passed',
      usage: {
        reasoning: { model: 'm', requests: 7, promptTokens: 1000, completionTokens: 200 },
        fast: { model: 'f', requests: 1, promptTokens: 50, completionTokens: 5 },
        totalCost: 0.01,
      },
    },
    { type: 'result', status: 'finished', conclusion: 'passed', exitCode: 0 },
  ];
  for (const e of events) tally(f, e);
  assert.deepEqual(
    { ...f, log: undefined },
    {
      ...emptyFigures('log'),
      log: undefined,
      status: 'finished',
      tests: 'passed',
      exitCode: 0,
      steps: 7,
      requests: 8,
      tokens: 1255,
      testMs: 2000,
      testRuns: 3,
      wholeRuns: 2,
      wholeCommand: 'npm test',
      patchesRefused: 1,
      finishesRefused: 1,
    },
  );
});

test('a run counts as whole when its event says so: a narrowing the runner ignored is a whole run, an aimed command is not', () => {
  const f = emptyFigures('log');
  for (const e of [
    { type: 'test/finished', command: 'npm test', exitCode: 1, durationMs: 100, summary: '', whole: true },
    { type: 'test/finished', command: 'npm test -- test/bin/semver.js', exitCode: 1, durationMs: 100, summary: '', whole: true },
    { type: 'test/finished', command: 'npm test -- test/a.js', exitCode: 0, durationMs: 100, summary: '', whole: false },
  ])
    tally(f, e);
  assert.equal(f.testRuns, 3);
  assert.equal(f.wholeRuns, 2);
});

// The events of `patchpilot run --json` with PATCHPILOT_BASE_URL=http://127.0.0.1:/v1 (copied from a real run).
const UNREACHED =
  'the model request failed: could not reach http://127.0.0.1:/v1: connect ECONNREFUSED 127.0.0.1:80; is the server running? check the base URL (from $PATCHPILOT_BASE_URL)';
const unreachedEvents = [
  { type: 'run/started', goal: 'fix it', model: 'm' },
  { type: 'step/started', step: 1 },
  {
    type: 'run/finished',
    status: 'failed',
    reason: UNREACHED,
    steps: 1,
    tests: 'not-run',
    usage: { reasoning: { model: 'm', requests: 0, promptTokens: 0, completionTokens: 0 } },
  },
  { type: 'result', status: 'failed', reason: UNREACHED, steps: 1, tests: 'not-run', exitCode: 3 },
];
const task = loadTasks([])[0]!;

test('a run that failed before any model reply: the row and the log say why (the endpoint), not the tests', () => {
  const f = emptyFigures('/x/task.jsonl');
  for (const e of unreachedEvents) tally(f, e);
  assert.equal(failureBeforeModel(f), UNREACHED);
  assert.equal(cells(task, 'no', f)[2], `failed before any model reply (exit 3): ${UNREACHED}`);
});

test('a run that never started has only its result event: its reason is the row', () => {
  const f = emptyFigures('/x/task.jsonl');
  tally(f, { type: 'result', status: 'not-started', conclusion: 'usage', exitCode: 2, reason: 'no model endpoint: set --base-url | or else' });
  assert.equal(cells(task, 'no', f)[2], 'not-started before any model reply (exit 2): no model endpoint: set --base-url \\| or else');
});

test('a CLI that ended without events is said so, pointing at its stderr', () => {
  assert.equal(failureBeforeModel(emptyFigures('/x/task.jsonl')), 'the CLI ended without a result event (see /x/task.stderr.txt)');
});

test('a run that reached the model keeps the status and tests cell, whatever its end', () => {
  const f = emptyFigures('log');
  tally(f, {
    type: 'run/finished',
    status: 'failed',
    reason: 'the model stopped answering',
    tests: 'failed',
    usage: { reasoning: { requests: 3, promptTokens: 10, completionTokens: 1 } },
  });
  assert.equal(failureBeforeModel(f), undefined);
  assert.equal(cells(task, 'no', f)[2], 'failed, tests failed');
});

test('the table pads its columns', () => {
  assert.equal(markdownTable(['a', 'bb'], [['ccc', 'd']]), '| a   | bb |\n| --- | -- |\n| ccc | d  |');
});
