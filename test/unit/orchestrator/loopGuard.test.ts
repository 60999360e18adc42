// The loop guard (loopGuard.ts) and the finish gate (finishGate.ts), as plain objects.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RepeatedFailures, canonicalArguments } from '../../../src/core/orchestrator/loopGuard';
import { FINISH_REFUSED, FinishGate } from '../../../src/core/orchestrator/finishGate';
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
  test('refused once per failure state; a second finish in the same state stands', () => {
    const tests = new TestsAfterLastChange();
    const gate = new FinishGate();
    assert.equal(gate.check(tests), undefined, 'no tests ran: the finish stands');
    tests.ran(false);
    assert.equal(gate.check(tests), FINISH_REFUSED);
    assert.equal(gate.check(tests), undefined, 'nothing changed since: finished, tests failing');
    tests.changed();
    tests.ran(false);
    assert.equal(gate.check(tests), FINISH_REFUSED, 'a new failure state: refused again');
    tests.ran(true);
    assert.equal(gate.check(tests), undefined);
  });

  test('at most a few refusals in a run', () => {
    const tests = new TestsAfterLastChange();
    const gate = new FinishGate(2);
    const refusals = [1, 2, 3, 4].map(() => {
      tests.ran(false);
      return gate.check(tests) !== undefined;
    });
    assert.deepEqual(refusals, [true, true, false, false]);
  });
});
