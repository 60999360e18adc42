/** Read-only queries over one connection. */
import { testsOutcomeOfText } from '../../protocol/runEnd';
import type { SqlConn } from './sqlConn';
import { usageFromRow } from './usage';
import {
  memoryFactFromRow,
  observationFromRow,
  patchFromRow,
  policyDecisionFromRow,
  runFromRow,
  stepFromRow,
  testRunFromRow,
  type MemoryFactRow,
  type ObservationRow,
  type PatchRow,
  type PolicyDecisionRow,
  type RunRow,
  type StepRow,
  type TestRunRow,
} from './rows';
import {
  HISTORY_TABLES,
  TESTS_STEP,
  type AuditRecord,
  type HistoryTable,
  type ListRunsOptions,
  type MemoryFactRecord,
  type RunDetail,
  type RunPage,
  type RunPageOptions,
  type RunSummary,
} from './types';

/** The tools that write a file besides propose_patch (the chat's end line counts them as edits too). */
const WRITING_TOOLS = ['write_file', 'edit_file'].map((t) => `'${t}'`).join(', ');

/** A run still going has no final step count yet: its model replies so far stand in. */
const LIVE_STEPS = `CASE WHEN r.status = 'running' THEN (SELECT count(*) FROM steps s WHERE s.run_id = r.id AND s.role = 'assistant') ELSE r.model_steps END AS live_steps`;

const RUN_SUMMARY = `SELECT r.*, ${LIVE_STEPS},
       (SELECT count(*) FROM patches p WHERE p.run_id = r.id) AS patch_count,
       (SELECT count(*) FROM test_runs t WHERE t.run_id = r.id) AS test_run_count,
       (SELECT s.text FROM steps s WHERE s.run_id = r.id AND s.tool = '${TESTS_STEP}' ORDER BY s.seq DESC LIMIT 1) AS tests_text,
       (SELECT t.exit_code FROM test_runs t WHERE t.run_id = r.id ORDER BY t.time DESC, t.id DESC LIMIT 1) AS last_test_exit,
       EXISTS (SELECT 1 FROM patches p WHERE p.run_id = r.id AND p.applied_at IS NOT NULL)
         OR EXISTS (SELECT 1 FROM steps s WHERE s.run_id = r.id AND s.tool IN (${WRITING_TOOLS})) AS edited
     FROM runs r`;

const runOf = (r: RunRow & { live_steps: number }) => runFromRow({ ...r, model_steps: r.live_steps });

type RunSummaryRow = RunRow & {
  live_steps: number;
  patch_count: number;
  test_run_count: number;
  tests_text: string | null;
  last_test_exit: number | null;
  edited: number;
};
const summaryFromRow = (r: RunSummaryRow): RunSummary => {
  const tests = testsOutcomeOfText(r.tests_text);
  // A run that ran tests and edited nothing: its row says how its last test run went (as the chat's end line does).
  const withoutEdits = tests && r.test_run_count > 0 && !r.edited ? { testsPassed: r.last_test_exit === 0 } : undefined;
  return { ...runOf(r), patchCount: r.patch_count, testRunCount: r.test_run_count, ...(tests ? { tests } : {}), ...(withoutEdits ? { withoutEdits } : {}) };
};

export function listRuns(conn: SqlConn, options: ListRunsOptions = {}): RunSummary[] {
  const limit = Math.max(1, Math.min(options.limit ?? 50, 10_000));
  const offset = Math.max(0, options.offset ?? 0);
  const rows = conn.all<RunSummaryRow>(`${RUN_SUMMARY} WHERE (? IS NULL OR r.status = ?) ORDER BY r.started_at DESC, r.id LIMIT ? OFFSET ?`, [
    options.status ?? null,
    options.status ?? null,
    limit,
    offset,
  ]);
  return rows.map(summaryFromRow);
}

/** Newest first within [since, until); the counts are computed for the page's rows only. */
export function listRunPage(conn: SqlConn, options: RunPageOptions = {}): RunPage {
  const limit = Math.max(1, Math.min(Math.floor(options.limit ?? 100), 1_000));
  const offset = Math.max(0, Math.floor(options.offset ?? 0));
  const since = finiteOrNull(options.since);
  const until = finiteOrNull(options.until);
  const where = `(? IS NULL OR r.started_at >= ?) AND (? IS NULL OR r.started_at < ?)`;
  const range = [since, since, until, until];
  // The page is cut first, then counted: the counts are computed for its rows only, not for every row OFFSET skips.
  const runs = conn
    .all<RunSummaryRow>(
      `WITH page AS (SELECT * FROM runs r WHERE ${where} ORDER BY r.started_at DESC, r.id LIMIT ? OFFSET ?)
       ${RUN_SUMMARY.replace('FROM runs r', 'FROM page r')} ORDER BY r.started_at DESC, r.id`,
      [...range, limit, offset],
    )
    .map(summaryFromRow);
  const total = Number(conn.get<{ c: number }>(`SELECT count(*) AS c FROM runs r WHERE ${where}`, range)?.c ?? 0);
  return { runs, total };
}

function finiteOrNull(v: number | undefined): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export function getRun(conn: SqlConn, runId: string): RunDetail | undefined {
  const run = conn.get<RunRow & { live_steps: number }>(`SELECT r.*, ${LIVE_STEPS} FROM runs r WHERE r.id = ?`, [runId]);
  if (!run) return undefined;
  return {
    run: runOf(run),
    steps: conn.all<StepRow>(`SELECT * FROM steps WHERE run_id = ? ORDER BY seq, time`, [runId]).map(stepFromRow),
    patches: conn.all<PatchRow>(`SELECT * FROM patches WHERE run_id = ? ORDER BY time, id`, [runId]).map(patchFromRow),
    testRuns: conn.all<TestRunRow>(`SELECT * FROM test_runs WHERE run_id = ? ORDER BY time, id`, [runId]).map(testRunFromRow),
    observations: conn.all<ObservationRow>(`SELECT * FROM observations WHERE run_id = ? ORDER BY time, n`, [runId]).map(observationFromRow),
    policyDecisions: conn.all<PolicyDecisionRow>(`SELECT * FROM policy_decisions WHERE run_id = ? ORDER BY time, id`, [runId]).map(policyDecisionFromRow),
  };
}

export function nextStepSeq(conn: SqlConn, runId: string): number {
  return Number(conn.get<{ seq: number }>(`SELECT coalesce(max(seq), 0) + 1 AS seq FROM steps WHERE run_id = ?`, [runId])?.seq ?? 1);
}

export function runExists(conn: SqlConn, runId: string): boolean {
  return conn.get(`SELECT 1 AS x FROM runs WHERE id = ?`, [runId]) !== undefined;
}

export function listFacts(conn: SqlConn, scope?: string): MemoryFactRecord[] {
  return conn
    .all<MemoryFactRow>(`SELECT * FROM memory_facts WHERE (? IS NULL OR scope = ?) ORDER BY scope, key`, [scope ?? null, scope ?? null])
    .map(memoryFactFromRow);
}

export function rowCounts(conn: SqlConn): Record<HistoryTable, number> {
  const out = {} as Record<HistoryTable, number>;
  for (const t of HISTORY_TABLES) out[t] = Number(conn.get<{ c: number }>(`SELECT count(*) AS c FROM ${t}`)?.c ?? 0);
  return out;
}

export function memoryBytes(conn: SqlConn): number {
  const pages = Number(conn.get<{ page_count: number }>('PRAGMA page_count')?.page_count ?? 0);
  const size = Number(conn.get<{ page_size: number }>('PRAGMA page_size')?.page_size ?? 0);
  return pages * size;
}

/** Stable order per table for paging the audit export. */
const AUDIT_ORDER: Record<HistoryTable, string> = {
  runs: 'started_at, id',
  steps: 'time, run_id, seq, id',
  patches: 'time, id',
  test_runs: 'time, id',
  observations: 'time, n',
  memory_facts: 'scope, key',
  policy_decisions: 'time, id',
  model_usage: 'time, id',
};

/** One page of the audit trail for one table. */
export function auditPage(conn: SqlConn, table: HistoryTable, offset: number, limit: number): AuditRecord[] {
  if (!HISTORY_TABLES.includes(table)) throw new Error(`unknown table ${table}`);
  const rows = conn.all(`SELECT * FROM ${table} ORDER BY ${AUDIT_ORDER[table]} LIMIT ? OFFSET ?`, [limit, offset]);
  switch (table) {
    case 'runs':
      return rows.map((r) => ({ table, row: runFromRow(r as unknown as RunRow) }));
    case 'steps':
      return rows.map((r) => ({ table, row: stepFromRow(r as unknown as StepRow) }));
    case 'patches':
      return rows.map((r) => ({ table, row: patchFromRow(r as unknown as PatchRow) }));
    case 'test_runs':
      return rows.map((r) => ({ table, row: testRunFromRow(r as unknown as TestRunRow) }));
    case 'observations':
      return rows.map((r) => ({ table, row: observationFromRow(r as unknown as ObservationRow) }));
    case 'memory_facts':
      return rows.map((r) => ({ table, row: memoryFactFromRow(r as unknown as MemoryFactRow) }));
    case 'policy_decisions':
      return rows.map((r) => ({ table, row: policyDecisionFromRow(r as unknown as PolicyDecisionRow) }));
    case 'model_usage':
      return rows.map((r) => ({ table, row: usageFromRow(r) }));
  }
}
