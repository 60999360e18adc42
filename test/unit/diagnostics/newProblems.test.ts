import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_REPORTED_PROBLEMS, formatNewProblems, newProblems } from '../../../src/core/diagnostics/newProblems';
import { describeCheck, linesNaming } from '../../../src/core/tools/checkCommands';
import type { FileProblem } from '../../../src/core/ports';

const p = (path: string, line: number, message: string, severity: FileProblem['severity'] = 'error'): FileProblem => ({
  path,
  line,
  column: 1,
  severity,
  message,
  source: 'ts',
});

describe('new problems after an edit', () => {
  test('only problems that were not there before, in the edited files; a moved line is the same problem', () => {
    const before = [p('a.ts', 3, 'old warning', 'warning'), p('a.ts', 9, 'dup')];
    const after = [p('a.ts', 5, 'old warning', 'warning'), p('a.ts', 9, 'dup'), p('a.ts', 12, 'dup'), p('a.ts', 1, 'new error'), p('b.ts', 1, 'elsewhere')];
    assert.deepEqual(newProblems(before, after, ['a.ts']), [p('a.ts', 12, 'dup'), p('a.ts', 1, 'new error')]);
  });

  test('the text sorts by file and line, counts errors and warnings, and caps the list', () => {
    const text = formatNewProblems([p('b.ts', 2, 'x', 'warning'), p('a.ts', 7, "Cannot find name 'y'.")])!;
    assert.equal(text, "new problems in the files you edited (1 error, 1 warning):\na.ts:7:1: error: Cannot find name 'y'. [ts]\nb.ts:2:1: warning: x [ts]");
    assert.equal(formatNewProblems([]), undefined);
    const many = Array.from({ length: MAX_REPORTED_PROBLEMS + 3 }, (_, i) => p('a.ts', i + 1, `e${i}`));
    assert.match(formatNewProblems(many)!, /\n\.\.\. and 3 more$/);
  });
});

describe('check commands after an edit', () => {
  const out = 'src/a.ts(3,5): error TS2304: Cannot find name y.\nsrc/other.ts(1,1): error TS1: unrelated.\nFound 2 errors.\n';

  test('only the lines naming the edited files reach the model', () => {
    assert.deepEqual(linesNaming(out, ['src/a.ts']), ['src/a.ts(3,5): error TS2304: Cannot find name y.']);
    const text = describeCheck('tsc --noEmit', 2, false, out, ['src/a.ts']);
    assert.equal(text, '$ tsc --noEmit\nexit 2; lines naming the files you edited:\nsrc/a.ts(3,5): error TS2304: Cannot find name y.');
  });

  test('a failure that names no edited file shows the output; a pass says so in one line', () => {
    assert.match(describeCheck('ruff check .', 1, false, 'config error\n', ['a.py']), /exit 1; no line names the files you edited, output:\nconfig error$/);
    assert.equal(describeCheck('ruff check .', 0, false, 'All checks passed!\n', ['a.py']), '$ ruff check .\nexit 0; nothing about the files you edited');
  });
});
