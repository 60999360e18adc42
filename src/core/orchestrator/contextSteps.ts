/**
 * The history steps (role `system`) that keep a run's context: each compaction with its summaries,
 * the chat's earlier turns at the start, the transcript at the end. core/session/resume.ts reads
 * them back to continue a session after a restart.
 */
import type { AgentEvent } from '../../protocol/agentEvents';
import { formatTokens } from '../context/budget';
import type { CompactionReport } from '../context/contextManager';
import { asJson, type RunRecorder } from './recorder';

import { SUMMARY_STEP } from '../history/types';

export { EARLIER_STEP, SUMMARY_STEP, TRANSCRIPT_STEP } from '../history/types';

/** A compaction goes to the history (with its summaries) and to the viewers. */
export function recordCompaction(r: CompactionReport, recorder: RunRecorder, emit: (e: AgentEvent) => void): void {
  const text = `context summarized: ${formatTokens(r.beforeTokens)} -> ${formatTokens(r.afterTokens)} tokens (budget ${formatTokens(r.budgetTokens)})`;
  recorder.step({ role: 'system', tool: SUMMARY_STEP, text, arguments: asJson(r) });
  emit({
    type: 'context/summarized',
    beforeTokens: r.beforeTokens,
    afterTokens: r.afterTokens,
    budgetTokens: r.budgetTokens,
    summarizedMessages: r.summarizedMessages,
    model: r.model,
    digest: r.digests > 0,
    droppedSummaries: r.droppedSummaries,
    droppedExchanges: r.droppedExchanges,
    cutMessages: r.cutMessages,
  });
}

