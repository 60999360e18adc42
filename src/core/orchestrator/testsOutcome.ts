import type { RunTestsOutcome, TestFailureNames } from '../../protocol/agentEvents';
import { classifyFailures, classifySteps, stepWithFiles, type TestRunReport } from '../testRuns';
import type { Tool, ToolResult } from '../tools/types';

/** A wait for the baseline shorter than this is not worth a word in the result. */
const WAIT_WORTH_SAYING_MS = 1_000;

/**
 * What the tests after the run's last file change said (test/unit/orchestrator/testsOutcome.test.ts),
 * measured against the baseline: the tests that failed before the run's first change. A change
 * resets it to 'not-run': tests that passed before an edit say nothing about the code the run
 * leaves behind. Only a whole-suite run sets the state; a narrowed run that passes clears the
 * failures it was aimed at (the model ran the failing test alone and it passed). Fed by the
 * after-write hook and by the calls whose tool declares a test verdict, in the order they happened.
 */
export class TestsAfterLastChange {
  private last: TestRunReport | undefined;
  /** The latest run of any kind (a narrowed one too): what the next after-edit run must see fixed. */
  private latest: TestRunReport | undefined;
  private baseline: TestRunReport | undefined;
  private passedAlone = new Set<string>();
  /** The baseline's one line, not yet read by the model (it rides in the next tool result, once). */
  private baselineUnread: string | undefined;
  private changes = 0;
  private everChanged = false;

  /** 'known-failures': every test that still fails failed before the run (or in a file that did), is flaky, or passed when run alone. */
  get outcome(): RunTestsOutcome {
    if (!this.last) return 'not-run';
    const f = this.failures;
    if (f.new.length || f.unnamed || f.newSteps.length) return 'failed';
    // A command that failed without naming a test, or at a step after the tests, as it did before the run: a known failure, not a pass.
    const asBefore = this.last.unnamedFailure || !!this.last.failedSteps?.length;
    return f.preExisting.length || f.flaky.length || f.passedAlone.length || asBefore ? 'known-failures' : 'passed';
  }

  /**
   * The failing tests of the last whole-suite run, by kind (matched to the baseline by file and a
   * name without timings or ids, testRuns/preExisting.ts); `unnamed`: a command failed without
   * naming one, and did not before the run; `newSteps`: a step after the tests (a posttest lint)
   * failed that did not before the run (with the changed files it names; one the baseline never
   * reached that names only files the run did not change is not the run's doing, not listed).
   */
  /** `files`: the file each failing test ran in, when the runner said (naming the file in a finish names its tests). */
  get failures(): Required<TestFailureNames> & { unnamed: boolean; newSteps: string[]; files?: Record<string, string> } {
    const last = this.last;
    if (!last) return { new: [], preExisting: [], flaky: [], passedAlone: [], unnamed: false, newSteps: [] };
    const classes = classifyFailures(last, this.baseline);
    const alone = classes.fresh.filter((n) => [...this.passedAlone].some((a) => n.includes(a) || a.includes(n)));
    return {
      new: classes.fresh.filter((n) => !alone.includes(n)),
      preExisting: [...classes.preExisting, ...classes.inFailedFile],
      flaky: last.flaky,
      passedAlone: alone,
      unnamed: last.unnamedFailure && !this.baseline?.unnamedFailure,
      ...(last.failingFiles ? { files: last.failingFiles } : {}),
      newSteps: classifySteps(last, this.baseline).fresh.map((s) => stepWithFiles(last, s)),
    };
  }

  /** Counts every change and test run: the same version means nothing was edited or tested since. */
  get version(): number {
    return this.changes;
  }

  /** The whole-suite run before the first change, once recorded. */
  get baselineReport(): TestRunReport | undefined {
    return this.baseline;
  }

  /** Files changed since the last whole-suite run (the runs after edits were aimed at related tests, or none ran): the finish runs it once. */
  get wholeSuiteDue(): boolean {
    return this.everChanged && !this.last;
  }

  get hasBaseline(): boolean {
    return this.baseline !== undefined;
  }

  /** Files were written: whatever ran before does not test them. */
  changed(): void {
    this.last = undefined;
    this.passedAlone.clear();
    this.changes++;
    this.everChanged = true;
  }

  /** One test run (every configured command), as a pass or a failure without names (callers without a report). */
  ran(passed: boolean): void {
    this.ranReport({ narrowed: false, failing: [], flaky: [], unnamedFailure: !passed, aimedAt: [] });
  }

  /** One test run: a whole-suite run before any change is the baseline; a narrowed pass clears what it aimed at. */
  ranReport(report: TestRunReport): void {
    this.changes++;
    this.latest = report;
    if (report.narrowed) {
      if (!report.failing.length && !report.unnamedFailure) for (const a of report.aimedAt) this.passedAlone.add(a);
      return;
    }
    if (!this.everChanged) this.baseline ??= report;
    this.last = report;
  }

  /**
   * The test files of the failures the latest run (whole or narrowed) introduced, which the baseline
   * does not explain: the next after-edit run includes them beside the edit's related tests, so an
   * edit that fixes them is seen to (the related tests of a one-line fix to a fixture need not name them).
   */
  get openFailureFiles(): string[] {
    const r = this.latest;
    if (!r?.failing.length) return [];
    const files = classifyFailures(r, this.baseline).fresh.map((n) => r.failingFiles?.[n]);
    return [...new Set(files.filter((f): f is string => !!f))];
  }

  /** The baseline, recorded before the first change (not a state the run ends in); `note`: its line for the model, read once. */
  recordBaseline(report: TestRunReport, note?: string): void {
    if (this.baseline) return;
    this.baseline = report;
    this.baselineUnread = note;
  }

  /** A call waited for the baseline: said with its line, so a slow first edit reads as the suite's time, not the edit's. */
  waitedForBaseline(ms: number): void {
    if (this.baselineUnread === undefined || ms < WAIT_WORTH_SAYING_MS) return;
    this.baselineUnread += ` This call waited ${(ms / 1000).toFixed(1)} s for that run to end before it ran.`;
  }

  /** The baseline's line the first time it is asked for after the baseline ran unseen, then undefined. */
  takeBaselineNote(): string | undefined {
    const note = this.baselineUnread;
    this.baselineUnread = undefined;
    return note;
  }

  /** A tool call's result, as its tool declares it (run_tests ran them, a subagent edited); other calls change nothing. */
  noteCall(tool: Tool<any> | undefined, result: ToolResult): void {
    const report = tool?.loop?.testReport?.(result);
    if (report) return this.ranReport(report);
    const verdict = tool?.loop?.testsOutcome?.(result);
    if (verdict === 'not-run') this.changed();
    else if (verdict) this.ran(verdict !== 'failed');
  }
}

/** One wording for everyone (CLI, chat, toast, history timeline). */
export { describeTestsOutcome } from '../../protocol/runEnd';
