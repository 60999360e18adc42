/**
 * Which of a run's failing tests already failed before the run's first change (the baseline).
 * Names drift between runs of the same failure: a timer cuts whatever subtest was running when it
 * fired (node-tap's file timer is folded into one failure named by the file, runners/tapFiles.ts;
 * other timers still name the subtest), runners print durations, attempt counters and ids in names. So a
 * failure is matched by a stable key (its test file and its name without timings, bracketed numbers
 * and ids), and when that differs, by its file, on one rule:
 * - the baseline's run of that file was cut off (a timeout, or the file failed as a whole without
 *   naming a subtest): whatever fails in it now is the same cut, named after another subtest, unless
 *   the run changed that file or a module it is judged to test (then the run may be the cause);
 * - the file failed before for named reasons (an assertion in one subtest): a different subtest
 *   failing now is a different, named reason, and nothing about the file excuses it: it is new.
 *   Why: where the timer fires depends on load and says nothing about behaviour, so which subtest it
 *   cuts is noise; an assertion is a claim about behaviour, and the run can reach it through any
 *   module the file imports (which names alone cannot rule out). Excusing it by its file would let a
 *   regression hide behind an unrelated known failure, and a wrong refusal costs one more step while
 *   a wrong acceptance ships the regression. Only a failure that itself names no reason (the file as
 *   a whole, or a timeout) is taken as the file's known failure drifting, on the same condition.
 * A timeout is known by its name (node-tap's `timeout!`): reports keep names, not messages.
 * (test/unit/testRuns/preExisting.test.ts)
 */
import { testsByName } from './related';
import type { TestRunReport } from './report';

export interface FailureClasses {
  /** Failures the run introduced: their key did not fail before the run, and their file's failure then does not excuse them. */
  fresh: string[];
  /** The same failure as before the run (same file and name, timings and ids aside). */
  preExisting: string[];
  /** A differently named failure in a test file whose run before the run was cut off (or that names no reason itself), the run not touching it. */
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

/**
 * Sorts the failures of `current` against the baseline's; without a baseline every failure is fresh.
 * Without `current.changedFiles` (a caller that does not track them) no file counts as touched.
 */
export function classifyFailures(current: TestRunReport, baseline: TestRunReport | undefined): FailureClasses {
  const classes: FailureClasses = { fresh: [], preExisting: [], inFailedFile: [] };
  const keys = new Set((baseline?.failing ?? []).map((n) => stableFailureKey(n, fileOfFailure(baseline!, n))));
  const before = baseline ? failedFiles(baseline) : new Map<string, FileFailure>();
  const changed = current.changedFiles ?? [];
  for (const name of current.failing) {
    const file = fileOfFailure(current, name);
    const known = file ? before.get(file) : undefined;
    if (keys.has(stableFailureKey(name, file))) classes.preExisting.push(name);
    else if (file && known && (known === 'cut-off' || namesNoReason(name, file)) && !touched(file, changed)) classes.inFailedFile.push(name);
    else classes.fresh.push(name);
  }
  return classes;
}

/** How a test file failed in a run: cut off (a timeout, or as a whole without naming a subtest), or for named reasons. */
type FileFailure = 'cut-off' | 'named';

function failedFiles(report: TestRunReport): Map<string, FileFailure> {
  const byFile = new Map<string, string[]>();
  for (const name of report.failing) {
    const file = fileOfFailure(report, name);
    if (file) byFile.set(file, [...(byFile.get(file) ?? []), name]);
  }
  const states = new Map<string, FileFailure>();
  for (const [file, names] of byFile) {
    const cut = names.some((n) => isTimeout(n)) || names.every((n) => isWholeFile(n, file));
    states.set(file, cut ? 'cut-off' : 'named');
  }
  return states;
}

/** A failure that names no reason of its own: the file as a whole (killed, crashed, exit code) or a timer. */
function namesNoReason(name: string, file: string): boolean {
  return isWholeFile(name, file) || isTimeout(name);
}

/** node-tap names the file itself when its process fails (`not ok 2 - test/bin/semver.js`). */
function isWholeFile(name: string, file: string): boolean {
  return normalisedPath(name.trim()) === file;
}

/** node-tap's per-file and per-test timers end the test they cut with a result named `timeout!`. */
function isTimeout(name: string): boolean {
  const last = name
    .split(/ > | › |::/)
    .pop()!
    .trim();
  return /^timeout!?$/i.test(last) || /^timed out\b/i.test(last);
}

/** The run changed the test file, or a module it is judged (by name or mirrored path) to test. */
function touched(testFile: string, changed: readonly string[]): boolean {
  return changed.some((c) => {
    const rel = normalisedPath(c);
    return rel === testFile || testsByName(testFile, rel);
  });
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
