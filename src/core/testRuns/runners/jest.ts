import { addFailure, brief, countOf, type TestFailure, type TestSummary, optional } from './types';

/**
 * Jest: `● suite › test` blocks with the matcher's Expected/Received lines, `FAIL path` naming the
 * file they are in, and the `Tests: 2 failed, 1 skipped, 1 passed, 4 total` line.
 */
export function jest(text: string, lines: readonly string[]): TestSummary | undefined {
  const totals = /^Tests:\s+(.*\btotal)$/m.exec(text);
  if (!totals) return undefined;
  const failures: TestFailure[] = [];
  let file: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const fileLine = /^FAIL (\S+)/.exec(lines[i]!);
    if (fileLine) file = fileLine[1];
    const m = /^\s*● (.+)$/.exec(lines[i]!);
    if (!m || /^Console$|^Test suite failed to run$/.test(m[1]!.trim())) continue;
    addFailure(failures, { name: m[1]!.trim(), message: matcherLines(lines, i + 1), ...(file ? { file } : {}), line: i });
  }
  return {
    framework: 'jest',
    passed: countOf(totals[1], /(\d+) passed/) ?? 0,
    failed: countOf(totals[1], /(\d+) failed/) ?? 0,
    ...optional('skipped', countOf(totals[1], /(\d+) skipped/)),
    failures,
  };
}

/** The matcher line and its values (`Expected: 3`, `Received: 2`, a diff's -/+ lines), up to the code frame. */
function matcherLines(lines: readonly string[], from: number): string | undefined {
  const kept: string[] = [];
  for (let i = from; i < Math.min(lines.length, from + 30); i++) {
    const line = lines[i]!.trim();
    if (/^\s*● /.test(lines[i]!) || /^>?\s*\d+ \|/.test(line) || /^at /.test(line)) break;
    if (/^(expect\(|Expected|Received|[-+] |\w*Error\b|thrown:)/.test(line) && !/^[-+] (Expected|Received)\s+[-+] \d+$/.test(line)) kept.push(line);
  }
  return brief(kept, 5);
}
