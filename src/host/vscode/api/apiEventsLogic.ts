/**
 * The public API's events (src/protocol/patchPilotApi.ts), derived from the agent events the chat
 * already receives: one adapter, no plumbing of its own. It follows the run the events belong to,
 * so every payload carries the history's run id. Plain Node (no vscode): unit-tested as is.
 */
import type { AgentEvent, HunkView } from '../../../protocol/agentEvents';
import type {
  PatchAppliedEvent,
  PatchHunkState,
  PatchPilotApiEvents,
  PatchProposedEvent,
  PatchRefusedEvent,
  PatchUndoneEvent,
  RunFinishedEvent,
  RunStartedEvent,
  TestsFinishedEvent,
} from '../../../protocol/patchPilotApi';
import { Emitter } from '../../../core/base';

export class ApiEvents {
  private readonly started = new Emitter<RunStartedEvent>();
  private readonly proposed = new Emitter<PatchProposedEvent>();
  private readonly applied = new Emitter<PatchAppliedEvent>();
  private readonly refused = new Emitter<PatchRefusedEvent>();
  private readonly undone = new Emitter<PatchUndoneEvent>();
  private readonly tests = new Emitter<TestsFinishedEvent>();
  private readonly finished = new Emitter<RunFinishedEvent>();
  /** The run the events now arriving belong to (an undo after the run names its own). */
  private runId: string | null = null;
  /** The step now running (from `step/started`); cleared when the run ends. */
  private step: number | undefined;

  readonly events: PatchPilotApiEvents = {
    onDidStartRun: this.started.event,
    onDidProposePatch: this.proposed.event,
    onDidApplyPatch: this.applied.event,
    onDidRefusePatch: this.refused.event,
    onDidUndoPatch: this.undone.event,
    onDidFinishTests: this.tests.event,
    onDidFinishRun: this.finished.event,
  };

  /** One agent event in; at most one API event out (the others are the chat's business). */
  take(e: AgentEvent): void {
    const runId = this.runId;
    const step = this.step === undefined ? {} : { step: this.step };
    switch (e.type) {
      case 'step/started':
        this.step = e.step;
        break;
      case 'run/started':
        this.runId = e.runId;
        this.step = undefined;
        this.started.fire({ runId: e.runId, goal: e.goal, mode: e.mode, model: e.model });
        break;
      case 'patch/proposed':
        this.proposed.fire({
          runId,
          ...step,
          ...idOf(e.patchId),
          ok: e.ok,
          ...(e.error ? { error: e.error } : {}),
          hunks: e.hunks.map(hunk),
          ...(e.diff ? { diff: e.diff } : {}),
        });
        break;
      case 'patch/applied':
        this.applied.fire({ runId, ...step, ...idOf(e.patchId), files: e.files, hunks: e.hunks.map(hunk), total: e.total, edited: e.edited === true });
        break;
      case 'patch/refused':
        this.refused.fire({ runId, ...step, ...idOf(e.patchId), files: e.files, hunks: e.hunks });
        break;
      case 'patch/undone':
        this.undone.fire({ runId: e.runId ?? runId, ...idOf(e.patchId), files: e.files });
        break;
      case 'test/finished':
        this.tests.fire({ runId, ...step, command: e.command, passed: e.exitCode === 0, exitCode: e.exitCode, durationMs: e.durationMs, summary: e.summary });
        break;
      case 'run/finished':
        this.step = undefined;
        this.finished.fire({
          runId: e.runId === undefined ? runId : e.runId,
          status: e.status,
          reason: e.reason,
          steps: e.steps,
          ...(e.tests ? { tests: e.tests } : {}),
          ...(e.summary ? { summary: e.summary } : {}),
        });
        break;
    }
  }

  dispose(): void {
    for (const emitter of [this.started, this.proposed, this.applied, this.refused, this.undone, this.tests, this.finished]) emitter.dispose();
  }
}

function idOf(patchId: string | undefined): { patchId?: string } {
  return patchId ? { patchId } : {};
}

function hunk(h: HunkView): PatchHunkState {
  return { id: h.id, path: h.path, status: h.status, ...(h.reason ? { reason: h.reason } : {}) };
}
