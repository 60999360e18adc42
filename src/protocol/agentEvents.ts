/**
 * What an agent run tells its viewers (the chat webview, the CLI's printer, tests): one typed
 * event per thing that happened, in order. Zero imports: the webview bundles this file as is.
 */

export type ApprovalModeName = 'ask' | 'auto-edit' | 'auto' | 'plan';

/**
 * How a run ended, one vocabulary for every viewer and for the history database:
 * - `finished`: the model called finish (or replied without a tool call);
 * - `limit`: the step limit or the wall clock stopped it;
 * - `failed`: the model request failed, or every tool call failed several steps in a row;
 * - `blocked`: every edit it tried needed an approval nobody could give (a headless `ask` run);
 * - `cancelled`: the user stopped it (Ctrl-C, SIGTERM, SIGHUP, the Stop button);
 * - `interrupted`: the model's stream broke off twice in one step, or the process running it is gone;
 * - `stopped`: a spend limit (tokens, cost, the workspace's day) or the loop guard (the same failing
 *   tool call again and again) stopped it; `stoppedBy` says which.
 */
export const RUN_END_STATUSES = ['finished', 'limit', 'failed', 'blocked', 'cancelled', 'interrupted', 'stopped'] as const;
export type RunEndStatus = (typeof RUN_END_STATUSES)[number];

/** What stopped a `stopped` run: a budget, or the same failing tool call repeated. */
export type RunStoppedBy = 'budget' | 'repeated-failure';

/**
 * The tests after the run's last file change: they passed, they failed, or none ran since (a change
 * after the last test run, or no tests at all); 'known-failures': some fail, but each failed before
 * the run, is flaky (passed on its rerun) or passed when run alone. A finished run whose tests
 * failed is not a success; one with known failures is, with a note (CLI exit code 3).
 */
export const RUN_TEST_OUTCOMES = ['passed', 'failed', 'known-failures', 'not-run'] as const;
export type RunTestsOutcome = (typeof RUN_TEST_OUTCOMES)[number];

/** The failing tests the run ends with, by kind (names as the runner gives them). */
export interface TestFailureNames {
  /** Failures the run introduced: they did not fail before its first change. */
  new?: string[];
  /** Failed before the run's first change too. */
  preExisting?: string[];
  /** Failed, then passed when rerun. */
  flaky?: string[];
  /** Failed in the whole suite, passed when the model ran them alone after the last change. */
  passedAlone?: string[];
}

/** Tokens and cost of one model role in a run; cost is undefined when the model has no known price. */
export interface RoleUsageView {
  model: string;
  requests: number;
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens the provider served from its prompt cache (part of promptTokens). */
  cachedTokens?: number;
  cost?: number;
}

export type ModelNoticeKind =
  | 'refusal'
  | 'unread-content'
  | 'reasoning-only'
  | 'empty-reply'
  | 'text-tool-calls'
  | 'context-overflow'
  /** The provider's content filter (or a refusal stop reason) stopped the reply. */
  | 'content-filter'
  /** The output token limit cut the reply (or a tool call being written). */
  | 'output-limit'
  /** The provider ended the reply for a reason that needs saying (a pause, a stop reason PatchPilot does not know). */
  | 'stop-reason'
  /** The model called finish while the tests after its last edit failed: it was asked to try again. */
  | 'finish-refused';

/** Why a failed run failed, for the viewers' actions: `unreachable` offers the settings, a `retryable` fault a Retry. */
export interface RunFailure {
  kind: string;
  retryable: boolean;
}

export interface RuleView {
  /** Workspace-relative path of the rules file. */
  path: string;
  why: string;
  listed?: boolean;
}

export interface HunkView {
  /** `${path}#${number}`, the hunk number from 1 as messages show it */
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
      /** The window in force and where it came from: "context: 32,768 tokens (from the endpoint's /v1/models)". */
      contextWindowNote?: string;
      git: { isRepo: boolean; head: string | null; branch: string | null; dirty: string[] };
    }
  | { type: 'step/started'; step: number }
  /** A message the user sent during the run, now in the conversation (the model sees it at this step). */
  | { type: 'user/delivered'; text: string }
  /** Streamed reply text; drop everything since the last step/started on `text/restart`. */
  | { type: 'text/delta'; text: string }
  | { type: 'text/restart'; reason: string }
  /** Streamed reasoning (any provider's dialect), shown apart from the reply (a collapsed "Thinking" block). */
  | { type: 'reasoning/delta'; text: string }
  /** The text streamed since the step began was reasoning after all (an unmarked `<think>` block): drop it as text, show it as reasoning. */
  | { type: 'reasoning/fromText'; text: string }
  /**
   * Something about the model's reply the user must see: a refusal, a part the client could not
   * read, a reply of reasoning only, tool calls read from text, a prompt the server found too long.
   */
  | { type: 'model/notice'; kind: ModelNoticeKind; message: string }
  | { type: 'model/retrying'; attempt: number; delayMs: number; reason: string }
  | { type: 'tool/started'; callId: string; name: string; args: unknown }
  | { type: 'tool/finished'; callId: string; name: string; ok: boolean; output: string; durationMs: number }
  /** A checkpoint that takes long (the first of a large workspace): `done` of `total` files kept so far, at most twice a second. */
  | { type: 'checkpoint/progress'; callId: string; done: number; total: number }
  /** A step's files were kept before it ran (src/core/checkpoint): "restore to before step `step`" undoes them. */
  | { type: 'checkpoint/saved'; runId: string; step: number; callId: string; tool: string; paths: string[] }
  /**
   * `diff`: what the patch would change, as a unified diff (absent when refused); `warnings`: what the parser tolerated.
   * `patchId`: the id of the patch's row in the history database (absent when the run is not recorded).
   */
  | { type: 'patch/proposed'; patchId?: string; hunks: HunkView[]; ok: boolean; error?: string; diff?: string; warnings?: string[] }
  /**
   * The patch was written: the hunks that went in (`edited`: the user's own version of it went in
   * instead), of `total` proposed. `undoKey` names the write for the chat's Undo Patch (absent where
   * nothing can undo it, e.g. the CLI).
   */
  | { type: 'patch/applied'; patchId?: string; files: string[]; hunks: HunkView[]; total: number; edited?: boolean; undoKey?: string }
  /**
   * A proposed patch went in nowhere: the engine refused it, the user rejected every hunk, the path
   * policy denied it, or plan mode only proposes. `hunks`: each hunk's id, who refused it and why.
   */
  | {
      type: 'patch/refused';
      patchId?: string;
      files: string[];
      hunks: { id: string; state: 'rejected' | 'refused'; reason?: string }[];
    }
  /** The user undid a written patch (the chat's Undo Patch, or Undo Last Patch): the files are back as they were before it. */
  | { type: 'patch/undone'; undoKey: string; files: string[]; patchId?: string; runId?: string }
  | { type: 'approval/needed'; kind: 'patch' | 'command' | 'write' | 'tests' | 'fetch' | 'mcp' | 'hook'; title: string; reason?: string }
  /** `rejected`: patch hunks the user rejected, with the reason typed; `unattended`: nobody could be asked (no terminal), refused for want of approval. */
  | {
      type: 'approval/answered';
      kind: string;
      approved: boolean;
      accepted?: string[];
      rejected?: { id: string; reason?: string }[];
      unattended?: boolean;
      /** A patch the user edited in the review before accepting: their version is what gets written. */
      edited?: boolean;
      /** The patch's hunks in all (to say "2 of 3"). */
      total?: number;
    }
  /** Sent again with `note` while a call waits for this run (the baseline, started with the run): "waiting for ... 41 s so far". */
  | { type: 'test/started'; command: string; note?: string }
  /** `whole`: the run covered the whole suite (not aimed at related tests or a narrowing, or its runner ignored the aim). */
  | { type: 'test/finished'; command: string; exitCode: number | null; durationMs: number; summary: string; whole?: boolean }
  | {
      type: 'usage';
      /** Which model the request went to (absent: the agent's model). */
      role?: 'reasoning' | 'fast';
      /** The model the request named, and the one the server says answered (absent: a subagent's totals). */
      model?: string;
      responseModel?: string;
      promptTokens: number;
      /** Of promptTokens, served from the provider's prompt cache. */
      cachedTokens?: number;
      /** This request: how long it took (retries included) and its USD cost, when known. */
      durationMs?: number;
      cost?: number;
      completionTokens: number;
      /** The agent's requests: the prompt tokens PatchPilot counted before sending, and its budget (src/core/context). */
      countedPromptTokens?: number;
      budgetTokens?: number;
      /** Run totals so far. */
      totalPromptTokens: number;
      /** Of totalPromptTokens, served from the provider's prompt cache. */
      totalCachedTokens?: number;
      totalCompletionTokens: number;
      /** USD for the run so far; undefined when no model had a price. */
      totalCost?: number;
    }
  | { type: 'warning'; message: string }
  /**
   * Rules files now in the system prompt (AGENTS.md, CLAUDE.md, Cursor, Cline, Roo, Copilot; docs/rules.md):
   * those of the start (`initial`), then those a file the run read or edited brought in. `why`: "always",
   * "folder src/ touched", "globs src/**\/*.ts: src/a.ts"; `listed`: a description-only rule the model reads itself.
   */
  | { type: 'rules/loaded'; initial: boolean; rules: RuleView[] }
  /**
   * A hook (patchpilot.hooks, src/core/hooks) ran on `event`: it let the run go on (`ok`), `blocked` it
   * (the reason went to the model, or to the user for a prompt), failed (`error`: reported, not blocking),
   * or was `refused` by the command policy's deny rules and did not run. `tool`: the call it ran for.
   */
  | {
      type: 'hook/ran';
      event: string;
      command: string;
      source: 'user' | 'workspace';
      outcome: 'ok' | 'blocked' | 'error' | 'refused';
      reason?: string;
      tool?: string;
      durationMs: number;
    }
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
      /** The run's id in the history database, as run/started gave it (null: not recorded). */
      runId?: string | null;
      status: RunEndStatus;
      reason: string;
      summary?: string;
      steps: number;
      /** A run that failed at the model: what kind of fault (absent for other endings). */
      failure?: RunFailure;
      /** The tests after the last file change (absent from runs recorded before it existed). */
      tests?: RunTestsOutcome;
      /** The tests failing at the end, by kind (absent when none fail). */
      testFailures?: TestFailureNames;
      /** A `stopped` run: what stopped it. */
      stoppedBy?: RunStoppedBy;
      /** Per model role: the agent's model and the fast model (insights, Q&A summary). */
      usage?: { reasoning: RoleUsageView; fast: RoleUsageView; totalCost?: number };
    };
