/**
 * One run's state, in one object the loop's small steps share (start, step, end) instead of closures
 * inside one long method: what it counted, what it changed, its conversation, its recorder and meter,
 * and its stop signal (the caller's cancel or the wall clock). `end()` is the one way a run ends.
 * (Not the tools' `ToolContext.state`, which holds only what tools share: changed files, hosts.)
 */
import type { AgentEvent, RunEndStatus, RunFailure, RunStoppedBy, TestFailureNames } from '../../protocol/agentEvents';
import { CancelledError } from '../base/cancellation';
import { errorMessage } from '../base/errors';
import { completePairs } from '../context/compaction';
import type { Conversation } from '../context/conversation';
import type { ModelMessage, ModelRole, ModelTurn } from '../llm/types';
import { RunBudget, hasLimits, type BudgetLimits } from '../llm/budget';
import { UsageMeter, type UsageTotals } from '../llm/usageMeter';
import { systemClock, type Clock } from '../ports';
import { FastModelWork } from './fastModel';
import { FinishGate } from './finishGate';
import { RepeatedFailures } from './loopGuard';
import { TRANSCRIPT_STEP } from './contextSteps';
import { RunRecorder, asJson } from './recorder';
import { RunMemory } from './runMemory';
import { TestsAfterLastChange, describeTestsOutcome } from './testsOutcome';
import { TESTS_STEP } from '../history/types';
import type { OrchestratorDeps, RunOptions, RunOutcome } from './types';

export class RunState {
  readonly clock: Clock;
  readonly recorder: RunRecorder;
  readonly meter: UsageMeter;
  /** The goal's spend limits (a subagent's requests count in its parent's, so it has none of its own). */
  readonly budget: RunBudget | undefined;
  readonly memory: RunMemory;
  readonly fast: FastModelWork;
  /** Workspace-relative paths this run's tools wrote (shared with the tools' context). */
  readonly changedFiles = new Set<string>();
  /** Whether the tests after the last change passed, failed or did not run. */
  readonly tests = new TestsAfterLastChange();
  /** A finish while the tests fail is refused once per failure state (finishGate.ts). */
  readonly finishGate = new FinishGate();
  /** The loop guard: the same failing call made too often stops the run. */
  readonly repeatedFailures: RepeatedFailures;
  /** Edits (patches, file writes) refused because nobody could be asked: a run made only of those is `blocked`. */
  unattendedEdits = 0;
  steps = 0;
  /** Steps in a row where every tool call failed. */
  failedSteps = 0;
  /** Replies in a row that were no answer (reasoning only, empty, unreadable). */
  unusableReplies = 0;
  /** Times a Stop hook sent the run on (hookSteps.ts bounds it). */
  stopContinuations = 0;
  /** Notification hooks under way (not awaited by the step that fired them; the run waits for them at its end). */
  readonly backgroundHooks = new Set<Promise<void>>();
  conversation: Conversation | undefined;
  /** The id checkpoints are filed under when the run has no history row. */
  private readonly localRunId = `run-${Date.now().toString(36)}-${process.pid}`;
  private readonly stop = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private timeUp = false;
  /** A budget or the loop guard stopped the run: the first reason wins. */
  private stopped: { by: RunStoppedBy; message: string } | undefined;
  private readonly onExternalAbort = () => this.cancel();

  constructor(
    readonly deps: OrchestratorDeps,
    readonly goal: string,
    readonly options: RunOptions,
  ) {
    this.clock = deps.clock ?? systemClock;
    this.recorder = new RunRecorder(deps.history, this.warn);
    this.repeatedFailures = new RepeatedFailures(deps.settings.limits.maxRepeatedFailures);
    const { maxTokens, maxCostUsd, dailyCostUsd } = deps.settings.limits;
    const limits: BudgetLimits = { maxTokens, maxCostUsd, dailyCostUsd };
    this.budget = !options.subagent && hasLimits(limits) ? new RunBudget(limits, (stop) => this.stopFor('budget', stop.message)) : undefined;
    this.meter = new UsageMeter({ forwardTo: options.subagent?.meter, guard: this.budget, onRecord: (r) => this.recorder.usage(r) });
    // The fast model's side jobs need one configured: unasked, they would bill the reasoning model.
    this.fast = new FastModelWork(deps.settings.llm.fastModel ? deps.model : undefined, this.meter, this.warn, (turn) => this.reportUsage(turn));
    this.memory = new RunMemory(goal, this.fast, this.recorder);
    const external = options.signal;
    if (external?.aborted) this.cancel();
    else external?.addEventListener('abort', this.onExternalAbort, { once: true });
    this.timer = setTimeout(() => {
      this.timeUp = true;
      this.cancel();
    }, deps.settings.limits.wallClockMinutes * 60_000);
    this.timer.unref?.();
  }

  /** The run's id for its checkpoints: its history id, else one of its own. */
  get checkpointRunId(): string {
    return this.recorder.runId ?? this.localRunId;
  }

  /** Aborted by the caller's cancel or the wall clock. */
  get signal(): AbortSignal {
    return this.stop.signal;
  }

  /** A broken viewer must not break the run. */
  readonly emit = (e: AgentEvent): void => {
    try {
      this.deps.onEvent?.(e);
    } catch {
      /* ignored */
    }
  };

  readonly warn = (message: string): void => this.emit({ type: 'warning', message });

  reportUsage(turn: ModelTurn, context: { countedPromptTokens?: number; budgetTokens?: number } = {}): void {
    const totals = this.meter.total();
    this.emit({
      type: 'usage',
      role: turn.role,
      model: turn.model,
      ...(turn.responseModel ? { responseModel: turn.responseModel } : {}),
      promptTokens: turn.usage.promptTokens,
      ...(turn.usage.cachedTokens ? { cachedTokens: turn.usage.cachedTokens } : {}),
      ...(turn.durationMs !== undefined ? { durationMs: turn.durationMs } : {}),
      ...(turn.cost !== undefined ? { cost: turn.cost } : {}),
      completionTokens: turn.usage.completionTokens,
      ...context,
      totalPromptTokens: totals.promptTokens,
      totalCachedTokens: totals.cachedTokens,
      totalCompletionTokens: totals.completionTokens,
      totalCost: totals.cost,
    });
  }

  /** The failing tests the run ends with, by kind; undefined when none fail. */
  testFailures(): TestFailureNames | undefined {
    const { unnamed: _unnamed, newSteps: _newSteps, files: _files, ...f } = this.tests.failures;
    const kept = Object.fromEntries(Object.entries(f).filter(([, names]) => names.length > 0)) as TestFailureNames;
    return Object.keys(kept).length ? kept : undefined;
  }

  /** Ends the run: memory, transcript, history row, the `run/finished` event and the outcome. */
  async end(finalStatus: RunEndStatus, finalReason: string, summary?: string, failure?: RunFailure): Promise<RunOutcome> {
    const { deps, recorder, meter } = this;
    let status = finalStatus;
    let reason = finalReason;
    if (status === 'finished' && this.unattendedEdits > 0 && this.changedFiles.size === 0) {
      // Nothing was changed because nobody could approve a change: whatever the model concluded, the goal was not reached.
      status = 'blocked';
      reason = `every edit needed approval and nobody could give it (${this.unattendedEdits} refused); nothing was changed`;
    }
    // A cancelled run (or one out of time) has an aborted signal: its memory is written without the fast model.
    await this.memory
      .finish({ status, reason, summary, steps: this.steps, changedFiles: [...this.changedFiles] }, this.signal)
      .catch((err: unknown) => this.warn(`the run's memory was not written: ${errorMessage(err)}`));
    const totals = meter.total();
    const byRole = usageByRole(meter);
    const transcript = transcriptOf(this.conversation, this.goal, summary);
    // The history's timeline says how the run left the tests (run/finished says it to the UI and the CLI).
    recorder.step({ role: 'system', tool: TESTS_STEP, text: describeTestsOutcome(this.tests.outcome, this.testFailures()) });
    // What a resumed session continues from (core/session/resume.ts).
    recorder.step({ role: 'system', tool: TRANSCRIPT_STEP, text: `${transcript.length} message(s)`, arguments: asJson(transcript) });
    await recorder.finish({
      status,
      steps: this.steps,
      tokensIn: totals.promptTokens,
      tokensOut: totals.completionTokens,
      costUsd: totals.cost,
      endedAt: this.clock.now(),
    });
    const view = (role: ModelRole) => {
      const r = byRole[role];
      return {
        model: deps.model.modelFor(role),
        requests: r.requests,
        promptTokens: r.promptTokens,
        ...(r.cachedTokens ? { cachedTokens: r.cachedTokens } : {}),
        completionTokens: r.completionTokens,
        cost: r.cost,
      };
    };
    const failed = failure && status === 'failed' ? { failure } : {};
    const stoppedBy = status === 'stopped' && this.stopped ? { stoppedBy: this.stopped.by } : {};
    this.emit({
      type: 'run/finished',
      runId: recorder.runId,
      status,
      reason,
      summary,
      steps: this.steps,
      tests: this.tests.outcome,
      ...(this.testFailures() ? { testFailures: this.testFailures() } : {}),
      ...failed,
      ...stoppedBy,
      usage: { reasoning: view('reasoning'), fast: view('fast'), totalCost: totals.cost },
    });
    return {
      status,
      reason,
      summary,
      steps: this.steps,
      tests: this.tests.outcome,
      changedFiles: [...this.changedFiles],
      runId: recorder.runId,
      usage: totals,
      usageByRole: byRole,
      transcript,
      usageRecords: meter.requests,
      ...failed,
      ...stoppedBy,
    };
  }

  /** A budget or the loop guard: the run stops (its signal aborts whatever is under way) and ends as `stopped`. */
  stopFor(by: RunStoppedBy, message: string): void {
    this.stopped ??= { by, message };
    this.cancel();
  }

  /** Ends the run as stopped by the loop guard or a budget, now. */
  endStopped(by: RunStoppedBy, message: string): Promise<RunOutcome> {
    this.stopFor(by, message);
    return this.end('stopped', this.stopped!.message);
  }

  /** An error that escaped a step: a budget stop, a cancel or the wall clock ends the run as such, anything else as failed. */
  endOnError(err: unknown): Promise<RunOutcome> {
    const { wallClockMinutes } = this.deps.settings.limits;
    if (this.stopped) return this.end('stopped', this.stopped.message);
    if (this.signal.aborted || err instanceof CancelledError) {
      return this.timeUp ? this.end('limit', `reached the wall-clock limit (${wallClockMinutes} min)`) : this.end('cancelled', 'stopped by the user');
    }
    return this.end('failed', `internal error: ${errorMessage(err)}`);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.options.signal?.removeEventListener('abort', this.onExternalAbort);
  }

  private cancel(): void {
    this.stop.abort(new CancelledError());
  }
}

function usageByRole(meter: UsageMeter): Record<ModelRole, UsageTotals> {
  const parts: Record<ModelRole, UsageMeter> = { reasoning: new UsageMeter(), fast: new UsageMeter() };
  for (const r of meter.requests) parts[r.role].record(r);
  return { reasoning: parts.reasoning.total(), fast: parts.fast.total() };
}

/**
 * What the next turn of the chat keeps: the whole conversation (tool pairs intact) and, when the run
 * ended in a finish call, its summary as the assistant's last word. A run that failed before its
 * conversation existed still leaves the goal, so the chat reads the same to the model as to the user.
 */
function transcriptOf(conversation: Conversation | undefined, goal: string, summary: string | undefined): ModelMessage[] {
  if (!conversation) return [{ role: 'user', content: goal }];
  // Reasoning is never sent back across turns (llm/reasoningReplay.ts): the follow-up does not carry it.
  const messages = completePairs(conversation.messages.slice(1)).map((m) => (m.role === 'assistant' && m.reasoning ? withoutReasoning(m) : m));
  const last = messages[messages.length - 1];
  if (summary && last?.role === 'tool') messages.push({ role: 'assistant', content: summary });
  return messages;
}

function withoutReasoning(m: Extract<ModelMessage, { role: 'assistant' }>): ModelMessage {
  const { reasoning: _dropped, ...rest } = m;
  return rest;
}
