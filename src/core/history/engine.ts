/**
 * The history API as synchronous calls on one DurableDb: validates input, decides ids, times and
 * step numbers, applies the capture rules, and turns calls into ops. It runs inside the store's
 * worker thread (worker/historyWorker.ts) or, for the CLI fallback and benchmarks, in-process.
 */
import { randomUUID } from 'node:crypto';
import { UserError } from '../base';
import { DurableDb, type DurableOptions } from './durableDb';
import type { Op } from './ops';
import { auditPage, getRun, listFacts, listRunPage, listRuns, memoryBytes, nextStepSeq, rowCounts, runExists } from './queries';
import { searchObservations } from './search';
import { currentOwner, runIsOrphaned } from './runOwner';
import { searchHistory } from './searchAll';
import { snapshotsOf } from './snapshots';
import { costSince, usageByDay, usageOfRun, type UsageDayView, type UsageInput, type UsageTotalsView } from './usage';
import { loadSqlJs } from './sqljs';
import { FINAL_STATUSES, KINDS, ROLES, TRIGGERS, VERDICTS, nonNegative, oneOf, optionalString, requireArray, requireString, truncate } from './inputChecks';
import {
  OBSERVATION_RESULT_MAX,
  OBSERVATION_RESULT_MIN,
  TEST_OUTPUT_TAIL,
  type AuditRecord,
  type DeleteRunResult,
  type HistoryStats,
  type HistoryTable,
  type ListRunsOptions,
  type MemoryFactInput,
  type MemoryFactRecord,
  type ObservationInput,
  type ObservationOutcome,
  type PatchInput,
  type PolicyDecisionInput,
  type PruneResult,
  type RetentionOptions,
  type RunDetail,
  type RunFinish,
  type RunPage,
  type RunPageOptions,
  type RunStart,
  type RunSummary,
  type StepInput,
  type TestRunInput,
} from './types';
import { type HistorySearchOptions, type HistorySearchResult, type SearchHit, type SearchOptions } from './searchTypes';

export interface EngineOptions extends DurableOptions {
  retention?: RetentionOptions;
}

export class HistoryEngine {
  static async open(options: EngineOptions): Promise<HistoryEngine> {
    const SQL = await loadSqlJs();
    const engine = new HistoryEngine(DurableDb.open(SQL, options), options);
    if (hasRetention(options.retention)) engine.prune();
    try {
      engine.markOrphanedRuns();
    } catch {
      // A database of a newer schema may lack the columns; opening never fails for this.
    }
    return engine;
  }

  private constructor(
    readonly db: DurableDb,
    private readonly options: EngineOptions,
  ) {}

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  startRun(input: RunStart): string {
    const id = randomUUID();
    this.db.apply({
      op: 'startRun',
      id,
      goal: requireString(input.goal, 'goal'),
      reasoningModel: optionalString(input.reasoningModel),
      fastModel: optionalString(input.fastModel),
      startedAt: input.startedAt ?? this.now(),
      parentRunId: optionalString(input.parentRunId),
      owner: currentOwner(),
    });
    return id;
  }

  /** Runs still marked running whose process is gone (killed, crashed, machine down) become interrupted. Returns their ids. */
  markOrphanedRuns(): string[] {
    const running = this.db.conn.all<{ id: string; owner_host: string | null; owner_pid: number | null; owner_start: string | null; last_activity: number }>(
      `SELECT id, owner_host, owner_pid, owner_start, max(started_at, coalesce((SELECT max(time) FROM steps s WHERE s.run_id = runs.id), 0)) AS last_activity
       FROM runs WHERE status = 'running'`,
    );
    const now = this.now();
    const gone: string[] = [];
    for (const r of running) {
      const owner = r.owner_host !== null && r.owner_pid !== null ? { host: r.owner_host, pid: r.owner_pid, start: r.owner_start } : null;
      if (!runIsOrphaned({ owner, lastActivity: r.last_activity }, now)) continue;
      this.db.apply({ op: 'markInterrupted', id: r.id, endedAt: r.last_activity });
      gone.push(r.id);
    }
    return gone;
  }

  finishRun(runId: string, input: RunFinish): void {
    this.requireRun(runId);
    oneOf(input.status, FINAL_STATUSES, 'status');
    this.db.apply({
      op: 'finishRun',
      id: runId,
      status: input.status,
      steps: nonNegative(input.steps ?? 0, 'steps'),
      tokensIn: nonNegative(input.tokensIn ?? 0, 'tokensIn'),
      tokensOut: nonNegative(input.tokensOut ?? 0, 'tokensOut'),
      costUsd: nonNegative(input.costUsd ?? 0, 'costUsd'),
      endedAt: input.endedAt ?? this.now(),
    });
  }

  addStep(runId: string, input: StepInput): { id: string; seq: number } {
    this.requireRun(runId);
    oneOf(input.role, ROLES, 'role');
    const id = randomUUID();
    const seq = nextStepSeq(this.db.conn, runId);
    this.db.apply({
      op: 'addStep',
      id,
      runId,
      seq,
      role: input.role,
      text: optionalString(input.text),
      tool: optionalString(input.tool),
      arguments: input.arguments === undefined ? null : JSON.stringify(input.arguments),
      result: optionalString(input.result),
      durationMs: input.durationMs ?? null,
      time: input.time ?? this.now(),
    });
    return { id, seq };
  }

  addPatch(runId: string, input: PatchInput): string {
    this.requireRun(runId);
    const id = input.id === undefined ? randomUUID() : requireString(input.id, 'id');
    this.db.apply({
      op: 'addPatch',
      id,
      runId,
      text: requireString(input.text, 'text'),
      files: JSON.stringify(requireArray(input.files, 'files')),
      acceptedHunks: JSON.stringify(requireArray(input.acceptedHunks, 'acceptedHunks')),
      rejectedHunks: JSON.stringify(requireArray(input.rejectedHunks, 'rejectedHunks')),
      reversePatch: optionalString(input.reversePatch),
      appliedAt: input.appliedAt ?? null,
      snapshots: snapshotsOf(input.snapshots),
      time: input.time ?? this.now(),
    });
    return id;
  }

  addTestRun(input: TestRunInput): string {
    if (input.runId) this.requireRun(input.runId);
    oneOf(input.trigger, TRIGGERS, 'trigger');
    const id = randomUUID();
    const output = typeof input.output === 'string' ? input.output : '';
    this.db.apply({
      op: 'addTestRun',
      id,
      runId: input.runId ?? null,
      command: requireString(input.command, 'command'),
      trigger: input.trigger,
      exitCode: input.exitCode ?? null,
      durationMs: nonNegative(input.durationMs, 'durationMs'),
      outputTail: output.length > TEST_OUTPUT_TAIL ? output.slice(output.length - TEST_OUTPUT_TAIL) : output,
      time: input.time ?? this.now(),
    });
    return id;
  }

  /** The capture rule lives here so every caller gets it: no error results, nothing under 20 characters. */
  recordObservation(input: ObservationInput): ObservationOutcome {
    if (input.isError) return { stored: false, reason: 'error-result' };
    const result = typeof input.result === 'string' ? input.result : '';
    if (result.trim().length < OBSERVATION_RESULT_MIN) return { stored: false, reason: 'too-short' };
    const id = randomUUID();
    this.db.apply({
      op: 'addObservation',
      id,
      type: 'observation',
      runId: input.runId ?? null,
      tool: requireString(input.tool, 'tool'),
      text: typeof input.insight === 'string' ? input.insight : '',
      detail: truncate(result, OBSERVATION_RESULT_MAX),
      path: optionalString(input.path),
      time: input.time ?? this.now(),
    });
    return { stored: true, id };
  }

  recordQaSummary(runId: string | null, question: string, answer: string, time?: number): string {
    const id = randomUUID();
    this.db.apply({
      op: 'addObservation',
      id,
      type: 'qa',
      runId: runId ?? null,
      tool: null,
      text: requireString(question, 'question'),
      detail: requireString(answer, 'answer'),
      path: null,
      time: time ?? this.now(),
    });
    return id;
  }

  addPolicyDecision(input: PolicyDecisionInput): string {
    oneOf(input.kind, KINDS, 'kind');
    oneOf(input.verdict, VERDICTS, 'verdict');
    const id = randomUUID();
    this.db.apply({
      op: 'addPolicyDecision',
      id,
      runId: input.runId ?? null,
      kind: input.kind,
      subject: requireString(input.subject, 'subject'),
      verdict: input.verdict,
      rule: optionalString(input.rule),
      reason: requireString(input.reason, 'reason'),
      time: input.time ?? this.now(),
    });
    return id;
  }

  /** One model request's usage, under its run and source. */
  addUsage(input: UsageInput): string {
    this.requireRun(input.runId);
    const id = randomUUID();
    this.db.apply({
      op: 'addUsage',
      id,
      runId: input.runId,
      source: requireString(input.source, 'source'),
      role: requireString(input.role, 'role'),
      model: typeof input.model === 'string' ? input.model : '',
      promptTokens: nonNegative(input.promptTokens, 'promptTokens'),
      completionTokens: nonNegative(input.completionTokens, 'completionTokens'),
      cachedTokens: nonNegative(input.cachedTokens ?? 0, 'cachedTokens'),
      costUsd: input.costUsd === null || input.costUsd === undefined ? null : nonNegative(input.costUsd, 'costUsd'),
      estimated: input.estimated === true,
      time: input.time ?? this.now(),
    });
    return id;
  }

  runUsage(runId: string): UsageTotalsView[] {
    this.db.refresh();
    return usageOfRun(this.db.conn, requireString(runId, 'runId'));
  }

  usageByDay(days: number): UsageDayView[] {
    this.db.refresh();
    return usageByDay(this.db.conn, Math.max(1, Math.min(366, Math.floor(nonNegative(days, 'days')))), this.now());
  }

  /** USD the workspace's runs (not counting subagents twice) spent since `since`. */
  costSince(since: number): number {
    this.db.refresh();
    return costSince(this.db.conn, nonNegative(since, 'since'));
  }

  rememberFact(input: MemoryFactInput): void {
    this.db.apply({
      op: 'rememberFact',
      scope: requireString(input.scope, 'scope'),
      key: requireString(input.key, 'key'),
      text: requireString(input.text, 'text'),
      time: input.time ?? this.now(),
    });
  }

  listFacts(scope?: string): MemoryFactRecord[] {
    this.db.refresh();
    return listFacts(this.db.conn, scope);
  }

  listRuns(options?: ListRunsOptions): RunSummary[] {
    this.db.refresh();
    return listRuns(this.db.conn, options);
  }

  getRun(runId: string): RunDetail | undefined {
    this.db.refresh();
    return getRun(this.db.conn, runId);
  }

  search(query: string, options: SearchOptions = {}): SearchHit[] {
    this.db.refresh();
    return searchObservations(this.db.conn, typeof query === 'string' ? query : '', options, this.now());
  }

  listRunPage(options?: RunPageOptions): RunPage {
    this.db.refresh();
    return listRunPage(this.db.conn, options);
  }

  searchHistory(query: string, options?: HistorySearchOptions): HistorySearchResult {
    this.db.refresh();
    return searchHistory(this.db.conn, query, options);
  }

  deleteRun(runId: string): DeleteRunResult {
    requireString(runId, 'runId');
    this.db.refresh();
    if (!runExists(this.db.conn, runId)) return { deleted: 0 };
    return { deleted: this.db.apply({ op: 'deleteRun', id: runId }) };
  }

  /** The retention the store was opened with, or the one given (the panel applies the current settings). */
  prune(retention?: RetentionOptions): PruneResult {
    const r = retention ?? this.options.retention ?? {};
    if (!hasRetention(r)) return { deleted: 0 };
    for (const [name, v] of Object.entries(r)) if (v !== undefined) nonNegative(v, name);
    this.db.refresh();
    const op: Op = {
      op: 'prune',
      now: this.now(),
      maxAgeDays: r.maxAgeDays ?? null,
      maxObservations: r.maxObservations ?? null,
      maxRunAgeDays: r.maxRunAgeDays ?? null,
    };
    return { deleted: this.db.apply(op) };
  }

  stats(): HistoryStats {
    this.db.refresh();
    return {
      fileBytes: this.db.fileBytes(),
      memoryBytes: memoryBytes(this.db.conn),
      rows: rowCounts(this.db.conn),
      pendingWrites: this.db.pendingCount,
      lastPersistAt: this.db.lastPersistAt,
      lastPersistError: this.db.lastPersistError,
    };
  }

  auditPage(table: HistoryTable, offset: number, limit: number): AuditRecord[] {
    if (offset === 0) this.db.refresh();
    return auditPage(this.db.conn, table, offset, limit);
  }

  flush(): void {
    this.db.flush();
  }

  close(): void {
    this.db.close();
  }

  /** A run started by another window may not be merged into our copy yet: look again before refusing. */
  private requireRun(runId: string): void {
    requireString(runId, 'runId');
    if (runExists(this.db.conn, runId)) return;
    this.db.refresh();
    if (!runExists(this.db.conn, runId)) throw new UserError(`no run with id ${runId}`, 'unknown-run');
  }
}

function hasRetention(r: RetentionOptions | undefined): r is RetentionOptions {
  return !!r && (r.maxAgeDays !== undefined || r.maxObservations !== undefined || r.maxRunAgeDays !== undefined);
}
