import { OBSERVATION_RESULT_MIN } from '../history/types';
import { FastModelWork, type InsightItem, type RunFacts } from './fastModel';
import type { RunRecorder } from './recorder';

/** Observations waiting for their insights; at this many, one fast request writes them mid-run. */
export const INSIGHT_BATCH = 16;
const JOURNAL_MAX = 200;

/**
 * What a run leaves for later runs: observations (a tool result plus a one-line insight) and the
 * Q&A summary. Observations wait in a batch so the fast model writes many insights per request:
 * a mid-run flush only when INSIGHT_BATCH are waiting, the rest at the end of the run.
 */
export class RunMemory {
  private readonly waiting: (InsightItem & { path: string | null })[] = [];
  private readonly insights: string[] = [];
  private readonly journal: string[] = [];

  constructor(
    private readonly goal: string,
    private readonly fast: FastModelWork,
    private readonly recorder: RunRecorder,
  ) {}

  /** One line per tool call for the Q&A summary. */
  noteCall(line: string): void {
    this.journal.push(line);
    if (this.journal.length > JOURNAL_MAX) this.journal.splice(0, this.journal.length - JOURNAL_MAX);
  }

  /** Keeps an observation for the next flush; flushes now when the batch is full. */
  async observe(item: InsightItem, signal: AbortSignal): Promise<void> {
    // Nothing is recorded, or the store would drop a result this short: no reason to pay for an insight.
    if (!this.recorder.runId || item.output.trim().length < OBSERVATION_RESULT_MIN) return;
    const path = typeof item.args.path === 'string' ? item.args.path : null;
    this.waiting.push({ ...item, path });
    if (this.waiting.length >= INSIGHT_BATCH) await this.flush(signal);
  }

  async flush(signal: AbortSignal): Promise<void> {
    const batch = this.waiting.splice(0);
    if (!batch.length) return;
    const texts = await this.fast.insights(this.goal, batch, signal);
    for (const [i, item] of batch.entries()) {
      this.insights.push(texts[i]!);
      this.recorder.observation(item.tool, texts[i]!, item.output, item.path);
    }
  }

  /** The end of the run: the waiting observations, then the Q&A summary (question: the goal). */
  async finish(outcome: Omit<RunFacts, 'goal' | 'journal' | 'insights'>, signal: AbortSignal): Promise<void> {
    await this.flush(signal);
    if (!this.recorder.runId) return;
    // A run that ended without finishing and without one tool call (the model failed: a bad key, a
    // quota, a server down; or it was stopped at once) learned nothing: its error text would only
    // crowd later prompts' "From earlier runs". The history keeps the run and its reason all the same.
    if (outcome.status !== 'finished' && this.journal.length === 0 && this.insights.length === 0) return;
    const answer = await this.fast.qaAnswer({ ...outcome, goal: this.goal, journal: this.journal, insights: this.insights }, signal);
    this.recorder.qaSummary(this.goal, answer);
  }
}
