import { addFailure, brief, type TestFailure, type TestSummary } from './types';

/**
 * go test: `--- FAIL: TestName (0.00s)` with the `file_test.go:12: message` lines under it, and
 * `FAIL pkg` / `ok pkg` per package. Counts come from `-v`'s PASS/FAIL/SKIP lines when present.
 */
export function goTest(text: string, lines: readonly string[]): TestSummary | undefined {
  if (!/^(ok|FAIL|---)\s+\S/m.test(text) || !/^(--- (FAIL|PASS|SKIP): \w+|ok\s+\S+\s+[\d.]+s|FAIL\s+\S+\s+[\d.]+s)/m.test(text)) return undefined;
  const failures: TestFailure[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\s*)--- FAIL: (\S+) \(/.exec(lines[i]!);
    if (!m) continue;
    const kept: string[] = [];
    let file: string | undefined;
    for (let j = i + 1; j < lines.length && /^\s{4,}\S/.test(lines[j]!) && !/^\s*--- /.test(lines[j]!); j++) {
      kept.push(lines[j]!.trim());
      file ??= /^\s*(\w+_test\.go):\d+:/.exec(lines[j]!)?.[1];
    }
    addFailure(failures, { name: m[2]!, message: brief(kept, 5), ...(file ? { file } : {}), line: i });
  }
  const count = (word: string) => (text.match(new RegExp(`^\\s*--- ${word}: `, 'gm')) ?? []).length;
  const verbose = /^=== RUN/m.test(text);
  return {
    framework: 'go',
    ...(verbose ? { passed: count('PASS'), skipped: count('SKIP') } : {}),
    failed: count('FAIL'),
    failures,
  };
}
