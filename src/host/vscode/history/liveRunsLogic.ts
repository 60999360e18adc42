/**
 * This window's run in progress, as the runs list shows it before the store has it: the agent's
 * store saves within two seconds and the panel's store reads the file then, but a run should appear
 * at once. Fed with the agent's events; a row is dropped once the store lists the run. No `vscode`.
 */
import type { AgentEvent } from '../../../protocol/agentEvents';
import type { RunRowView } from '../../../protocol/history';

const STATUS = { finished: 'succeeded', limit: 'failed', failed: 'failed', cancelled: 'cancelled', interrupted: 'interrupted' } as const;

export class LiveRuns {
  private readonly rows = new Map<string, RunRowView>();
  private current: string | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  /** Returns the id of the run the event belongs to (the panel refreshes it), if any. */
  onEvent(e: AgentEvent): string | undefined {
    if (e.type === 'run/started') {
      if (!e.runId) return undefined; // a run without history is not in the panel either
      this.current = e.runId;
      this.rows.set(e.runId, {
        id: e.runId,
        goal: e.goal,
        status: 'running',
        startedAt: this.now(),
        endedAt: null,
        steps: 0,
        patches: 0,
        testRuns: 0,
        tokensIn: 0,
        tokensOut: 0,
        costUsd: 0,
        models: [e.model],
        live: true,
      });
      return e.runId;
    }
    const id = this.current;
    const row = id ? this.rows.get(id) : undefined;
    if (!id || !row) return undefined;
    if (e.type === 'step/started') row.steps = Math.max(row.steps, e.step);
    else if (e.type === 'patch/proposed') row.patches++;
    else if (e.type === 'test/finished') row.testRuns++;
    else if (e.type === 'usage') {
      row.tokensIn = e.totalPromptTokens;
      row.tokensOut = e.totalCompletionTokens;
      if (e.totalCost !== undefined) row.costUsd = e.totalCost;
    } else if (e.type === 'run/finished') {
      row.status = STATUS[e.status];
      row.endedAt = this.now();
      this.current = undefined;
    }
    return id;
  }

  /** Rows the store does not list yet, within [since, until). */
  pending(stored: (id: string) => boolean, since?: number, until?: number): RunRowView[] {
    const out: RunRowView[] = [];
    for (const [id, row] of this.rows) {
      if (stored(id)) {
        if (row.status !== 'running') this.rows.delete(id);
        continue;
      }
      if ((since === undefined || row.startedAt >= since) && (until === undefined || row.startedAt < until)) out.push({ ...row });
    }
    return out.sort((a, b) => b.startedAt - a.startedAt);
  }

  all(): RunRowView[] {
    return [...this.rows.values()].map((r) => ({ ...r }));
  }
}
