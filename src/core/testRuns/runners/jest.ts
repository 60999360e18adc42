import { addFailure, brief, countOf, optional, sumOf, type TestFailure, type TestSummary } from './types';

/**
 * Jest: `● suite › test` blocks with the matcher's Expected/Received lines, `FAIL path` naming the
 * file they are in, and the `Tests: 2 failed, 1 skipped, 1 passed, 4 total` line.
 */
export function jest(text: string, lines: readonly string[]): TestSummary | undefined {
  // A chained `npm test` (`TZ=... jest a && TZ=... jest b && jest`) prints one summary a run: the counts are their sum.
  const totals = [...text.matchAll(/^Tests:\s+(.*\btotal)$/gm)].map((m) => m[1]!);
  if (!totals.length) return undefined;
  const failures: TestFailure[] = [];
  let file: string | undefined;
  let suitesUnrun = 0;
  for (let i = 0; i < lines.length; i++) {
    const fileLine = /^FAIL (\S+)/.exec(lines[i]!);
    if (fileLine) file = fileLine[1];
    const m = /^\s*● (.+)$/.exec(lines[i]!);
    if (!m || /^Console$/.test(m[1]!.trim())) continue;
    // A file that could not load (a syntax error, a missing module): no test ran, the file is the failure.
    if (/^Test suite failed to run$/.test(m[1]!.trim())) {
      if (file) addFailure(failures, { name: file, message: brief(frameless(lines, i + 1), 3), file, line: i });
      suitesUnrun++;
      continue;
    }
    addFailure(failures, { name: m[1]!.trim(), message: matcherLines(lines, i + 1) ?? brief(frameless(lines, i + 1), 7), ...(file ? { file } : {}), line: i });
  }
  const total = (re: RegExp) => sumOf(...totals.map((t) => countOf(t, re)));
  return {
    framework: 'jest',
    passed: total(/(\d+) passed/) ?? 0,
    failed: (total(/(\d+) failed/) ?? 0) + suitesUnrun,
    ...optional('skipped', total(/(\d+) skipped/)),
    // Said with the counts: each run prints its own `Tests:` line, which would not match a sum given bare.
    ...(totals.length > 1 ? { runs: totals.length } : {}),
    failures,
  };
}

/** The lines of a block up to its code frame or stack: the error a matcher did not word (a thrown message, a load error). */
function frameless(lines: readonly string[], from: number): string[] {
  const kept: string[] = [];
  for (let i = from; i < Math.min(lines.length, from + 12); i++) {
    const line = lines[i]!.trim();
    if (/^\s*● /.test(lines[i]!) || /^>?\s*\d+ \|/.test(line) || /^at /.test(line)) break;
    if (line) kept.push(line);
  }
  return kept;
}

/**
 * The matcher line and its values, up to the code frame: `Expected: 3` / `Received: 2`, a diff's
 * -/+ lines, and older jest's (22) `Expected value to be:` / `Received:` whose values are the
 * indented lines below the label.
 */
function matcherLines(lines: readonly string[], from: number): string | undefined {
  const kept: string[] = [];
  let underLabel = false;
  for (let i = from; i < Math.min(lines.length, from + 30); i++) {
    const line = lines[i]!.trim();
    if (/^\s*● /.test(lines[i]!) || /^>?\s*\d+ \|/.test(line) || /^at /.test(line)) break;
    const matcher = /^(expect\(|Expected|Received|[-+] |\w*Error\b|thrown:)/.test(line) && !/^[-+] (Expected|Received)\s+[-+] \d+$/.test(line);
    if (matcher) kept.push(line);
    else if (underLabel && line) kept.push(`  ${line}`);
    // A label ending in a colon (`Expected value to be:`) has its value on the lines below, until a blank line.
    underLabel = matcher ? /^(Expected|Received)\b.*:$/.test(line) : underLabel && !!line;
  }
  return brief(kept, 7);
}
