import { addFailure, brief, type TestFailure, type TestSummary } from './types';

/**
 * node's test runner with its spec reporter: `✖ name (1ms)` then the error indented below it, the
 * `▶ suite` lines, and `ℹ pass 1` / `ℹ fail 2` / `ℹ skipped 1` at the end. A suite's own ✖ is
 * left out: it fails because a child did, and the child is listed.
 */
export function nodeSpec(text: string, lines: readonly string[]): TestSummary | undefined {
  const pass = /^ℹ pass (\d+)$/m.exec(text);
  if (!pass) return undefined;
  const suites = new Set(lines.map((l) => /^\s*▶ (.+)$/.exec(l)?.[1]).filter((n): n is string => !!n));
  const failures: TestFailure[] = [];
  const chain: { indent: number; name: string }[] = [];
  for (let i = 0; i < specEnd(lines); i++) {
    const line = lines[i]!;
    const suite = /^(\s*)▶ (.+)$/.exec(line);
    if (suite) {
      while (chain.length && chain[chain.length - 1]!.indent >= suite[1]!.length) chain.pop();
      chain.push({ indent: suite[1]!.length, name: suite[2]! });
      continue;
    }
    const m = /^(\s*)✖ (.+?)(?: \([\d.]+m?s\))?$/.exec(line);
    if (!m || suites.has(m[2]!)) continue;
    const names = [...chain.filter((c) => c.indent < m[1]!.length).map((c) => c.name), m[2]!];
    const file = /\(([^()]+\.[cm]?[jt]sx?):\d+:\d+\)/.exec(lines.slice(i + 1, i + 12).join('\n'))?.[1];
    addFailure(failures, { name: names.join(' > '), message: errorLines(lines, i + 1), ...(file ? { file } : {}), line: i });
  }
  return {
    framework: 'node',
    passed: Number(pass[1]),
    // A test ended by its timeout is `cancelled`, not `fail`: it failed all the same.
    failed: Number(/^ℹ fail (\d+)$/m.exec(text)?.[1] ?? failures.length) + Number(/^ℹ cancelled (\d+)$/m.exec(text)?.[1] ?? 0),
    ...(/^ℹ skipped (\d+)$/m.test(text) ? { skipped: Number(/^ℹ skipped (\d+)$/m.exec(text)![1]) } : {}),
    failures,
  };
}

/**
 * Where the runner's own report of each test ends: its `✖ failing tests:` recap, or its last line
 * (`ℹ duration_ms`). A step after it (a posttest eslint's `✖ 1 problem (1 error, 0 warnings)`) is no test.
 */
function specEnd(lines: readonly string[]): number {
  const recap = lines.findIndex((l) => /^✖ failing tests:$/.test(l));
  if (recap >= 0) return recap;
  for (let i = lines.length - 1; i >= 0; i--) if (/^ℹ duration_ms /.test(lines[i]!)) return i + 1;
  return lines.length;
}

/** The error and the values it compared (node's assert diff), up to its stack. */
function errorLines(lines: readonly string[], from: number): string | undefined {
  const kept: string[] = [];
  for (let i = from; i < Math.min(lines.length, from + 20); i++) {
    const line = lines[i]!.trim();
    if (/^at /.test(line) || /^[✖✔﹣▶ℹ]/.test(line)) break;
    if (line && !/^\+ actual - expected$/.test(line)) kept.push(line);
  }
  return brief(kept, 5);
}
