/**
 * The baseline (which tests fail on the untouched tree) runs from the run's start, alongside the
 * model's first requests and reads (they change no file), instead of inside the first edit, where a
 * real suite made the edit wait minutes in silence. Whatever may change the tree (a patch, a write,
 * a command, a test run: two runs in one tree share coverage folders and temp files) waits for it
 * first, so it is still of the untouched tree, and says meanwhile how long it has been running; a
 * read-only command (`git log -p f`, `grep -rn`: policy/command/readOnly.ts) does not, it cannot disturb it. A
 * run that ends first kills it (its process tree, like any cancelled test run): a run that never
 * edits pays nothing for it at its end (test/unit/orchestrator/earlyBaseline.test.ts).
 *
 * Not in a subagent (its parent's baseline counts), not when tests do not run after edits or none is
 * configured, not in plan mode. In an untrusted workspace outside the sandbox a test command asks
 * first (untrustedHostRun.ts): there it starts at the first change, not with a question before the
 * model has done anything.
 */
import { baselineNote, type TestRunReport } from '../testRuns';
import { runConfiguredTests } from '../tools/runTests';
import type { ToolContext, ToolResult } from '../tools/types';
import type { TestsAfterLastChange } from './testsOutcome';

/** How often a change that waits for the baseline says so again. */
const PROGRESS_EVERY_MS = 15_000;

export class EarlyBaseline {
  private running: Promise<void> | undefined;
  private settled = false;
  private withRun = false;
  private startedAt = 0;
  /** The baseline's result, while nothing changed since: a whole-suite run_tests before the first change is this run. */
  private result: ToolResult | undefined;
  /** The command the baseline is running now (progress is said on its row). */
  private command: string | undefined;
  private readonly stop = new AbortController();

  constructor(
    private readonly ctx: ToolContext,
    private readonly tests: TestsAfterLastChange,
    private readonly options: { progressEveryMs?: number } = {},
  ) {}

  /** At the run's start: begins the baseline when it is due and nobody needs to be asked first. */
  startWithRun(): void {
    const { workspaceTrusted, sandboxed } = this.ctx.run.tests;
    if (!workspaceTrusted && !sandboxed) return;
    this.withRun = this.start();
  }

  /**
   * Before a call that may change the tree: waits for the baseline (started now when it did not
   * start with the run, but not for a test run: a whole-suite one is the baseline itself, today's
   * rule). Returns the baseline's result for a whole-suite test run before any change: the same tree,
   * so the same result (its line then does not ride in the result again).
   */
  async beforeChange(o: { testRun?: 'whole' | 'narrowed' } = {}): Promise<ToolResult | undefined> {
    if (!this.running && !o.testRun) this.start();
    if (!this.running) return undefined;
    if (!this.settled) await this.waitSaying();
    this.ctx.signal.throwIfAborted();
    if (o.testRun !== 'whole' || !this.result || this.changedSince()) return undefined;
    this.tests.takeBaselineNote();
    return this.result;
  }

  /** The run ended: a baseline still running is killed, and its end awaited, so no test process outlives the run. */
  async cancel(): Promise<void> {
    if (!this.running || this.settled) return;
    this.stop.abort();
    await this.running;
  }

  private due(): boolean {
    const {
      workspace: { settings },
      ask,
    } = this.ctx;
    return !this.tests.hasBaseline && !this.changedSince() && !ask.planOnly && settings.tests.afterEdit && settings.tests.commands.length > 0;
  }

  private changedSince(): boolean {
    return this.ctx.state.changedFiles.size > 0 || !!this.ctx.state.commandsRan;
  }

  private start(): boolean {
    if (this.running || !this.due()) return false;
    this.startedAt = Date.now();
    const signal = AbortSignal.any([this.ctx.signal, this.stop.signal]);
    const emit: ToolContext['emit'] = (e) => {
      if (e.type === 'test-started') this.command = e.command;
      this.ctx.emit?.(e);
    };
    this.running = this.record({ ...this.ctx, signal, emit }).finally(() => {
      this.settled = true;
    });
    return true;
  }

  /** The whole suite once, no rerun (a failure there is pre-existing either way); a baseline that cannot run is no reason to stop an edit. */
  private async record(ctx: ToolContext): Promise<void> {
    try {
      const result = await runConfiguredTests(ctx, undefined, { rerun: false });
      const report = result.data?.report as TestRunReport | undefined;
      if (!report) return;
      // The model did not ask for this run: its verdict rides in the next tool result (orchestrator.ts), once.
      this.tests.recordBaseline(report, baselineNote(report, ctx.state.wholeSuiteMs));
      this.result = result;
    } catch {
      // Cancelled with the run, or it could not run: there is no baseline, and the call that waited goes on.
    }
  }

  /** Waits for the baseline; one that started with the run is said to be waited for, again every few seconds, on its test row. */
  private async waitSaying(): Promise<void> {
    if (!this.withRun) return this.running;
    const say = () => {
      const seconds = Math.round((Date.now() - this.startedAt) / 1000);
      const command = this.command ?? this.ctx.workspace.settings.tests.commands[0]!;
      this.ctx.emit?.({ type: 'test-started', command, note: `waiting for the baseline test run (started with the run, ${seconds} s so far)` });
    };
    say();
    const waitFrom = Date.now();
    const timer = setInterval(say, this.options.progressEveryMs ?? PROGRESS_EVERY_MS);
    try {
      await this.running;
    } finally {
      clearInterval(timer);
    }
    this.tests.waitedForBaseline(Date.now() - waitFrom);
  }
}
