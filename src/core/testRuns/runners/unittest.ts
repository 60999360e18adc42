import { addFailure, brief, countOf, sumOf, type TestFailure, type TestSummary } from './types';

/**
 * Python's unittest: `FAIL: test_x (module.Class.test_x)` blocks with a traceback whose last line is
 * the exception with its values, and `Ran N tests` then `FAILED (failures=1, errors=1, skipped=1)`.
 */
export function unittest(text: string, lines: readonly string[]): TestSummary | undefined {
  const ran = /^Ran (\d+) tests? in [\d.]+s$/m.exec(text);
  if (!ran) return undefined;
  const verdict = /^(OK|FAILED)(?: \((.*)\))?$/m.exec(text);
  const failures: TestFailure[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^(?:FAIL|ERROR): (\S+) \(([\w.]+)\)/.exec(lines[i]!);
    if (!m) continue;
    // The header, a line of dashes, the traceback up to the next line of `=` or `-`.
    const from = i + 2;
    let to = from;
    while (to < lines.length && !/^={10,}$|^-{10,}$/.test(lines[to]!)) to++;
    const block = lines.slice(from, to).filter((l) => l.trim());
    const file = block
      .map((l) => /^\s*File "([^"]+)"/.exec(l)?.[1])
      .filter(Boolean)
      .pop();
    const errorAt = block.findIndex((l) => /^\w[\w.]*(Error|Exception|Exit|Interrupt)\b|^\w+Error:/.test(l));
    addFailure(failures, { name: m[2]!, message: brief(errorAt >= 0 ? block.slice(errorAt) : block.slice(-1), 4), file, line: i });
  }
  const details = verdict?.[2];
  const failed = sumOf(countOf(details, /(?:^|, )failures=(\d+)/), countOf(details, /errors=(\d+)/), countOf(details, /unexpected successes=(\d+)/)) ?? 0;
  // An expected failure is counted like pytest's xfailed (with the skips); an unexpected success fails the run.
  const skipped = sumOf(countOf(details, /skipped=(\d+)/), countOf(details, /expected failures=(\d+)/));
  const total = Number(ran[1]);
  return { framework: 'unittest', passed: total - failed - (skipped ?? 0), failed, ...(skipped !== undefined ? { skipped } : {}), failures };
}
