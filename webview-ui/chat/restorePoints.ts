/**
 * Where the chat offers "Restore to Here": on each step that changed files (after its tool call) and
 * on the user message that started the run ("Restore to Here, before this message": before the run's first
 * step that changed files); and the lines of restores done, the newest with "Redo restore ...".
 * Drawn from the saved entries (checkpoint/saved events, restore entries), so a reload keeps them.
 */
import type { AgentEvent } from '../../src/protocol/agentEvents';
import type { RestoreDone } from '../../src/protocol/restore';
import { el } from '../shared/components';
import type { RestoreControls } from '../shared/restorePreview';

type Saved = Extract<AgentEvent, { type: 'checkpoint/saved' }>;

export class ChatRestorePoints {
  private readonly steps = new Set<string>();
  private readonly runsWithMessageButton = new Set<string>();
  /** The last non-queued user message, until the run it started begins. */
  private pendingMessage: HTMLElement | undefined;
  /** The run's user message, by the run's element. */
  private readonly messages = new WeakMap<HTMLElement, HTMLElement>();
  private lastRedo: HTMLElement | undefined;

  constructor(private readonly controls: RestoreControls | undefined) {}

  reset(): void {
    this.steps.clear();
    this.runsWithMessageButton.clear();
    this.pendingMessage = undefined;
    this.lastRedo = undefined;
    this.controls?.clear();
  }

  userMessage(message: HTMLElement): void {
    this.pendingMessage = message;
  }

  runStarted(runRoot: HTMLElement): void {
    if (this.pendingMessage) this.messages.set(runRoot, this.pendingMessage);
    this.pendingMessage = undefined;
  }

  /** A step's checkpoint: a button after its tool call (once per step), and one on the run's message (once per run). */
  checkpoint(e: Saved, runRoot: HTMLElement, toolItem: HTMLElement | undefined): void {
    const controls = this.controls;
    if (!controls) return;
    const key = `${e.runId}:${e.step}`;
    if (!this.steps.has(key)) {
      this.steps.add(key);
      const files = e.paths.length === 1 ? e.paths[0]! : `${e.paths.length} files`;
      const row = controls.restoreButton(
        { runId: e.runId, beforeStep: e.step, redo: false },
        {
          label: `Restore to Before Step ${e.step}`,
          name: `Restore to before step ${e.step}`,
          title: `Step ${e.step} changed ${files}: put them back as they were before it`,
        },
      );
      if (toolItem?.parentElement === runRoot) toolItem.after(row);
      else runRoot.append(row);
    }
    const message = this.messages.get(runRoot);
    if (message && !this.runsWithMessageButton.has(e.runId)) {
      this.runsWithMessageButton.add(e.runId);
      message.append(
        controls.restoreButton(
          { runId: e.runId, beforeStep: e.step, redo: false },
          {
            label: 'Restore to Here',
            name: 'Restore to Here, before this message',
            title: 'Put back every file this run changed as it was before this message',
          },
        ),
      );
    }
  }

  /** A restore done: its line, with Redo on the newest (only the last restore can be redone). */
  restoreDone(done: RestoreDone): HTMLElement {
    const n = done.restored.length;
    const files = done.restored.slice(0, 8).join(', ') + (n > 8 ? `, and ${n - 8} more` : '');
    const skipped = done.skipped.length
      ? ` ${done.skipped.map((b) => b.path).join(', ')} stayed as ${done.skipped.length === 1 ? 'it was' : 'they were'}.`
      : '';
    const text = done.request.redo
      ? `You redid the run's changes from step ${done.request.beforeStep} on (${files}).${skipped}`
      : `You restored ${n} file${n === 1 ? '' : 's'} to before step ${done.request.beforeStep}: ${files}.${skipped} PatchPilot tells the model at its next turn.`;
    const line = el('div', 'pp-note pp-restore-done', text);
    this.lastRedo?.remove();
    this.lastRedo = undefined;
    if (!done.request.redo && this.controls) {
      this.lastRedo = this.controls.redoButton({ ...done.request, redo: true });
      line.append(this.lastRedo);
    }
    return line;
  }
}
