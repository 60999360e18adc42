// The finish gate: new failures refuse (once per set), pre-existing ones ask once when the finish does
// not name them (the bug a fix was meant to fix may still fail), and an honest finish is never refused twice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FinishGate } from '../../../src/core/orchestrator/finishGate';

const state = (outcome: 'failed' | 'known-failures' | 'passed', version: number, preExisting: string[] = [], fresh: string[] = []) => ({
  outcome,
  version,
  failures: { new: fresh, preExisting, flaky: [], passedAlone: [], unnamed: false, newSteps: [] as string[] },
});

test('pre-existing failures the finish names end the run at once', () => {
  const gate = new FinishGate();
  assert.equal(
    gate.check(
      state('known-failures', 1, ['tests/test_dates.py::test_leap_year']),
      'Fixed parsing; test_leap_year failed before the run and is unrelated (timezone data).',
    ),
    undefined,
  );
});

test('pre-existing failures the finish does not name ask once, then the same finish stands', () => {
  const gate = new FinishGate();
  const s = state('known-failures', 1, ['legacy parser > rejects empty input']);
  assert.match(gate.check(s, 'Done.') ?? '', /still fail: legacy parser > rejects empty input\. They failed before the run too/);
  assert.equal(gate.check(s, 'Done.'), undefined, 'the same finish is not refused twice');
  assert.equal(gate.check(state('known-failures', 2, ['legacy parser > rejects empty input']), 'Done again.'), undefined, 'the same tests ask once per run');
});

test('new failures refuse; passing tests never do', () => {
  const gate = new FinishGate();
  assert.match(gate.check(state('failed', 1, [], ['adds']), 'Done.') ?? '', /did not fail before the run: adds/);
  assert.equal(gate.check(state('passed', 2), 'Done.'), undefined);
});

test("a finish that names the file the failures ran in (jest's names hold none) names them: new or pre-existing, it stands", () => {
  const names = ['DST, a time that never existed Fall Back › 2012-11-04 01:00:00', 'DST, a time that never existed Fall Back › 2012-11-04 01:59:59'];
  const files = Object.fromEntries(names.map((n) => [n, 'test/plugin/timezone.test.js']));
  const summary = 'Fixed utcOffset across DST. The 3 failures in test/plugin/timezone.test.js failed before the run as well.';
  for (const s of [state('known-failures', 1, names), state('failed', 1, [], names)]) {
    assert.equal(new FinishGate().check({ ...s, failures: { ...s.failures, files } }, summary), undefined, s.outcome);
    assert.notEqual(new FinishGate().check(s, summary), undefined, `${s.outcome}: without the files, the names alone decide`);
  }
});
