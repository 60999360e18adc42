import { addFailure, type TestFailure } from './types';

/**
 * A test file node could not load: a syntax error (`/abs/broken.test.js:3`, the code, a caret, then
 * `SyntaxError: Unexpected token ';'`) or a missing module (`Error: Cannot find module './x'` and its
 * `Require stack:`, whose first entry is the file that asked). The run ends before any test, so no
 * runner names a test: the failure is the file, with the error line. mocha prefixes it with
 * `Exception during run: `; jasmine, tape and uvu print node's own report.
 */
export function loadErrors(lines: readonly string[]): TestFailure[] {
  const failures: TestFailure[] = [];
  for (let i = 0; i < lines.length; i++) {
    const at = /^(?:\s*Exception during run: )?(\S+\.[cm]?[jt]sx?):\d+$/.exec(lines[i]!);
    if (at) {
      const errorAt = lines.slice(i + 1, i + 8).findIndex((l) => /^\w*Error: \S/.test(l));
      if (errorAt >= 0)
        addFailure(failures, { name: at[1]!, message: `${lines[i + 1 + errorAt]!.trim()} (${lines[i]!.trim().split('/').pop()})`, file: at[1]!, line: i });
      continue;
    }
    const missing = /^(?:\s*Exception during run: )?\s*(Error: Cannot find module '[^']+')/.exec(lines[i]!);
    if (!missing) continue;
    const stack = lines.slice(i + 1, i + 4).findIndex((l) => /^\s*Require stack:$/.test(l));
    const file = stack >= 0 ? /^\s*- (\S+)$/.exec(lines[i + 2 + stack] ?? '')?.[1] : undefined;
    if (file) addFailure(failures, { name: file, message: missing[1]!, file, line: i });
  }
  return failures;
}
