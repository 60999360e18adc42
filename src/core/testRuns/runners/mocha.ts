import { loadErrors } from './loadError';
import { addFailure, brief, type TestFailure, type TestSummary } from './types';

/**
 * Mocha's spec reporter: `N passing`, `N pending`, `N failing`, then numbered failures, each the
 * suite and test names on indented lines ending in `:`, the error, and its `+ expected - actual` diff.
 */
export function mocha(text: string, lines: readonly string[]): TestSummary | undefined {
  const passing = /^\s*(\d+) passing\b/m.exec(text);
  if (!passing) return loadFailure(text, lines);
  const failing = /^\s*(\d+) failing\b/m.exec(text);
  const pending = /^\s*(\d+) pending\b/m.exec(text);
  const failures: TestFailure[] = [];
  const start = failing ? lines.findIndex((l) => /^\s*\d+ failing\b/.test(l)) : -1;
  for (let i = start < 0 ? lines.length : start + 1; i < lines.length; i++) {
    const m = /^\s{1,4}(\d+)\) (.+)$/.exec(lines[i]!);
    if (!m) continue;
    const parts = [m[2]!.trim().replace(/:$/, '')];
    let j = i + 1;
    while (j < lines.length && /^\s+\S.*:$/.test(lines[j]!) && !/Error/.test(lines[j]!)) parts.push(lines[j++]!.trim().replace(/:$/, ''));
    const file = /\(([^()]+\.[cm]?[jt]sx?):\d+:\d+\)/.exec(lines.slice(j, j + 30).join('\n'))?.[1];
    addFailure(failures, { name: parts.join(' '), message: errorLines(lines, j), ...(file ? { file } : {}), line: i });
  }
  return {
    framework: 'mocha',
    passed: Number(passing[1]),
    failed: failing ? Number(failing[1]) : 0,
    ...(pending ? { skipped: Number(pending[1]) } : {}),
    failures,
  };
}

/** The error and the values it compared, up to the stack. */
function errorLines(lines: readonly string[], from: number): string | undefined {
  const kept: string[] = [];
  for (let i = from; i < Math.min(lines.length, from + 20); i++) {
    const line = lines[i]!.trim();
    if (/^at /.test(line) || /^\s{1,4}\d+\) /.test(lines[i]!)) break;
    if (line && !/^\+ expected - actual$/.test(line)) kept.push(line);
  }
  return brief(kept, 5);
}

/** mocha's `Exception during run:` a test file could not load: no test ran, the file is the failure. */
function loadFailure(text: string, lines: readonly string[]): TestSummary | undefined {
  if (!/^\s*Exception during run: /m.test(text)) return undefined;
  const failures = loadErrors(lines);
  return failures.length ? { framework: 'mocha', passed: 0, failed: failures.length, failures } : undefined;
}
