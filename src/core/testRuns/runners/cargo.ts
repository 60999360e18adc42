import { addFailure, brief, type TestFailure, type TestSummary } from './types';

/**
 * cargo test (libtest): `---- path::test stdout ----` sections with the panic and its values
 * (`left: 4` / `right: 5`), and one `test result:` line per test binary, summed.
 */
export function cargo(text: string, lines: readonly string[]): TestSummary | undefined {
  const results = [...text.matchAll(/^test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored;/gm)];
  if (results.length === 0) return undefined;
  const failures: TestFailure[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^---- (\S+) stdout ----$/.exec(lines[i]!);
    if (!m) continue;
    const kept: string[] = [];
    for (let j = i + 1; j < Math.min(lines.length, i + 20); j++) {
      const line = lines[j]!;
      if (/^stack backtrace:|^note: |^---- /.test(line) || /^failures:$/.test(line)) break;
      kept.push(line.replace(/^thread '.*?' (\(\d+\) )?panicked at /, 'panicked at '));
    }
    addFailure(failures, { name: m[1]!, message: brief(kept, 5), line: i });
  }
  const total = (k: number) => results.reduce((n, r) => n + Number(r[k]), 0);
  return { framework: 'cargo', passed: total(1), failed: total(2), skipped: total(3), failures };
}
