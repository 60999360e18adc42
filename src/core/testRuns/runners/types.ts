/**
 * What one runner's output says, in one shape for every runner: counts, and each failing test with
 * the lines that explain it (an assertion's values, the exception) and where in the output it is.
 */
/** TAP comes from three runners that narrow differently: node-tap (`tap`, which filters by name), tape and Perl's prove (which do not). */
export type TestFramework =
  'node' | 'tap' | 'tape' | 'prove' | 'jest' | 'jasmine' | 'ava' | 'vitest' | 'mocha' | 'pytest' | 'unittest' | 'go' | 'cargo' | 'junit';

export interface TestFailure {
  /** As the runner names it ("tests/test_calc.py::test_add", "suite > adds", "tests::adds_wrong"). */
  name: string;
  /** What explains it: the assertion with its values, the exception; a few lines at most. */
  message?: string;
  /** The test file, when the runner says it (the rerun of a flaky test and the narrowing use it). */
  file?: string;
  /** Index of the output line where the failure's report starts (the excerpt keeps it). */
  line?: number;
  /** Not an assertion: what ended the test's process, in a few words ("timed out after 30 s: tap's per-file time limit"). */
  endedBy?: string;
}

export interface TestSummary {
  framework?: TestFramework;
  passed?: number;
  failed?: number;
  skipped?: number;
  /** passed/failed/skipped count test files, not tests (node-tap reports each file as one top-level result). */
  countsFiles?: boolean;
  /** Subtests that did not finish because their file's run was ended (tap's timeout, a crash). */
  unfinished?: number;
  /** The counts are the sum of this many runs of the runner (a chained script: `TZ=a jest && TZ=b jest && jest`). */
  runs?: number;
  failures: TestFailure[];
}

/** One runner family's reader: undefined when the output is not that runner's. */
export type RunnerParser = (text: string, lines: readonly string[]) => TestSummary | undefined;

/** More failing tests than this are counted, not listed (the model fixes the first ones first). */
export const MAX_FAILURES = 30;

export function addFailure(failures: TestFailure[], failure: TestFailure): void {
  // The same test name in two files (`group > same name` in a.test.js and b.test.js) is two failures;
  // a name reported twice, once with its file and once without (prove's comment and its `not ok`), is one.
  const same = (f: TestFailure) => f.name === failure.name && (f.file === failure.file || !f.file || !failure.file);
  if (failures.length >= MAX_FAILURES || failures.some(same)) return;
  const clean: TestFailure = { name: failure.name };
  if (failure.message) clean.message = failure.message;
  if (failure.file) clean.file = failure.file;
  if (failure.line !== undefined) clean.line = failure.line;
  if (failure.endedBy) clean.endedBy = failure.endedBy;
  failures.push(clean);
}

export function countOf(text: string | undefined, re: RegExp): number | undefined {
  const m = text ? re.exec(text) : null;
  return m ? Number(m[1]) : undefined;
}

export function sumOf(...values: (number | undefined)[]): number | undefined {
  return values.every((v) => v === undefined) ? undefined : values.reduce<number>((a, v) => a + (v ?? 0), 0);
}

/** A message of a few lines, each line and the whole kept short enough for a summary. */
export function brief(messageLines: readonly string[], maxLines = 4): string | undefined {
  const kept = messageLines
    .map((l) => l.trimEnd())
    .filter((l) => l.trim())
    .slice(0, maxLines)
    .map((l) => (l.length > 240 ? `${l.slice(0, 237)}...` : l));
  return kept.length ? kept.join('\n') : undefined;
}

/** The first line that reads like an error message, within a few lines after a failure's name. */
export function firstMessage(lines: readonly string[], from: number, within = 12): string | undefined {
  for (let i = from; i < Math.min(lines.length, from + within); i++) {
    const line = lines[i]!.trim();
    if (/(Error|Expected|expect\(|assert|Exception|panicked)/.test(line) && !/^at /.test(line)) return brief([line]);
  }
  return undefined;
}

/** `{ key: value }` when the value is known, else nothing (summaries have no keys set to undefined). */
export function optional<K extends string>(key: K, value: number | undefined): Partial<Record<K, number>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, number>);
}
