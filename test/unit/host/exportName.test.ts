import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exportFileName } from '../../../src/host/vscode/history/exportName';

test("a run's export is named by its day and its goal in words", () => {
  const at = Date.UTC(2026, 10, 28, 9);
  assert.equal(exportFileName('Fix the date parser', at, 'md'), 'patchpilot-2026-11-28-fix-the-date-parser.md');
  assert.equal(exportFileName('Réparer «le» test #12!', at, 'json'), 'patchpilot-2026-11-28-reparer-le-test-12.json');
  assert.equal(exportFileName('???', at, 'md'), 'patchpilot-2026-11-28-run.md');
  const long = exportFileName('make every function in the parser module handle empty input gracefully', at, 'md');
  assert.equal(long, 'patchpilot-2026-11-28-make-every-function-in-the-parser-module-handle.md');
});
