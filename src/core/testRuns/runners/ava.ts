import { addFailure, brief, countOf, sumOf, type TestFailure, type TestSummary } from './types';

/**
 * AVA: `✔ title` / `✘ [fail]: title message` per test, `1 test failed` / `1 test skipped` /
 * `1 test todo` at the end, and after a `─` rule each failure's title, its `file.js:3` line, the
 * code, and the `Difference (- actual, + expected):` values.
 */
export function ava(text: string, lines: readonly string[]): TestSummary | undefined {
  const failedTitles = lines.flatMap((l) => /^\s*✘ \[fail\]: (.+)$/.exec(l)?.[1] ?? []);
  const done = /^\s*\d+ (tests? (failed|passed)|uncaught exceptions?)$/m.test(text);
  if (!done || !/^\s*─$/m.test(text)) return undefined;
  const failures: TestFailure[] = [];
  for (let i = 0; i < lines.length; i++) {
    const title = /^ {2}(\S.*)$/.exec(lines[i]!)?.[1];
    // A failure's block starts with its bare title, after a blank line; the ✘ line gave it with its message.
    if (!title || lines[i - 1]?.trim() || !failedTitles.some((t) => t === title || t.startsWith(`${title} `))) continue;
    const block: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !/^\s*─$/.test(lines[j]!) && !isNextTitle(lines, j, failedTitles); j++) block.push(lines[j]!);
    const file = block.map((l) => /^\s*(?:› )?([\w./-]+\.[cm]?[jt]sx?):\d+/.exec(l)?.[1]).find(Boolean);
    const message = block.filter((l) => l.trim() && !/^\s*(›|\d+: |at |[\w./-]+\.[cm]?[jt]sx?:\d+)/.test(l) && !/^\s*Error$/.test(l));
    addFailure(failures, {
      name: title,
      message: brief(
        message.map((l) => l.replace(/^ {2}/, '')),
        6,
      ),
      ...(file ? { file } : {}),
      line: i,
    });
    i = j - 1;
  }
  for (const f of uncaught(lines)) addFailure(failures, f);
  const failed = countOf(text, /^\s*(\d+) tests? failed$/m) ?? 0;
  const passed = countOf(text, /^\s*(\d+) tests? passed$/m) ?? lines.filter((l) => /^\s*✔ /.test(l)).length;
  const skipped = sumOf(countOf(text, /^\s*(\d+) tests? skipped$/m), countOf(text, /^\s*(\d+) tests? todo$/m));
  return { framework: 'ava', passed, failed: Math.max(failed, failures.length), ...(skipped ? { skipped } : {}), failures };
}

function isNextTitle(lines: readonly string[], at: number, titles: readonly string[]): boolean {
  const title = /^ {2}(\S.*)$/.exec(lines[at]!)?.[1];
  return !!title && !lines[at - 1]?.trim() && titles.some((t) => t === title || t.startsWith(`${title} `));
}

/** `Uncaught exception in broken.test.js` and its error line: a file that could not load (or threw outside a test) is the failure. */
function uncaught(lines: readonly string[]): TestFailure[] {
  const found: TestFailure[] = [];
  for (let i = 0; i < lines.length; i++) {
    const file = /^\s*Uncaught exception in (\S+)$/.exec(lines[i]!)?.[1];
    if (!file) continue;
    const error = lines.slice(i + 1, i + 14).find((l) => /^\s*\w*Error: \S/.test(l));
    found.push({ name: file, message: error?.trim() ?? 'uncaught exception', file, line: i });
  }
  return found;
}
