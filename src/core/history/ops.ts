/**
 * Every write is an Op: a plain, fully resolved value (ids, times and step numbers decided when the
 * caller made the call). The engine applies an op to the in-memory database at once and keeps it
 * in a pending log until it is on disk. When another process saved the file in between, the engine
 * loads that file and applies the pending ops again on top of it (engine.ts): so every op must be
 * idempotent and must not depend on local row numbers.
 */
import type { SqlConn } from './sqlConn';
import { insertUsage, type UsageRecordRow } from './usage';
import type { MemoryFactRecord, ObservationRecord, PatchRecord, PolicyDecisionRecord, RunRecord, StepRecord, TestRunRecord } from './types';

const DAY_MS = 86_400_000;

/** The process that runs a run, so that a later open can tell a live run from one whose process died (runOwner.ts). */
export interface RunOwner {
  host: string;
  pid: number;
  /** The process's start time as the OS reports it (Linux: /proc/PID/stat field 22); tells a reused pid apart. */
  start: string | null;
}

// Each op carries the row as stored, so its fields are the public record's fields: only the JSON
// columns differ (text in the op, parsed values in the record) and runs are written in two halves.
export type Op =
  | ({ op: 'startRun'; owner: RunOwner | null } & Pick<RunRecord, 'id' | 'goal' | 'reasoningModel' | 'fastModel' | 'startedAt'> & {
        parentRunId?: string | null;
      })
  | ({ op: 'finishRun'; status: Exclude<RunRecord['status'], 'running'>; endedAt: number } & Pick<
      RunRecord,
      'id' | 'steps' | 'tokensIn' | 'tokensOut' | 'costUsd'
    >)
  /** A run whose process is gone (killed, crashed): only a run still marked running changes, so a real finish always wins. */
  | { op: 'markInterrupted'; id: string; endedAt: number }
  | ({ op: 'addStep'; arguments: string | null } & Omit<StepRecord, 'arguments'>)
  | ({ op: 'addPatch'; files: string; acceptedHunks: string; rejectedHunks: string; snapshots?: string | null } & Omit<
      PatchRecord,
      'files' | 'acceptedHunks' | 'rejectedHunks' | 'snapshots'
    >)
  | ({ op: 'addTestRun' } & TestRunRecord)
  | ({ op: 'addObservation' } & ObservationRecord)
  | ({ op: 'addPolicyDecision' } & PolicyDecisionRecord)
  | ({ op: 'rememberFact' } & MemoryFactRecord)
  | ({ op: 'addUsage' } & UsageRecordRow)
  | { op: 'prune'; now: number; maxAgeDays: number | null; maxObservations: number | null; maxRunAgeDays?: number | null }
  /** Removes a run and everything recorded under it; replaying it on a file that lacks the run changes nothing. */
  | { op: 'deleteRun'; id: string };

/** Tables whose rows belong to a run (by run_id), deleted with it. */
const RUN_CHILD_TABLES = ['steps', 'patches', 'test_runs', 'observations', 'policy_decisions', 'model_usage'] as const;

function deleteRuns(conn: SqlConn, where: string, params: Array<string | number>): number {
  let deleted = 0;
  for (const t of RUN_CHILD_TABLES) deleted += conn.run(`DELETE FROM ${t} WHERE run_id IN (SELECT id FROM runs WHERE ${where})`, params);
  return deleted + conn.run(`DELETE FROM runs WHERE ${where}`, params);
}

/** A run's model steps counted from its log: one assistant row per model reply. */
export const ASSISTANT_STEPS = `(SELECT count(*) FROM steps s WHERE s.run_id = runs.id AND s.role = 'assistant')`;

/** Applies one op; returns the number of rows it changed (prune: rows deleted). */
export function applyOp(conn: SqlConn, op: Op): number {
  switch (op.op) {
    case 'startRun':
    case 'finishRun':
    case 'markInterrupted':
      return applyRunOp(conn, op);
    case 'addStep':
    case 'addPatch':
    case 'addTestRun':
    case 'addObservation':
    case 'addPolicyDecision':
      return insertRecord(conn, op);
    case 'addUsage':
      return insertUsage(conn, op);
    case 'rememberFact':
      // Last writer by time wins, so replaying an older op never overwrites a newer fact.
      return conn.run(
        `INSERT INTO memory_facts (scope, key, text, time) VALUES (?, ?, ?, ?)
         ON CONFLICT (scope, key) DO UPDATE SET text = excluded.text, time = excluded.time WHERE excluded.time >= memory_facts.time`,
        [op.scope, op.key, op.text, op.time],
      );
    case 'prune':
      return pruneRows(conn, op);
    case 'deleteRun':
      return conn.transaction(() => deleteRuns(conn, 'id = ?', [op.id]));
  }
}

/** A run's row: started, finished, or marked interrupted (only while it still says running). */
function applyRunOp(conn: SqlConn, op: Extract<Op, { op: 'startRun' | 'finishRun' | 'markInterrupted' }>): number {
  switch (op.op) {
    case 'startRun':
      return conn.run(
        `INSERT OR IGNORE INTO runs (id, goal, reasoning_model, fast_model, status, started_at, parent_run_id, owner_host, owner_pid, owner_start) VALUES (?, ?, ?, ?, 'running', ?, ?, ?, ?, ?)`,
        [
          op.id,
          op.goal,
          op.reasoningModel,
          op.fastModel,
          op.startedAt,
          op.parentRunId ?? null,
          op.owner?.host ?? null,
          op.owner?.pid ?? null,
          op.owner?.start ?? null,
        ],
      );
    case 'finishRun':
      return conn.run(`UPDATE runs SET status = ?, model_steps = ?, tokens_in = ?, tokens_out = ?, cost_usd = ?, ended_at = ? WHERE id = ?`, [
        op.status,
        op.steps,
        op.tokensIn,
        op.tokensOut,
        op.costUsd,
        op.endedAt,
        op.id,
      ]);
    case 'markInterrupted':
      return conn.run(`UPDATE runs SET status = 'interrupted', ended_at = ?, model_steps = ${ASSISTANT_STEPS} WHERE id = ? AND status = 'running'`, [
        op.endedAt,
        op.id,
      ]);
  }
}

/** One record of a run (a step, patch, test run, observation or policy decision); a replayed one is ignored by its id. */
function insertRecord(conn: SqlConn, op: Extract<Op, { op: 'addStep' | 'addPatch' | 'addTestRun' | 'addObservation' | 'addPolicyDecision' }>): number {
  switch (op.op) {
    case 'addStep':
      return conn.run(
        `INSERT OR IGNORE INTO steps (id, run_id, seq, role, text, tool, arguments, result, duration_ms, time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [op.id, op.runId, op.seq, op.role, op.text, op.tool, op.arguments, op.result, op.durationMs, op.time],
      );
    case 'addPatch':
      return conn.run(
        `INSERT OR IGNORE INTO patches (id, run_id, text, files, accepted_hunks, rejected_hunks, reverse_patch, applied_at, time, snapshots) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [op.id, op.runId, op.text, op.files, op.acceptedHunks, op.rejectedHunks, op.reversePatch, op.appliedAt, op.time, op.snapshots ?? null],
      );
    case 'addTestRun':
      return conn.run(
        `INSERT OR IGNORE INTO test_runs (id, run_id, command, trigger, exit_code, duration_ms, output_tail, time) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        [op.id, op.runId, op.command, op.trigger, op.exitCode, op.durationMs, op.outputTail, op.time],
      );
    case 'addObservation':
      return conn.run(`INSERT OR IGNORE INTO observations (id, type, run_id, tool, text, detail, path, time) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, [
        op.id,
        op.type,
        op.runId,
        op.tool,
        op.text,
        op.detail,
        op.path,
        op.time,
      ]);
    case 'addPolicyDecision':
      return conn.run(`INSERT OR IGNORE INTO policy_decisions (id, run_id, kind, subject, verdict, rule, reason, time) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, [
        op.id,
        op.runId,
        op.kind,
        op.subject,
        op.verdict,
        op.rule,
        op.reason,
        op.time,
      ]);
  }
}

/** Retention: observations past their age or count, and finished runs past their age; returns the rows deleted. */
function pruneRows(conn: SqlConn, op: Extract<Op, { op: 'prune' }>): number {
  return conn.transaction(() => {
    let deleted = 0;
    if (op.maxAgeDays !== null) deleted += conn.run(`DELETE FROM observations WHERE time < ?`, [op.now - op.maxAgeDays * DAY_MS]);
    if (op.maxObservations !== null) {
      deleted += conn.run(`DELETE FROM observations WHERE n IN (SELECT n FROM observations ORDER BY time DESC, n DESC LIMIT -1 OFFSET ?)`, [
        op.maxObservations,
      ]);
    }
    // A run still in progress is never cut off by retention.
    if (op.maxRunAgeDays != null) deleted += deleteRuns(conn, `status != 'running' AND started_at < ?`, [op.now - op.maxRunAgeDays * DAY_MS]);
    return deleted;
  });
}
