/**
 * What an agent run tells its viewers (the chat webview, the CLI's printer, tests): one typed
 * event per thing that happened, in order. Zero imports: the webview bundles this file as is.
 */

export type ApprovalModeName = 'ask' | 'auto-edit' | 'auto' | 'plan';

/** `interrupted`: the model's stream broke off twice in one step; the run can be tried again. */
export type RunEndStatus = 'finished' | 'limit' | 'failed' | 'cancelled' | 'interrupted';

/** Tokens and cost of one model role in a run; cost is undefined when the model has no known price. */
export interface RoleUsageView {
  model: string;
  requests: number;
  promptTokens: number;
  completionTokens: number;
  cost?: number;
}

export interface HunkView {
  /** `${path}#${index}` */
  id: string;
  path: string;
  status: 'applied' | 'would-apply' | 'refused' | 'rejected';
  /** 1-based lines in the original file. */
  startLine?: number;
  endLine?: number;
  reason?: string;
}

export type AgentEvent =
  | {
      type: 'run/started';
      runId: string | null;
      goal: string;
      mode: ApprovalModeName;
      model: string;
      /** The reasoning model's context window in tokens, for the "context fill" of the usage line. */
      contextWindow?: number;
      git: { isRepo: boolean; head: string | null; branch: string | null; dirty: string[] };
    }
  | { type: 'step/started'; step: number }
  /** A message the user sent during the run, now in the conversation (the model sees it at this step). */
  | { type: 'user/delivered'; text: string }
  /** Streamed reply text; drop everything since the last step/started on `text/restart`. */
  | { type: 'text/delta'; text: string }
  | { type: 'text/restart'; reason: string }
  | { type: 'model/retrying'; attempt: number; delayMs: number; reason: string }
  | { type: 'tool/started'; callId: string; name: string; args: unknown }
  | { type: 'tool/finished'; callId: string; name: string; ok: boolean; output: string; durationMs: number }
  | { type: 'patch/proposed'; hunks: HunkView[]; ok: boolean; error?: string }
  | { type: 'approval/needed'; kind: 'patch' | 'command' | 'write' | 'tests' | 'fetch' | 'mcp'; title: string; reason?: string }
  | { type: 'approval/answered'; kind: string; approved: boolean; accepted?: string[]; /** patch hunks the user rejected, with the reason typed */ rejected?: { id: string; reason?: string }[] }
  | { type: 'test/started'; command: string }
  | { type: 'test/finished'; command: string; exitCode: number | null; durationMs: number; summary: string }
  | {
      type: 'usage';
      /** Which model the request went to (absent: the agent's model). */
      role?: 'reasoning' | 'fast';
      promptTokens: number;
      completionTokens: number;
      /** The agent's requests: the prompt tokens PatchPilot counted before sending, and its budget (src/core/context). */
      countedPromptTokens?: number;
      budgetTokens?: number;
      /** Run totals so far. */
      totalPromptTokens: number;
      totalCompletionTokens: number;
      /** USD for the run so far; undefined when no model had a price. */
      totalCost?: number;
    }
  | { type: 'warning'; message: string }
  /** spawn_subagent: a child agent started (after waiting for a free slot) on `task`; `index` counts within the run. */
  | { type: 'subagent/started'; index: number; task: string; tools: string[] }
  | { type: 'subagent/finished'; index: number; status: RunEndStatus; reason: string; steps: number; runId: string | null }
  /**
   * The conversation went over its token budget and was compacted: older work summarized (by
   * `model`), then, if still over, the oldest summaries or earlier exchanges dropped, or the
   * largest messages cut. Tokens as counted for the next request.
   */
  | {
      type: 'context/summarized';
      beforeTokens: number;
      afterTokens: number;
      budgetTokens: number;
      summarizedMessages: number;
      model?: string;
      /** True when a summary is a plain list of steps (the model failed). */
      digest: boolean;
      droppedSummaries: number;
      droppedExchanges: number;
      cutMessages: number;
    }
  | {
      type: 'run/finished';
      status: RunEndStatus;
      reason: string;
      summary?: string;
      steps: number;
      /** Per model role: the agent's model and the fast model (insights, Q&A summary). */
      usage?: { reasoning: RoleUsageView; fast: RoleUsageView; totalCost?: number };
    };
