import { addFailure, brief, countOf, type TestFailure, type TestSummary, optional } from './types';

/**
 * Vitest: ` FAIL  file > suite > test` headers followed by the assertion (`AssertionError: expected
 * 2 to be 3`) and its diff, and the `Tests  2 failed | 1 passed | 1 skipped (4)` line.
 */
export function vitest(text: string, lines: readonly string[]): TestSummary | undefined {
  // `Tests  no tests` when every file failed to load or held none.
  const totals = /^\s*Tests\s+(.*\(\d+\)|no tests)\s*$/m.exec(text);
  if (!totals || !/^\s*Test Files\s+/m.test(text)) return undefined;
  const failures: TestFailure[] = [];
  let suitesUnrun = 0;
  for (let i = 0; i < lines.length; i++) {
    // ` FAIL  broken.test.mjs [ broken.test.mjs ]`: a file that could not load (or holds no test); the file is the failure.
    const suite = /^\s*FAIL\s+(\S+) \[ \S+ \]$/.exec(lines[i]!);
    if (suite) {
      addFailure(failures, { name: suite[1]!, message: assertionLines(lines, i + 1), file: suite[1], line: i });
      suitesUnrun++;
    }
    const m = /^\s*FAIL\s+(\S+?) > (.+)$/.exec(lines[i]!);
    if (!m) continue;
    addFailure(failures, { name: `${m[1]} > ${m[2]!.trim()}`, message: assertionLines(lines, i + 1), file: m[1], line: i });
  }
  return {
    framework: 'vitest',
    passed: countOf(totals[1], /(\d+) passed/) ?? 0,
    failed: (countOf(totals[1], /(\d+) failed/) ?? 0) + suitesUnrun,
    ...optional('skipped', countOf(totals[1], /(\d+) skipped/)),
    failures,
  };
}

function assertionLines(lines: readonly string[], from: number): string | undefined {
  const kept: string[] = [];
  for (let i = from; i < Math.min(lines.length, from + 20); i++) {
    const line = lines[i]!.trim();
    if (/^❯ /.test(line) || /^⎯/.test(line) || /^\s*FAIL\s/.test(lines[i]!)) break;
    if (line && !/^[-+] (Expected|Received)$/.test(line)) kept.push(line);
  }
  return brief(kept, 5);
}
