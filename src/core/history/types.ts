import type { RunTestsOutcome } from '../../protocol/agentEvents';
import type { RunWithoutEdits } from '../../protocol/runEnd';
/**
 * The history store's public vocabulary. The orchestrator, the VS Code host and the CLI depend on
 * `HistoryStore` only; the sql.js implementation (worker-backed or in-process) is chosen by `openHistoryStore`.
 */
import type { Event } from '../base';
import type { Verdict } from '../policy/types';
import { RUN_END_STATUSES, type RunEndStatus } from '../../protocol/agentEvents';
import type { HistorySearchOptions, HistorySearchResult, SearchHit, SearchOptions } from './searchTypes';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** The run's state: `running`, or how it ended, in the words the CLI and the chat use (protocol/agentEvents.ts). */
export type RunStatus = 'running' | RunEndStatus;
export const RUN_STATUSES: readonly RunStatus[] = ['running', ...RUN_END_STATUSES];
export type StepRole = 'system' | 'user' | 'assistant' | 'tool';
export type TestTrigger = 'agent' | 'save' | 'manual';
export type ObservationType = 'qa' | 'observation';
export type PolicyKind = 'command' | 'path' | 'network';

export interface RunStart {
  goal: string;
  reasoningModel?: string | null;
  fastModel?: string | null;
  startedAt?: number;
  /** A subagent's run: the run that spawned it. */
  parentRunId?: string | null;
}

export interface RunFinish {
  status: RunEndStatus;
  /** Model steps (requests to the reasoning model), the number the CLI and the chat show. */
  steps?: number;
  tokensIn?: number;
  tokensOut?: number;
  costUsd?: number;
  endedAt?: number;
}

export interface RunRecord {
  id: string;
  goal: string;
  reasoningModel: string | null;
  fastModel: string | null;
  status: RunStatus;
  /** Model steps; for a run still going, the steps recorded so far. */
  steps: number;
  startedAt: number;
  endedAt: number | null;
  tokensIn: number;
  tokensOut: number;
  costUsd: number;
  /** Set for a subagent's run: the run that spawned it. */
  parentRunId: string | null;
}

export interface RunSummary extends RunRecord {
  patchCount: number;
  testRunCount: number;
  /** How the run left the tests after its last edit (its TESTS_STEP); absent while it runs and on older runs. */
  tests?: RunTestsOutcome;
  /** The run ran tests and edited nothing: how its last test run went (the list says so, not "tests not run"). */
  withoutEdits?: RunWithoutEdits;
}

export interface StepInput {
  role: StepRole;
  text?: string | null;
  tool?: string | null;
  arguments?: JsonValue;
  result?: string | null;
  durationMs?: number | null;
  time?: number;
}

export interface StepRecord {
  id: string;
  runId: string;
  seq: number;
  role: StepRole;
  text: string | null;
  tool: string | null;
  arguments: JsonValue;
  result: string | null;
  durationMs: number | null;
  time: number;
}

export interface PatchInput {
  /** The row's id when the caller chose it beforehand (the run's events carry it before the write); default: a new UUID. */
  id?: string;
  text: string;
  files: string[];
  /** Hunk ids (`path#index`) that were applied. */
  acceptedHunks: JsonValue[];
  /** Hunks not applied: ids, or HunkNote objects with who refused them and why. */
  rejectedHunks: JsonValue[];
  reversePatch?: string | null;
  appliedAt?: number | null;
  /** Each file before and after (what was written, or what was proposed when nothing was), for a later read-only diff. */
  snapshots?: PatchFileSnapshot[] | null;
  /** When it was proposed (default: now), so it sits next to the call that proposed it. */
  time?: number;
}

/**
 * The tools of the system steps that keep a run's context (written by core/orchestrator/contextSteps.ts,
 * read by the session's resume, the timeline and search): a compaction, the chat's earlier turns
 * given at the start, the transcript at the end.
 */
export const SUMMARY_STEP = 'context/summary';
export const EARLIER_STEP = 'context/earlier';
export const TRANSCRIPT_STEP = 'context/transcript';
/**
 * A model reply's reasoning (orchestrator/modelStep.ts): kept and shown in the run's timeline, but not
 * a search result by default (it is long and repeats what the steps say; searchAll.ts filters it).
 */
export const REASONING_STEP = 'model/reasoning';
/** The user undid one of the run's patches (the chat's Undo Patch, Undo Last Patch): arguments `{ undoKey, files }` (patch/undoKey.ts of its reverse patch). */
export const UNDO_STEP = 'patch/undo';
/** The user applied one of the run's patches again (the history's Apply Again): arguments `{ undoKey, files }`, as UNDO_STEP's; the later of the two says where the patch stands. */
export const REAPPLY_STEP = 'patch/reapply';
/** How the run left the tests (passed, FAILED, did not run after the last edit): written at its end by orchestrator/testsOutcome.ts, shown in the timeline. */
export const TESTS_STEP = 'run/tests';
/** A hook ran (or was refused) on one of the run's events (orchestrator/hookSteps.ts): arguments say which, on what, and its verdict. */
export const HOOK_STEP = 'run/hook';

/** The rule of a policy_decisions row that records the user's answer to an approval (not a rule's verdict). */
export const USER_ANSWER_RULE = 'user-answer';

/** A hunk that was not applied: `rejected` by the user (with their reason) or `refused` by the patch engine (with its reason). */
export interface HunkNote {
  id: string;
  state: 'rejected' | 'refused';
  reason?: string;
}

export interface PatchFileSnapshot {
  path: string;
  /** null: the file did not exist. */
  before: string | null;
  /** null: the patch deletes the file. */
  after: string | null;
}

/** Snapshots of files larger than this (either side, in characters) are not kept. */
export const PATCH_SNAPSHOT_MAX_CHARS = 256 * 1024;

export interface PatchRecord extends Required<PatchInput> {
  id: string;
  runId: string;
  time: number;
}

export interface TestRunInput {
  runId?: string | null;
  command: string;
  trigger: TestTrigger;
  exitCode: number | null;
  durationMs: number;
  /** Full output; the store keeps its last TEST_OUTPUT_TAIL characters. */
  output: string;
  time?: number;
}

export interface TestRunRecord {
  id: string;
  runId: string | null;
  command: string;
  trigger: TestTrigger;
  exitCode: number | null;
  durationMs: number;
  outputTail: string;
  time: number;
}

/** What a tool call taught the agent: a short insight plus the (truncated) result. */
export interface ObservationInput {
  runId?: string | null;
  tool: string;
  insight: string;
  result: string;
  /** Error results are never stored: they are noise for later runs. */
  isError: boolean;
  path?: string | null;
  time?: number;
}

export interface ObservationRecord {
  id: string;
  type: ObservationType;
  runId: string | null;
  tool: string | null;
  /** The insight (observation) or the question (qa). */
  text: string;
  /** The truncated result (observation) or the answer (qa). */
  detail: string;
  path: string | null;
  time: number;
}

export type ObservationOutcome = { stored: true; id: string } | { stored: false; reason: 'error-result' | 'too-short' };

export interface PolicyDecisionInput {
  runId?: string | null;
  kind: PolicyKind;
  subject: string;
  verdict: Verdict;
  rule?: string | null;
  reason: string;
  time?: number;
}

export interface PolicyDecisionRecord {
  id: string;
  runId: string | null;
  kind: PolicyKind;
  subject: string;
  verdict: Verdict;
  rule: string | null;
  reason: string;
  time: number;
}

export interface MemoryFactInput {
  scope: string;
  key: string;
  text: string;
  time?: number;
}

export interface MemoryFactRecord {
  scope: string;
  key: string;
  text: string;
  time: number;
}

export interface RunDetail {
  run: RunRecord;
  steps: StepRecord[];
  patches: PatchRecord[];
  testRuns: TestRunRecord[];
  observations: ObservationRecord[];
  policyDecisions: PolicyDecisionRecord[];
}

export interface ListRunsOptions {
  limit?: number;
  offset?: number;
  status?: RunStatus;
}

export interface RunPageOptions {
  offset?: number;
  limit?: number;
  since?: number;
  until?: number;
}

export interface RunPage {
  runs: RunSummary[];
  /** Runs matching the time filter, for the panel's scroll height. */
  total: number;
}

export interface DeleteRunResult {
  /** Rows removed across all tables (0: no such run). */
  deleted: number;
}

export interface PruneResult {
  deleted: number;
}

export interface HistoryStats {
  /** Size of the database file on disk (0 before the first save). */
  fileBytes: number;
  /** Size of the database in memory (page_count * page_size). */
  memoryBytes: number;
  rows: Record<HistoryTable, number>;
  /** Writes made in memory that are not on disk yet. */
  pendingWrites: number;
  lastPersistAt: number | null;
  lastPersistError: string | null;
}

export const HISTORY_TABLES = ['runs', 'steps', 'patches', 'test_runs', 'observations', 'memory_facts', 'policy_decisions', 'model_usage'] as const;
export type HistoryTable = (typeof HISTORY_TABLES)[number];

/** One row of the audit trail, in table order, oldest first. */
export type AuditRecord =
  | { table: 'runs'; row: RunRecord }
  | { table: 'steps'; row: StepRecord }
  | { table: 'patches'; row: PatchRecord }
  | { table: 'test_runs'; row: TestRunRecord }
  | { table: 'observations'; row: ObservationRecord }
  | { table: 'memory_facts'; row: MemoryFactRecord }
  | { table: 'policy_decisions'; row: PolicyDecisionRecord }
  | { table: 'model_usage'; row: import('./usage').UsageRecordRow };

/** Something the user should know about the database file; never thrown from open. */
export interface HistoryReport {
  kind: 'recovered-from-backup' | 'recovered-fresh' | 'persist-failed' | 'persist-recovered' | 'newer-schema' | 'lock-wait' | 'journal-torn-tail';
  message: string;
  /** Where a damaged file was moved, when one was. */
  movedTo?: string;
}

export interface HistoryStore {
  /** Problems found while opening (a damaged file moved aside, ...). Empty when all was well. */
  readonly warnings: readonly HistoryReport[];
  /** Reports after open: failed saves (and their recovery). */
  readonly onDidReport: Event<HistoryReport>;
  readonly path: string;

  startRun(input: RunStart): Promise<string>;
  finishRun(runId: string, input: RunFinish): Promise<void>;
  addStep(runId: string, input: StepInput): Promise<{ id: string; seq: number }>;
  addPatch(runId: string, input: PatchInput): Promise<string>;
  addTestRun(input: TestRunInput): Promise<string>;
  recordObservation(input: ObservationInput): Promise<ObservationOutcome>;
  recordQaSummary(runId: string | null, question: string, answer: string): Promise<string>;
  addPolicyDecision(input: PolicyDecisionInput): Promise<string>;
  /** One model request's tokens and cost under its source (main, fast, compaction, subagent N). */
  addUsage(input: import('./usage').UsageInput): Promise<string>;
  /** A run's usage per source. */
  runUsage(runId: string): Promise<import('./usage').UsageTotalsView[]>;
  /** The workspace's usage per local day and source, the last `days` days, newest first. */
  usageByDay(days: number): Promise<import('./usage').UsageDayView[]>;
  /** USD spent since a time by the workspace's runs (subagents counted once, in their parent). */
  costSince(since: number): Promise<number>;
  rememberFact(input: MemoryFactInput): Promise<void>;
  listFacts(scope?: string): Promise<MemoryFactRecord[]>;

  listRuns(options?: ListRunsOptions): Promise<RunSummary[]>;
  /** A page of runs, newest first, with the total for the filter (the panel's virtualised list). */
  listRunPage(options?: RunPageOptions): Promise<RunPage>;
  getRun(runId: string): Promise<RunDetail | undefined>;
  search(query: string, options?: SearchOptions): Promise<SearchHit[]>;
  /** BM25 search over everything: runs' goals, steps, patches, test runs, policy decisions, observations. */
  searchHistory(query: string, options?: HistorySearchOptions): Promise<HistorySearchResult>;
  /** Deletes a run and every row that belongs to it. */
  deleteRun(runId: string): Promise<DeleteRunResult>;
  /** Applies the retention the store was opened with, or `retention` when given. */
  prune(retention?: RetentionOptions): Promise<PruneResult>;
  stats(): Promise<HistoryStats>;
  /** The whole database as audit records, streamed in pages so a big database never sits in one message. */
  exportAll(): AsyncIterable<AuditRecord>;

  /** Writes pending changes now; rejects if the file cannot be written (the data stays in memory). */
  flush(): Promise<void>;
  /** Flushes, releases the file. Safe to call twice. */
  close(): Promise<void>;
}

export interface RetentionOptions {
  /** Observations older than this many days are pruned. */
  maxAgeDays?: number;
  /** At most this many observations are kept (the newest). */
  maxObservations?: number;
  /** Finished runs that started more than this many days ago are deleted with their steps, patches, tests and observations. */
  maxRunAgeDays?: number;
}

export const OBSERVATION_RESULT_MAX = 2_000;
export const OBSERVATION_RESULT_MIN = 20;
export const TEST_OUTPUT_TAIL = 8_000;
