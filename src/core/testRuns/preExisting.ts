/**
 * Which of a run's failing tests already failed before the run's first change (the baseline).
 * Names drift between runs of the same failure: node-tap names a timed-out file's failure after
 * whatever subtest was running when the timer fired ("test/bin/semver.js > cli runs > timeout!"
 * one run, "test/bin/semver.js" the next), runners print durations, attempt counters and ids in
 * names. So a failure is matched by a stable key (its test file and its name without timings,
 * bracketed numbers and ids), and when that differs, by its file: a failure in a test file that
 * already failed before the run is not the run's doing by its name alone
 * (test/unit/testRuns/preExisting.test.ts).
 */
import type { TestRunReport } from './report';

export interface FailureClasses {
  /** Failures the run introduced: neither their key nor their file failed before the run. */
  fresh: string[];
  /** The same failure as before the run (same file and name, timings and ids aside). */
  preExisting: string[];
  /** A differently named failure in a test file that already failed before the run. */
  inFailedFile: string[];
}

/** A test's name without what changes from run to run: durations, bracketed numbers, ids, spacing and case. */
export function normalisedTestName(name: string): string {
  return name
    .replace(/#\s*time=\S+/gi, ' ')
    .replace(/[([]\s*\d+(?:\.\d+)?\s*(?:ms|s|sec|seconds?|m|min)?\s*[)\]]/gi, ' ')
    .replace(/\b\d+(?:\.\d+)?\s*(?:ms|s|sec|seconds?)\b/gi, ' ')
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, ' ')
    .replace(/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}\b/gi, ' ')
    .replace(/(?:pid|id|port|seed)[=: ]\s*\d+/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** The key a failure is matched by across runs: its file (when the runner said it) and its normalised name. */
export function stableFailureKey(name: string, file: string | undefined): string {
  return `${file ? normalisedPath(file) : ''}::${normalisedTestName(name)}`;
}

/** Sorts the failures of `current` against the baseline's; without a baseline every failure is fresh. */
export function classifyFailures(current: TestRunReport, baseline: TestRunReport | undefined): FailureClasses {
  const classes: FailureClasses = { fresh: [], preExisting: [], inFailedFile: [] };
  const keys = new Set((baseline?.failing ?? []).map((n) => stableFailureKey(n, fileOfFailure(baseline!, n))));
  const files = new Set((baseline?.failing ?? []).map((n) => fileOfFailure(baseline!, n)).filter((f): f is string => !!f));
  for (const name of current.failing) {
    const file = fileOfFailure(current, name);
    if (keys.has(stableFailureKey(name, file))) classes.preExisting.push(name);
    else if (file && files.has(file)) classes.inFailedFile.push(name);
    else classes.fresh.push(name);
  }
  return classes;
}

/** The test file a failure was reported in: as the runner said, else the file its name starts with (node-tap, jest). */
export function fileOfFailure(report: Pick<TestRunReport, 'failingFiles'>, name: string): string | undefined {
  const said = report.failingFiles?.[name];
  if (said) return normalisedPath(said);
  const head = name.split(/::| > | › /)[0]!.trim();
  return /\.(?:[cm]?[jt]sx?|py|t|rb|go|rs)$/.test(head) ? normalisedPath(head) : undefined;
}

function normalisedPath(file: string): string {
  return file.replace(/\\/g, '/').replace(/^\.\//, '');
}
