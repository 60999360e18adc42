/**
 * What the user did outside the agent's run that the model must hear of: tests run on the user's
 * save (only when the result is news to the model), patches the user undid (also recorded with
 * the run that wrote them in the history) and patches the user applied again from the history. The chat shows each with a notice saying when the model
 * hears of it. One concept, kept out of ChatController, which owns the chat's run and its state.
 */
import type * as vscode from 'vscode';
import type { HistoryStore } from '../../../../core/history';
import { UNDO_STEP } from '../../../../core/history';
import { errorMessage } from '../../../../core/base';
import { formatTestSummary } from '../../../../core/testRuns';
import { RESTORE_STEP } from '../../../../core/historyView';
import type { RestoreDone } from '../../../../protocol/restore';
import type { AgentEvent } from '../../../../protocol/agentEvents';
import type { ChatEntry } from '../../../../protocol/chat';
import type { TriggeredTestRun } from '../../tests/testService';
import { TestNews } from '../../tests/testNews';

export interface UserActionNewsDeps {
  /** Tells the model now (a working run's next step) or with the next message. */
  tell(text: string): 'now' | 'next';
  notice(level: 'info' | 'warning', text: string): void;
  entry(entry: ChatEntry): void;
  log: Pick<vscode.LogOutputChannel, 'info' | 'warn'>;
  history?: () => Promise<HistoryStore | undefined>;
}

export class UserActionNews {
  /** What the model last saw of each test command: run on save tells it only news. */
  private readonly testNews = new TestNews();
  /** The run each written patch belongs to and its history id (by undoKey), so an undo is recorded with that run. */
  private readonly patchRuns = new Map<string, { runId: string; patchId?: string }>();
  private currentRunId: string | null = null;

  constructor(private readonly deps: UserActionNewsDeps) {}

  /** The run's own events: which run wrote which patch, and what the model saw of the tests. */
  noteEvent(e: AgentEvent): void {
    if (e.type === 'run/started') this.currentRunId = e.runId;
    if (e.type === 'patch/applied' && e.undoKey && this.currentRunId)
      this.patchRuns.set(e.undoKey, { runId: this.currentRunId, ...(e.patchId ? { patchId: e.patchId } : {}) });
    if (e.type === 'test/finished') this.testNews.saw({ command: e.command, exitCode: e.exitCode, summary: e.summary });
  }

  /** A new chat: the model of the next run has seen no tests. */
  clear(): void {
    this.testNews.clear();
  }

  /**
   * A run on save finished (the user saved; PatchPilot's own saves never trigger one). The chat shows
   * that it ran; the model hears of it only when the result differs from what it last saw of those tests.
   */
  testsRanOnSave(run: TriggeredTestRun): void {
    const verdicts = run.commands.map((c) => ({ command: c.command, exitCode: c.result.exitCode, summary: formatTestSummary(c.summary) }));
    const files = run.paths?.length ? run.paths.join(', ') : 'files';
    let told: string;
    if (this.testNews.isNews(verdicts)) {
      this.testNews.saw(...verdicts);
      const when = this.deps.tell(`[PatchPilot] The user saved ${files} and the tests ran:\n${run.text}`);
      told = when === 'now' ? 'the model hears of it at its next step' : 'the model hears of it with your next message';
      this.deps.log.info(`run-on-save result for the model (${when === 'now' ? 'the working run' : 'the next message'})`);
    } else told = 'the model already knew this result, so it was not told again';
    this.deps.notice(run.passed ? 'info' : 'warning', `Tests ran after you saved ${files}: ${run.passed ? 'passed' : 'FAILED'}; ${told}.`);
  }

  /** A patch was undone (the chat's Undo Patch or the palette's Undo Last Patch): the chat, the history and the model learn of it. */
  async patchUndone(key: string, label: string, files: string[]): Promise<void> {
    const one = files.length === 1;
    const when = this.deps.tell(
      `[PatchPilot] The user undid your patch to ${label}: ${one ? 'that file is' : 'those files are'} back as ${one ? 'it was' : 'they were'} before the patch. Read ${one ? 'it' : 'them'} again before you change ${one ? 'it' : 'them'}.`,
    );
    const written = this.patchRuns.get(key);
    // Recorded with its run first: the views that hear of the undo (patches/patchStates.ts) then read it from the history.
    const runId = written?.runId;
    if (runId) {
      try {
        const store = await this.deps.history?.();
        await store?.addStep(runId, { role: 'system', tool: UNDO_STEP, text: `The user undid the patch to ${label}.`, arguments: { undoKey: key, files } });
      } catch (err) {
        this.deps.log.warn(`the undo of the patch to ${label} is not in the history: ${errorMessage(err)}`);
      }
    }
    this.deps.entry({ kind: 'event', event: { type: 'patch/undone', undoKey: key, files, ...written } });
    this.deps.notice('info', `You undid the patch to ${label}; the model hears of it ${when === 'now' ? 'at its next step' : 'with your next message'}.`);
  }

  /**
   * A restore to a checkpoint (or its redo) wrote files: recorded with its run, so the patches it took
   * back are seeded as such after a reload (patches/patchSeed.ts). `since`: when the checkpoint of the
   * step it restores to before began (undefined: the store has no such point, nothing is recorded).
   */
  async restored(done: RestoreDone, since: number | undefined): Promise<void> {
    const { runId, beforeStep, redo } = done.request;
    if (!redo && since === undefined) return;
    const text = redo
      ? `The user redid what the run changed from step ${beforeStep} on (the restore was undone).`
      : `The user restored the files to before step ${beforeStep}: ${done.restored.join(', ')}.`;
    try {
      const store = await this.deps.history?.();
      await store?.addStep(runId, { role: 'system', tool: RESTORE_STEP, text, arguments: { beforeStep, redo, ...(since !== undefined ? { since } : {}) } });
    } catch (err) {
      this.deps.log.warn(`the restore to before step ${beforeStep} is not in the history: ${errorMessage(err)}`);
    }
  }

  /**
   * A patch was applied again (the history's Apply Again, recorded with its run there): the chat says
   * so beside the undo it follows, and the model hears of it, as of an undo.
   */
  patchReapplied(label: string, files: readonly string[]): void {
    const one = files.length === 1;
    const when = this.deps.tell(
      `[PatchPilot] The user applied your patch to ${label} again (from the history): ${one ? 'that file has' : 'those files have'} the patch's changes again. Read ${one ? 'it' : 'them'} again before you change ${one ? 'it' : 'them'}.`,
    );
    this.deps.notice(
      'info',
      `You applied the patch to ${label} again; the model hears of it ${when === 'now' ? 'at its next step' : 'with your next message'}.`,
    );
  }
}
