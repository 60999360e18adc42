/**
 * node-tap runs each test file in its own process and reports the process as a top-level result
 * (`not ok 1 - test/x.js # time=30012ms` with a YAML block of `file:`, `timeout:`, `command:`,
 * `exitCode:`, `signal:`). That result fails when a subtest failed, but also when the file's run
 * was ended: tap's per-file timer (30 s by default, `--timeout`) or a crash. Read naively, the
 * block's `timeout: 30000` looks like an assertion about a timeout, and the file and its cut
 * subtests count as three failures. Here a file whose run was ended is one failure, named by the
 * file, saying in plain words what ended it and which subtests did not finish; the `timeout!`
 * results the timer left in its subtests fold into it. A file failing only because a subtest
 * asserted wrongly is no failure of its own: the subtest is.
 */
import type { TestFailure } from './types';

/** A file's process result, as node-tap reports it. */
export interface FileRun {
  file: string;
  /** Index of its result line. */
  line: number;
  /** How long the file ran (`# time=`), in ms. */
  ranMs?: number;
  /** tap's per-file timer (`timeout:` in its block), in ms. */
  timeoutMs?: number;
  signal?: string;
  exitCode?: number;
  /** The timer's own result said it expired on the file (node-tap 18 and later: `not ok 2 - timeout!` with `expired: test/x.js`). */
  expired?: boolean;
}

/** A failing leaf result, and whether the timer (or the process ending) made it: `timeout!`, `expired:`, a thrown `timeout!`. */
export interface LeafResult {
  failure: TestFailure;
  cutByTimer: boolean;
}

/** The process result of a test file: a YAML block with the file and the command that ran it. */
export function fileRunOf(name: string, resultLine: string, yaml: readonly string[], line: number): FileRun | undefined {
  const text = yaml.join('\n');
  const expired = /^\s*expired: (\S+\.[cm]?[jt]sx?)\s*$/m.exec(text)?.[1];
  if (/^timeout!?$/.test(name) && expired) return { file: expired, line, expired: true };
  const file = /^\s*(?:file|externalID): (.+)$/m.exec(text)?.[1]?.trim();
  if (!file || !/^\s*command: /m.test(text) || file !== name) return undefined;
  const time = /#\s*time=([\d.]+)(ms|s)\b/.exec(resultLine);
  const timeout = /^\s*timeout: (\d+)\s*$/m.exec(text)?.[1];
  const signal = /^\s*signal: (SIG\w+)\s*$/m.exec(text)?.[1];
  const exitCode = /^\s*exitCode: (\d+)\s*$/m.exec(text)?.[1];
  return {
    file,
    line,
    ...(time ? { ranMs: Number(time[1]) * (time[2] === 's' ? 1000 : 1) } : {}),
    ...(timeout ? { timeoutMs: Number(timeout) } : {}),
    ...(signal ? { signal } : {}),
    ...(exitCode ? { exitCode: Number(exitCode) } : {}),
  };
}

/** A result the timer left: named `timeout!`, or whose block says the timer expired or that `timeout!` was thrown. */
export function cutByTimer(name: string, yaml: readonly string[]): boolean {
  // `expired: <test name>`: the test's own `{ timeout }` ended it, a failure of that test, not the file's timer.
  const expired = yaml.map((l) => /^\s*expired: (.+)$/.exec(l)?.[1]?.trim()).find(Boolean);
  if (expired && expired !== 'TAP' && !/\.[cm]?[jt]sx?$|\.t$/.test(expired)) return false;
  return /(^|> )timeout!?$/i.test(name) || yaml.some((l) => /^\s*(expired: |message: timeout!\s*$)/.test(l));
}

/**
 * The failures in output order, with each ended file as one failure: its timer-cut results folded
 * into it; `unfinished`: the subtests each ended file did not finish (headers without a result,
 * or holding a timer-cut result), by file.
 */
export function foldFileRuns(
  leaves: readonly LeafResult[],
  runs: readonly FileRun[],
  unfinished: ReadonlyMap<string, string[]>,
): { failures: TestFailure[]; unfinished: number } {
  const ended = new Map<string, { run: FileRun; subtests: string[] }>();
  for (const run of runs) {
    const inFile = leaves.filter((l) => l.failure.file === run.file);
    const cut = inFile.filter((l) => l.cutByTimer);
    // Only its subtests' assertions failed (exit 1): they are the failures, the file is not one more.
    if (inFile.length > 0 && cut.length === 0 && !run.signal && (run.exitCode ?? 1) === 1) continue;
    const subtests = new Set(unfinished.get(run.file) ?? []);
    for (const l of cut) {
      const child = l.failure.name.split(' > ')[1];
      if (child && l.failure.name.split(' > ').length > 2) subtests.add(child);
    }
    ended.set(run.file, { run, subtests: [...subtests] });
  }
  const kept: TestFailure[] = leaves.filter((l) => !(l.cutByTimer && l.failure.file && ended.has(l.failure.file))).map((l) => l.failure);
  const files = [...ended.values()].map(({ run, subtests }) => ({
    name: run.file,
    message: endedWords(run, subtests),
    endedBy: endedBy(run),
    file: run.file,
    line: run.line,
  }));
  const failures = [...kept, ...files].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return { failures, unfinished: [...ended.values()].reduce((n, e) => n + e.subtests.length, 0) };
}

/** "the file's run was ended after 30 s (tap's per-file time limit of 30 s, ...), its subtests a, b did not finish". */
function endedWords(run: FileRun, subtests: readonly string[]): string {
  const after = run.ranMs !== undefined ? ` after ${seconds(run.ranMs)} s` : '';
  const timedOut = timedOutRun(run);
  const limit = run.timeoutMs !== undefined ? ` of ${seconds(run.timeoutMs)} s` : '';
  const how = timedOut
    ? `the file's run was ended${after} (tap's per-file time limit${limit}, set by --timeout or TAP_TIMEOUT; not a test's assertion)`
    : run.signal
      ? `the file's process was ended by ${run.signal}${after}, before tap's timeout`
      : run.exitCode !== undefined
        ? `the file's process exited with code ${run.exitCode}${after} without a failing assertion`
        : `the file's process failed${after} without a failing assertion`;
  const which = subtests.length
    ? `, its ${subtests.length === 1 ? 'subtest' : 'subtests'} ${subtests.join(', ')} did not finish`
    : timedOut
      ? ' (the output does not name the subtest it was running)'
      : '';
  return how + which;
}

/** The timer fires at its limit; a process that ended well before it crashed or exited. */
function timedOutRun(run: FileRun): boolean {
  return !!run.expired || (run.timeoutMs !== undefined && run.ranMs !== undefined && run.ranMs >= run.timeoutMs * 0.95);
}

/** What ended the file, short, for a line that names it ("timed out after 30 s: tap's per-file time limit"): a limit under load is not a bug. */
function endedBy(run: FileRun): string {
  const after = run.ranMs !== undefined ? ` after ${seconds(run.ranMs)} s` : '';
  if (timedOutRun(run)) return `timed out${after}: tap's per-file time limit`;
  if (run.signal) return `its process was ended by ${run.signal}${after}`;
  return run.exitCode !== undefined
    ? `its process exited with code ${run.exitCode} without a failing assertion`
    : 'its process failed without a failing assertion';
}

function seconds(ms: number): string {
  return ms >= 10_000 ? String(Math.round(ms / 1000)) : String(Math.round(ms / 100) / 10);
}
