import { errorMessage } from '../base/errors';
import type { JsonValue, RunFinish, StepInput } from '../history/types';
import type { ApplyResult } from '../patch/types';
import type { ToolEvent, ToolResult } from '../tools/types';
import type { RunHistory } from './types';

/**
 * Writes the run to the history store as it happens. A failing store never stops the agent: the
 * first failure becomes one warning, and the run goes on unrecorded.
 */
export class RunRecorder {
  runId: string | null = null;
  private warned = false;
  private readonly pending: Promise<void>[] = [];

  constructor(private readonly history: RunHistory | undefined, private readonly warn: (message: string) => void) {}

  async start(goal: string, models: { reasoning: string; fast: string }): Promise<void> {
    this.runId = (await this.guard(() => this.history!.startRun({ goal, reasoningModel: models.reasoning, fastModel: models.fast }))) ?? null;
  }

  async step(input: StepInput): Promise<void> {
    const runId = this.runId;
    if (runId) await this.guard(() => this.history!.addStep(runId, input));
  }

  /** Tool events arrive synchronously; their writes are awaited before the run is closed. */
  toolEvent(event: ToolEvent): void {
    this.pending.push(this.writeToolEvent(event));
  }

  private async writeToolEvent(event: ToolEvent): Promise<void> {
    const runId = this.runId;
    if (!runId) return;
    if (event.type === 'test-finished') {
      await this.guard(() => this.history!.addTestRun({ runId, command: event.command, trigger: 'agent', exitCode: event.exitCode, durationMs: event.durationMs, output: event.output }));
    } else if (event.type === 'policy') {
      const d = event.decision;
      await this.guard(() => this.history!.addPolicyDecision({ runId, kind: event.kind, subject: event.subject, verdict: d.verdict, rule: d.rule, reason: d.reason }));
    }
  }

  /** A patch the user saw or the engine applied (proposals refused by the engine are in the step log only). */
  async patch(patchText: string, result: ToolResult): Promise<void> {
    const runId = this.runId;
    const data = result.data as { preview?: ApplyResult; result?: ApplyResult; applied?: string[]; rejected?: string[]; files?: string[] } | undefined;
    if (!runId || !data?.preview?.ok || data.preview.files.length === 0) return;
    const applied = data.result;
    const files = data.files ?? [...new Set(data.preview.files.map((f) => f.newPath ?? f.oldPath ?? ''))];
    await this.guard(() =>
      this.history!.addPatch(runId, {
        text: patchText,
        files,
        acceptedHunks: data.applied ?? [],
        rejectedHunks: data.rejected ?? data.preview!.files.flatMap((f) => f.hunks.map((h) => h.id)),
        reversePatch: applied?.reversePatch ?? null,
        appliedAt: applied ? Date.now() : null,
      }),
    );
  }

  async observation(tool: string, insight: string, output: string, path: string | null): Promise<void> {
    const runId = this.runId;
    if (runId) await this.guard(() => this.history!.recordObservation({ runId, tool, insight, result: output, isError: false, path }));
  }

  /** The run's Q&A memory: the goal as the question, what was done and learned as the answer. */
  async qaSummary(question: string, answer: string): Promise<void> {
    const runId = this.runId;
    if (runId) await this.guard(() => this.history!.recordQaSummary(runId, question, answer));
  }

  async finish(input: RunFinish): Promise<void> {
    await Promise.all(this.pending);
    const runId = this.runId;
    if (runId) await this.guard(() => this.history!.finishRun(runId, input));
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

export function briefArgs(args: Record<string, unknown>): string {
  const text = Object.entries(args)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? JSON.stringify(v.length > 80 ? v.slice(0, 77) + '...' : v) : JSON.stringify(v)}`)
    .join(' ');
  return text.length > 200 ? text.slice(0, 197) + '...' : text;
}

export function asJson(value: unknown): JsonValue {
  return JSON.parse(JSON.stringify(value ?? null)) as JsonValue;
}
