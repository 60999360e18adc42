// The loop guard (loopGuard.ts) and the finish gate (finishGate.ts), as plain objects.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RepeatedFailures, canonicalArguments } from '../../../src/core/orchestrator/loopGuard';
import { FinishGate } from '../../../src/core/orchestrator/finishGate';
import type { TestRunReport } from '../../../src/core/testRuns';
import { TestsAfterLastChange } from '../../../src/core/orchestrator/testsOutcome';

const failed = (output: string) => ({ ok: false, output });

describe('the loop guard', () => {
  test('the same tool, arguments (in any key order) and failure, N times: stop; anything different counts apart', () => {
    const guard = new RepeatedFailures(3);
    const a = { name: 'read_file', argumentsJson: '{"path":"x","limit":5}' };
    const b = { name: 'read_file', argumentsJson: '{ "limit": 5, "path": "x" }' };
    assert.equal(guard.note(a, undefined, failed('no such file')), undefined);
    assert.equal(guard.note(b, undefined, failed('no such file')), undefined);
    assert.equal(guard.note(a, undefined, failed('another failure')), undefined, 'another failure is another call');
    assert.equal(guard.note({ ...a, name: 'grep' }, undefined, failed('no such file')), undefined);
    assert.equal(guard.note(a, undefined, { ok: true, output: 'fine' }), undefined, 'a success is no failure');
    assert.match(
      guard.note(b, undefined, failed('no such file'))!,
      /^the same failing tool call was made 3 times: read_file \{"limit":5,"path":"x"\} -> no such file/,
    );
  });

  test('a test verdict is work in progress, not a failed call', () => {
    const guard = new RepeatedFailures(1);
    const tool = { loop: { isVerdict: () => true } } as never;
    assert.equal(guard.note({ name: 'run_tests', argumentsJson: '{}' }, tool, failed('1 failing')), undefined);
  });

  test('canonicalArguments sorts keys at every level and keeps broken JSON as it came', () => {
    assert.equal(canonicalArguments('{"b":{"d":1,"c":[{"z":1,"y":2}]},"a":0}'), '{"a":0,"b":{"c":[{"y":2,"z":1}],"d":1}}');
    assert.equal(canonicalArguments(' {"a": '), '{"a":');
  });
});

describe('the finish gate', () => {
  const report = (failing: string[], extra: Partial<TestRunReport> = {}): TestRunReport => ({
    narrowed: false,
    failing,
    flaky: [],
    unnamedFailure: false,
    aimedAt: [],
    ...extra,
  });

  test('refused once per failure state; a second finish in the same state stands', () => {
    const tests = new TestsAfterLastChange();
    const gate = new FinishGate();
    assert.equal(gate.check(tests), undefined, 'no tests ran: the finish stands');
    tests.changed();
    tests.ran(false);
    assert.match(gate.check(tests) ?? '', /without naming a test/);
    assert.equal(gate.check(tests), undefined, 'nothing changed since: finished, tests failing');
    tests.changed();
    tests.ran(false);
    assert.ok(gate.check(tests), 'a new failure state: refused again');
    tests.ran(true);
    assert.equal(gate.check(tests), undefined);
  });

  test('at most a few refusals in a run', () => {
    const tests = new TestsAfterLastChange();
    tests.changed();
    const gate = new FinishGate(2);
    const refusals = [1, 2, 3, 4].map(() => {
      tests.ran(false);
      return gate.check(tests) !== undefined;
    });
    assert.deepEqual(refusals, [true, true, false, false]);
  });

  test('a failure that failed before the run (the baseline) does not block: named in the finish it stands, unnamed it asks once', () => {
    const tests = new TestsAfterLastChange();
    tests.recordBaseline(report(['test_x']));
    tests.changed();
    tests.ranReport(report(['test_x']));
    assert.equal(tests.outcome, 'known-failures');
    assert.deepEqual(tests.failures.preExisting, ['test_x']);
    assert.equal(new FinishGate().check(tests, 'fixed the parser; test_x failed before the run'), undefined);
    const gate = new FinishGate();
    assert.match(gate.check(tests, 'fixed the parser') ?? '', /still fail: test_x/);
    assert.equal(gate.check(tests, 'fixed the parser'), undefined, 'the same finish is not asked twice');
  });

  test('a whole-suite run before any change is the baseline too', () => {
    const tests = new TestsAfterLastChange();
    tests.ranReport(report(['test_x']));
    tests.changed();
    tests.ranReport(report(['test_x', 'test_new']));
    assert.deepEqual(tests.failures.new, ['test_new']);
    assert.equal(tests.outcome, 'failed');
  });

  test('flaky failures (passed on rerun) and failures the model ran alone and saw pass do not refuse', () => {
    const tests = new TestsAfterLastChange();
    tests.recordBaseline(report([]));
    tests.changed();
    tests.ranReport(report(['slow.test.js > times out'], { flaky: ['other > flaky one'] }));
    const gate = new FinishGate();
    assert.match(gate.check(tests, 'done') ?? '', /did not fail before the run: slow\.test\.js > times out/);
    tests.ranReport(report([], { narrowed: true, aimedAt: ['slow.test.js'] }));
    assert.equal(tests.outcome, 'known-failures');
    assert.deepEqual(tests.failures, {
      new: [],
      preExisting: [],
      flaky: ['other > flaky one'],
      passedAlone: ['slow.test.js > times out'],
      unnamed: false,
      newSteps: [],
    });
    assert.equal(gate.check(tests, 'done'), undefined);
  });

  test('a narrowed run that fails does not change the state; a narrowed pass alone is no whole-suite pass', () => {
    const tests = new TestsAfterLastChange();
    tests.changed();
    tests.ranReport(report([], { narrowed: true, aimedAt: ['a.test.js'] }));
    assert.equal(tests.outcome, 'not-run');
  });

  test('an honest finish that names the new failures stands, and the same failures refuse only once', () => {
    const tests = new TestsAfterLastChange();
    tests.recordBaseline(report([]));
    tests.changed();
    tests.ranReport(report(['tests/test_io.py::test_timeout']));
    assert.equal(new FinishGate().check(tests, 'Fixed. test_timeout still fails: it is load-dependent and unrelated.'), undefined);
    const gate = new FinishGate();
    assert.ok(gate.check(tests, 'done'));
    tests.changed();
    tests.ranReport(report(['tests/test_io.py::test_timeout']));
    assert.equal(gate.check(tests, 'done'), undefined, 'the same failing test after another edit: not refused again');
  });
});
