/**
 * The history steps (role `system`) that keep a run's context: each compaction with its summaries,
 * the chat's earlier turns at the start, the transcript at the end. core/session/resume.ts reads
 * them back to continue a session after a restart.
 */
import type { AgentEvent } from '../../protocol/agentEvents';
import { formatTokens } from '../context/budget';
import type { CompactionReport } from '../context/contextManager';
import { describeContextWindow, type ContextWindow } from '../llm/contextWindows';
import type { ChatModel } from '../ports/chatModel';
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

/**
 * Before the first request: asks the endpoint for both models' windows (once per base URL and
 * model, cached by the client), so the budget and the run's header use the window in force.
 * Returns the agent model's window, how to say where it came from, and what the user should know.
 */
export async function resolveWindows(
  model: Pick<ChatModel, 'contextWindow' | 'resolveContextWindow'>,
  signal: AbortSignal,
): Promise<{ window: ContextWindow; note: string; warnings: string[] }> {
  // Both roles, even with one model name: the fast one may live on another base URL (the client caches per URL and model).
  const roles = ['reasoning', 'fast'] as const;
  const windows = await Promise.all(roles.map((role) => model.resolveContextWindow?.(role, signal) ?? model.contextWindow(role)));
  const warnings = [...new Set(windows.map((x) => x.warning))].filter((w): w is string => !!w);
  return { window: windows[0]!, note: describeContextWindow(windows[0]!), warnings };
}
