import { loadErrors } from './loadError';
import { addFailure, brief, type TestFailure, type TestSummary } from './types';

/**
 * A line that reports a failure in any runner's words: TAP's `not ok`, `FAIL`/`FAILED`/`ERROR`
 * markers, jest's ●, the ✖ ✕ × of spec reporters, exceptions and tracebacks, Rust panics, pytest's
 * `E` lines, and counts of failures other than zero.
 */
export const FAILURE_LINE =
  /^\s*(not ok\b|FAIL(ED|URE)?\b|ERROR\b|● |[✖✕×] |E {2,}\S|---- \S+ stdout ----|--- FAIL)|Traceback \(most recent call last\)|\b\w*(Error|Exception)\b(:|\s\[)|panicked at|\b[1-9]\d* (failed|failing|errors?)\b|Failed test/;

/**
 * Output no runner parser knows: the failing tests a `FAIL name` / `FAILED name` / `ERROR name`
 * line names, and the first error line after each. No counts: they would be guesses.
 */
export function generic(_text: string, lines: readonly string[]): TestSummary | undefined {
  const failures: TestFailure[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^\s*(?:FAIL(?:ED)?|ERROR)[:\s]+(\S.{0,200}?)\s*$/.exec(lines[i]!);
    if (!m || /^\(|^\d+ |tests? (failed|passed)/i.test(m[1]!)) continue;
    const next = lines.slice(i + 1, i + 8).find((l) => /(Error|Exception|assert|expected)/i.test(l));
    addFailure(failures, { name: m[1]!, message: brief(next ? [next.trim()] : []), line: i });
  }
  // No runner's words at all: a test file that could not load, as node reports it.
  if (!failures.length) for (const f of loadErrors(lines)) addFailure(failures, f);
  return failures.length ? { failures } : undefined;
}
