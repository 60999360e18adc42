/**
 * The history panel's protocol: one map from `"history/verb"` to its request and response types
 * (the webview asks, the host answers by id), and the host's pushes. The panel asks in pages and
 * the host answers from the history store's worker, so neither side ever holds the whole database.
 * Zero imports but the other protocol files: the webview bundles this file as is; the host checks
 * every request with historyValidate.ts before a handler sees it.
 */
import type { MatchRange } from './historyMatch';
import type { RunEndStatus, RunTestsOutcome } from './agentEvents';
import type { RunWithoutEdits } from './runEnd';
import type { RestoreOutcome, RestorePointView, RestorePreview, RestoreRequest } from './restore';
import type { PatchStateView } from './patchState';

type Empty = Record<string, never>;

/** The words the CLI and the chat end a run with (RUN_END_STATUSES), or `running`. */
export type RunStatusName = 'running' | RunEndStatus;

/** One row of the runs list. */
export interface RunRowView {
  id: string;
  goal: string;
  status: RunStatusName;
  startedAt: number;
  endedAt: number | null;
  steps: number;
  patches: number;
  testRuns: number;
  tokensIn: number;
  tokensOut: number;
  costUsd: number;
  models: string[];
  /** A subagent's run: the run that spawned it. */
  parentRunId: string | null;
  /** How the run left the tests after its last edit; absent while it runs and on runs logged before it was kept. */
  tests?: RunTestsOutcome;
  /** The run ran tests and edited nothing: how its last test run went ("tests failed (no edits made)", as the chat says). */
  withoutEdits?: RunWithoutEdits;
}

export type SearchTypeName = 'runs' | 'observations' | 'patches' | 'tests';
export type HitKindName = 'run' | 'step' | 'policy' | 'observation' | 'qa' | 'patch' | 'test';

export interface HitView {
  kind: HitKindName;
  id: string;
  runId: string | null;
  runGoal: string | null;
  time: number;
  title: string;
  snippet: string;
  ranges: MatchRange[];
}

/** `accepted`: chosen in the open review of an Apply Again, not written yet (the window's patch states only, never recorded). */
export type HunkStateName = 'applied' | 'rejected' | 'refused' | 'not applied' | 'accepted';

export interface HunkStateView {
  id: string;
  path: string;
  /** 1-based lines of the hunk in the patch's old file, when the patch says. */
  oldStart?: number;
  oldLines?: number;
  state: HunkStateName;
  /** The user's reason (rejected) or the engine's or policy's (refused). */
  reason?: string;
}

/** One thing that happened in a run, in time order. Text from the model, files and commands is shown as text or sanitised markdown only. */
export type TimelineItem =
  | { kind: 'message'; id: string; time: number; role: 'user' | 'assistant' | 'system'; text: string }
  | {
      kind: 'tool';
      id: string;
      time: number;
      tool: string;
      /** Arguments as indented JSON, cut when long. */
      args: string;
      result: string;
      /** The result's full length (the shown result is cut past TIMELINE_TEXT_MAX). */
      resultChars: number;
      durationMs: number | null;
    }
  | {
      kind: 'patch';
      id: string;
      time: number;
      files: string[];
      appliedAt: number | null;
      /** The user undid it afterwards (the chat's Undo Patch, Undo Last Patch), at this time. */
      undoneAt?: number;
      /** The user applied it again afterwards (the history's Apply Again), at this time (the later of this and undoneAt is the one given). */
      reappliedAt?: number;
      hunks: HunkStateView[];
      /** The recorded before/after exist for the diff editor (else the patch's own hunks are shown). */
      hasSnapshots: boolean;
      canRevert: boolean;
      canApplyAgain: boolean;
      /**
       * Where the patch stands now in this window's one store of patch states (the chat's card and the
       * status bar show the same): undone, applied again, taken back by a restore, hunks decided in an
       * open review. Absent when the store does not know the patch.
       */
      now?: PatchStateView;
    }
  | {
      kind: 'test';
      id: string;
      time: number;
      command: string;
      trigger: string;
      exitCode: number | null;
      durationMs: number;
      summary: string;
      outputTail: string;
    }
  | {
      kind: 'policy';
      id: string;
      time: number;
      policyKind: string;
      subject: string;
      verdict: 'allow' | 'ask' | 'deny';
      rule: string | null;
      reason: string;
      /** The row records the user's answer to an approval, not a rule's verdict. */
      userAnswer: boolean;
    }
  | { kind: 'summary'; id: string; time: number; question: string; text: string };

export interface ObservationView {
  id: string;
  type: 'qa' | 'observation';
  tool: string | null;
  text: string;
  detail: string;
  path: string | null;
  time: number;
}

export interface RunTimelineView {
  run: RunRowView;
  items: TimelineItem[];
  /** The run's memory: observations and Q&A summaries. */
  observations: ObservationView[];
  /** Model usage by source (main, fast, compaction, subagent N); empty for runs recorded before it was. */
  usage?: UsageRowView[];
  /** The run's steps that changed files, from the workspace's checkpoint store (each can be restored to before it). */
  restorePoints?: RestorePointView[];
}

/** Model requests of one source (in a run, or in a day). */
export interface UsageRowView {
  source: string;
  requests: number;
  promptTokens: number;
  /** Of the prompt tokens, those served from the provider's prompt cache. */
  cachedTokens?: number;
  completionTokens: number;
  /** USD of the priced requests; null when none was priced. */
  costUsd: number | null;
  unpricedRequests: number;
}

/** One local day of the workspace's model usage (subagents counted once, in their parent run). */
export interface UsageDayRowView {
  /** YYYY-MM-DD, local time. */
  day: string;
  totalTokens: number;
  costUsd: number | null;
  sources: UsageRowView[];
}

export interface RetentionView {
  /** Runs and observations older than this are deleted (undefined: kept). */
  days?: number;
  maxObservations?: number;
  /** Where the values came from, for the panel's note ("user settings"). */
  source: string;
}

export interface HistoryProblem {
  level: 'info' | 'warning' | 'error';
  message: string;
}

export interface HistoryStatusView {
  /** The database file, for the panel's footer. */
  path: string;
  available: boolean;
  retention: RetentionView;
  problems: HistoryProblem[];
  trusted: boolean;
  /** The chat's run works: the panel's restore buttons wait (disabled, with the reason). */
  running?: boolean;
}

/** A time filter: [since, until) in ms; both absent for "all". */
export interface TimeRange {
  since?: number;
  until?: number;
}

export interface OperationResult {
  ok: boolean;
  message: string;
}

/** Webview -> host: request name -> [request payload, response payload]. */
export interface HistoryToHost {
  /** The panel (re)loaded: where the history is, what went wrong opening it, the retention. */
  'history/ready': [Empty, HistoryStatusView];
  /** A page of runs, newest first. */
  'history/runs': [{ offset: number; limit: number; since?: number; until?: number }, { runs: RunRowView[]; total: number }];
  'history/run': [{ runId: string }, { timeline?: RunTimelineView }];
  /** The workspace's model usage per day and source, the last `days` days, newest first. */
  'history/usage': [{ days: number }, { days: UsageDayRowView[] }];
  /** BM25 search; `prefix`: the last word is still being typed. */
  'history/search': [
    { query: string; since?: number; until?: number; types: SearchTypeName[]; prefix: boolean },
    { hits: HitView[]; terms: Array<{ text: string; prefix: boolean }> },
  ];
  /** Opens the recorded before and after in VS Code's diff editor. */
  'history/openPatch': [{ runId: string; patchId: string }, OperationResult];
  /** Applies the recorded patch's applied hunks again, through the run's review and PatchManager. */
  'history/applyAgain': [{ runId: string; patchId: string }, OperationResult];
  /** Applies the recorded reverse patch, through the run's review and PatchManager. */
  'history/revert': [{ runId: string; patchId: string }, OperationResult];
  /** Asks where to save, then writes the run as audit JSON or Markdown. */
  'history/export': [{ runId: string; format: 'json' | 'markdown' }, OperationResult];
  /** Asks for confirmation (a modal), then deletes the run. */
  'history/delete': [{ runId: string }, OperationResult];
  /** Opens the run's conversation in the chat, to continue it from that run's end. */
  'history/continueInChat': [{ runId: string }, OperationResult];
  /** Applies the retention settings now. */
  'history/applyRetention': [Empty, OperationResult];
  'history/openSettings': [Empty, OperationResult];
  /** A link in a message: the host opens http(s) only, after VS Code's own prompt. */
  'history/openLink': [{ url: string }, OperationResult];
  /** "Restore to before step N" of a run: the preview, a file's diff, the restore (the chat's, src/protocol/restore.ts). */
  'history/restorePreview': [RestoreRequest, RestorePreview];
  'history/restoreDiff': [RestoreRequest & { path: string }, OperationResult];
  'history/restoreApply': [RestoreRequest & { restoreRest: boolean }, RestoreOutcome];
}

/** Host -> webview pushes. */
export interface HistoryToWebview {
  /** Something was written (this window's run, another window, the CLI): query again. `runIds`: runs known to have changed (empty: any). */
  'history/changed': { runIds: string[] };
  'history/status': HistoryStatusView;
  /** "Show History" ran while the panel was open: focus the search box. */
  'history/focus': Empty;
}

export type HistoryToHostType = keyof HistoryToHost;
export type HistoryToWebviewType = keyof HistoryToWebview;

export type HistoryToHostMessage = { [K in HistoryToHostType]: { kind: 'request'; id: number; type: K; payload: HistoryToHost[K][0] } }[HistoryToHostType];

export type HistoryToWebviewMessage =
  | { [K in HistoryToWebviewType]: { kind: 'push'; type: K; payload: HistoryToWebview[K] } }[HistoryToWebviewType]
  | { [K in HistoryToHostType]: { kind: 'response'; id: number; type: K; ok: true; result: HistoryToHost[K][1] } }[HistoryToHostType]
  | { kind: 'response'; id: number; type: HistoryToHostType; ok: false; error: string };

/** What the host puts into the panel's HTML when it has it at hand (the window's store is open): the first paint needs no round trip. */
export interface HistoryBoot {
  status: HistoryStatusView;
  /** The first page of runs, all time (the panel asks again when its saved filter differs). */
  runs: RunRowView[];
  total: number;
}

/** Longest message, tool argument or result text the timeline carries (the rest is exported, not drawn). */
export const TIMELINE_TEXT_MAX = 20_000;
