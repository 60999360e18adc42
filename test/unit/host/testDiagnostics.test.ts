import { test } from 'node:test';
import assert from 'node:assert/strict';
import { locateFailures } from '../../../src/host/vscode/tests/testDiagnosticsLogic';

test('failures get the first workspace location printed after their name', () => {
  const output = [
    'not ok 1 - adds numbers',
    '  ---',
    "  error: 'Expected values to be strictly equal'",
    '  stack: |-',
    '    TestContext.<anonymous> (/ws/test/sum.test.js:7:10)',
    '    node:internal/test_runner/test:1:1',
    'not ok 2 - node_modules only',
    '    at x (/ws/node_modules/lib/a.js:1:1)',
    'FAILED tests/test_a.py::test_b - assert 1 == 2',
    'tests/test_a.py:12: AssertionError',
  ].join('\n');
  const problems = locateFailures(
    output,
    { failures: [{ name: 'adds numbers', message: 'Expected' }, { name: 'node_modules only' }, { name: 'tests/test_a.py::test_b' }] },
    '/ws',
  );
  assert.deepEqual(problems, [
    { path: 'test/sum.test.js', line: 7, column: 10, message: 'adds numbers: Expected' },
    { path: 'tests/test_a.py', line: 12, column: 1, message: 'tests/test_a.py::test_b' },
  ]);
});
