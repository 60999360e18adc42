import { addFailure, brief, type TestFailure, type TestSummary } from './types';

/**
 * Jasmine: `3 specs, 1 failure, 2 pending specs`, and under `Failures:` each `1) suite spec` with
 * its `Message:` lines (`Expected 42 to be 41.`) and `Stack:` naming the spec file.
 */
export function jasmine(text: string, lines: readonly string[]): TestSummary | undefined {
  const totals = /^(\d+) specs?, (\d+) failures?(?:, (\d+) pending specs?)?$/m.exec(text);
  if (!totals) return undefined;
  const failures: TestFailure[] = [];
  const start = lines.findIndex((l) => /^Failures:$/.test(l));
  for (let i = start < 0 ? lines.length : start + 1; i < lines.length; i++) {
    if (/^Pending:$/.test(lines[i]!) || totals[0] === lines[i]) break;
    const m = /^\d+\) (.+)$/.exec(lines[i]!);
    if (!m) continue;
    const { message, end } = messageOf(lines, i + 1);
    const file = /\(([^()]+\.[cm]?[jt]sx?):\d+:\d+\)/.exec(lines.slice(end, end + 8).join('\n'))?.[1];
    addFailure(failures, { name: m[1]!.trim(), message, ...(file ? { file } : {}), line: i });
  }
  const specs = Number(totals[1]);
  const failed = Number(totals[2]);
  const pending = totals[3] ? Number(totals[3]) : 0;
  return { framework: 'jasmine', passed: specs - failed - pending, failed, ...(pending ? { skipped: pending } : {}), failures };
}

/** The lines under `Message:` up to `Stack:`; a thrown `undefined` has none, said so. */
function messageOf(lines: readonly string[], from: number): { message: string; end: number } {
  const kept: string[] = [];
  let i = from;
  if (/^\s*Message:$/.test(lines[i] ?? '')) i++;
  for (; i < Math.min(lines.length, from + 60) && !/^\s*Stack:$/.test(lines[i]!) && !/^\d+\) /.test(lines[i]!); i++) kept.push(lines[i]!.replace(/^ {4}/, ''));
  return { message: brief(kept, 6) ?? '(no message: a thrown undefined or empty error)', end: i };
}
