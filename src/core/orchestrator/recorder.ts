import { randomUUID } from 'node:crypto';
import { errorMessage } from '../base/errors';
import { USER_ANSWER_RULE, type JsonValue, type PatchInput, type RunFinish, type StepInput } from '../history/types';
import { patchRecordOf } from './patchRecord';
import { sourceOf, type UsageRecord } from '../llm/usageMeter';
import type { ProposedPatch, ToolEvent } from '../tools/types';
import type { RunHistory } from '../ports';

/**
 * Writes the run to the history store as it happens, in order, without making the loop wait: each
 * write joins one queue (so the store sees them in the order they happened, stamped with the time
 * they happened) and the run's close waits for the queue. A slow save (a big database exported in
 * a worker, or on the main thread) then never holds up a step. A failing store never stops the
 * agent: the first failure becomes one warning, and the run goes on unrecorded.
 */
export class RunRecorder {
  runId: string | null = null;
  private warned = false;
  private asked: { kind: string; title: string } | undefined;
  private queue: Promise<void> = Promise.resolve();
  private pendingPatchId: string | undefined;

  constructor(
    private readonly history: RunHistory | undefined,
    private readonly warn: (message: string) => void,
  ) {}

  async start(goal: string, models: { reasoning: string; fast: string }, parentRunId?: string | null): Promise<void> {
    this.runId =
      (await this.guard(() =>
        this.history!.startRun({ goal, reasoningModel: models.reasoning, fastModel: models.fast, ...(parentRunId ? { parentRunId } : {}) }),
      )) ?? null;
  }

  step(input: StepInput): void {
    const time = input.time ?? Date.now();
    this.write((runId) => this.history!.addStep(runId, { ...input, time }));
  }

  /** Tool events arrive synchronously, in the middle of a tool call. */
  toolEvent(event: ToolEvent): void {
    const time = Date.now();
    if (event.type === 'approval-needed') this.asked = event.request;
    else if (event.type === 'approval-answered' && event.kind !== 'patch' && this.asked && this.asked.kind === event.kind) {
      // The user's answer goes to the audit trail next to the verdict that asked (patches keep theirs per hunk).
      const subject = this.asked.title;
      const kind = ANSWER_KIND[event.kind as keyof typeof ANSWER_KIND] ?? 'command';
      this.asked = undefined;
      this.write((runId) =>
        this.history!.addPolicyDecision({
          runId,
          kind,
          subject,
          verdict: event.approved ? 'allow' : 'deny',
          rule: USER_ANSWER_RULE,
          reason: event.approved ? 'approved by the user' : 'declined by the user',
          time,
        }),
      );
    } else if (event.type === 'test-finished') {
      this.write((runId) =>
        this.history!.addTestRun({
          runId,
          command: event.command,
          trigger: 'agent',
          exitCode: event.exitCode,
          durationMs: event.durationMs,
          output: event.output,
          time,
        }),
      );
    } else if (event.type === 'policy') {
      const d = event.decision;
      this.write((runId) =>
        this.history!.addPolicyDecision({ runId, kind: event.kind, subject: event.subject, verdict: d.verdict, rule: d.rule, reason: d.reason, time }),
      );
    }
  }

  /**
   * The history id the patch being proposed will be recorded under, chosen now so that the run's
   * `patch/proposed` and `patch/applied` events carry it before the row is written (undefined: no history).
   * Patch tools change files, so they never run in parallel: one pending id at a time.
   */
  nextPatchId(): string | undefined {
    this.pendingPatchId = this.runId && this.history ? randomUUID() : undefined;
    return this.pendingPatchId;
  }

  /** A proposal the history will not keep (no file in it): no id to give. */
  clearPatchId(): undefined {
    this.pendingPatchId = undefined;
    return undefined;
  }

  /** The id nextPatchId chose for the patch under way. */
  get pendingPatch(): string | undefined {
    return this.pendingPatchId;
  }

  /** Every proposed patch: applied, rejected by the user or refused, with each hunk's state and reason (patchRecord.ts); returns what was recorded. */
  patch(proposed: ProposedPatch): PatchInput | undefined {
    const id = this.pendingPatchId;
    this.pendingPatchId = undefined;
    const record = patchRecordOf(proposed.text, proposed.data, Date.now());
    if (!record) return undefined;
    const input = id ? { ...record, id } : record;
    this.write((runId) => this.history!.addPatch(runId, input));
    return input;
  }

  observation(tool: string, insight: string, output: string, path: string | null): void {
    const time = Date.now();
    this.write((runId) => this.history!.recordObservation({ runId, tool, insight, result: output, isError: false, path, time }));
  }

  /** The run's Q&A memory: the goal as the question, what was done and learned as the answer. */
  qaSummary(question: string, answer: string): void {
    this.write((runId) => this.history!.recordQaSummary(runId, question, answer));
  }

  /** One model request's tokens and cost, under its source (the meter's onRecord). */
  usage(r: UsageRecord): void {
    this.write((runId) =>
      this.history!.addUsage({
        runId,
        source: sourceOf(r),
        role: r.role,
        model: r.model,
        promptTokens: r.usage.promptTokens,
        completionTokens: r.usage.completionTokens,
        cachedTokens: r.usage.cachedTokens ?? 0,
        costUsd: r.cost ?? null,
        estimated: r.usage.estimated === true,
        time: r.time,
      }),
    );
  }

  /** Waits for every queued write, then closes the run. */
  async finish(input: RunFinish): Promise<void> {
    await this.queue;
    const runId = this.runId;
    if (runId) await this.guard(() => this.history!.finishRun(runId, input));
  }

  private write(op: (runId: string) => Promise<unknown>): void {
    const runId = this.runId;
    if (!runId) return;
    this.queue = this.queue.then(() => this.guard(() => op(runId))).then(() => undefined);
  }

  private async guard<T>(write: () => Promise<T>): Promise<T | undefined> {
    if (!this.history) return undefined;
    try {
      return await write();
    } catch (err) {
      if (!this.warned) {
        this.warned = true;
        this.warn(`history is not being recorded: ${errorMessage(err)}`);
      }
      return undefined;
    }
  }
}

const ANSWER_KIND = { command: 'command', tests: 'command', write: 'path', fetch: 'network' } as const;

export function asJson(value: unknown): JsonValue {
  return JSON.parse(JSON.stringify(value ?? null)) as JsonValue;
}
