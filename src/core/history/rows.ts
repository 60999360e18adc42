/** Conversions between SQL rows (snake_case, JSON text) and the public records. */
import type {
  JsonValue,
  MemoryFactRecord,
  ObservationRecord,
  PatchFileSnapshot,
  PatchRecord,
  PolicyDecisionRecord,
  RunRecord,
  RunStatus,
  StepRecord,
  StepRole,
  TestRunRecord,
  TestTrigger,
  ObservationType,
  PolicyKind,
} from './types';
import type { Verdict } from '../policy/types';

type Nullable<T> = T | null;

export interface RunRow {
  id: string;
  goal: string;
  reasoning_model: Nullable<string>;
  fast_model: Nullable<string>;
  status: string;
  started_at: number;
  ended_at: Nullable<number>;
  tokens_in: number;
  tokens_out: number;
  cost_usd: number;
  /** Since schema version 4. */
  parent_run_id?: Nullable<string>;
}

export interface StepRow {
  id: string;
  run_id: string;
  seq: number;
  role: string;
  text: Nullable<string>;
  tool: Nullable<string>;
  arguments: Nullable<string>;
  result: Nullable<string>;
  duration_ms: Nullable<number>;
  time: number;
}

export interface PatchRow {
  id: string;
  run_id: string;
  text: string;
  files: string;
  accepted_hunks: string;
  rejected_hunks: string;
  reverse_patch: Nullable<string>;
  applied_at: Nullable<number>;
  time: number;
  snapshots: Nullable<string>;
}

export interface TestRunRow {
  id: string;
  run_id: Nullable<string>;
  command: string;
  trigger: string;
  exit_code: Nullable<number>;
  duration_ms: number;
  output_tail: string;
  time: number;
}

export interface ObservationRow {
  id: string;
  type: string;
  run_id: Nullable<string>;
  tool: Nullable<string>;
  text: string;
  detail: string;
  path: Nullable<string>;
  time: number;
}

export interface PolicyDecisionRow {
  id: string;
  run_id: Nullable<string>;
  kind: string;
  subject: string;
  verdict: string;
  rule: Nullable<string>;
  reason: string;
  time: number;
}

export interface MemoryFactRow {
  scope: string;
  key: string;
  text: string;
  time: number;
}

/** JSON columns are written by us, but a hand-edited file must not crash a listing. */
function parseJson(text: string | null): JsonValue {
  if (text === null) return null;
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

function parseArray(text: string): JsonValue[] {
  const v = parseJson(text);
  return Array.isArray(v) ? v : [];
}

export const runFromRow = (r: RunRow): RunRecord => ({
  id: r.id,
  goal: r.goal,
  reasoningModel: r.reasoning_model,
  fastModel: r.fast_model,
  status: r.status as RunStatus,
  startedAt: r.started_at,
  endedAt: r.ended_at,
  tokensIn: r.tokens_in,
  tokensOut: r.tokens_out,
  costUsd: r.cost_usd,
  parentRunId: r.parent_run_id ?? null,
});

export const stepFromRow = (r: StepRow): StepRecord => ({
  id: r.id,
  runId: r.run_id,
  seq: r.seq,
  role: r.role as StepRole,
  text: r.text,
  tool: r.tool,
  arguments: parseJson(r.arguments),
  result: r.result,
  durationMs: r.duration_ms,
  time: r.time,
});

export const patchFromRow = (r: PatchRow): PatchRecord => ({
  id: r.id,
  runId: r.run_id,
  text: r.text,
  files: parseArray(r.files).map(String),
  acceptedHunks: parseArray(r.accepted_hunks),
  rejectedHunks: parseArray(r.rejected_hunks),
  reversePatch: r.reverse_patch,
  appliedAt: r.applied_at,
  time: r.time,
  snapshots: parseSnapshots(r.snapshots),
});

function parseSnapshots(text: string | null | undefined): PatchFileSnapshot[] | null {
  if (!text) return null;
  const v = parseJson(text);
  if (!Array.isArray(v)) return null;
  const out: PatchFileSnapshot[] = [];
  for (const s of v) {
    if (!s || typeof s !== 'object' || Array.isArray(s) || typeof s.path !== 'string') continue;
    const side = (x: JsonValue | undefined) => (typeof x === 'string' ? x : null);
    out.push({ path: s.path, before: side(s.before), after: side(s.after) });
  }
  return out;
}

export const testRunFromRow = (r: TestRunRow): TestRunRecord => ({
  id: r.id,
  runId: r.run_id,
  command: r.command,
  trigger: r.trigger as TestTrigger,
  exitCode: r.exit_code,
  durationMs: r.duration_ms,
  outputTail: r.output_tail,
  time: r.time,
});

export const observationFromRow = (r: ObservationRow): ObservationRecord => ({
  id: r.id,
  type: r.type as ObservationType,
  runId: r.run_id,
  tool: r.tool,
  text: r.text,
  detail: r.detail,
  path: r.path,
  time: r.time,
});

export const policyDecisionFromRow = (r: PolicyDecisionRow): PolicyDecisionRecord => ({
  id: r.id,
  runId: r.run_id,
  kind: r.kind as PolicyKind,
  subject: r.subject,
  verdict: r.verdict as Verdict,
  rule: r.rule,
  reason: r.reason,
  time: r.time,
});

export const memoryFactFromRow = (r: MemoryFactRow): MemoryFactRecord => ({ scope: r.scope, key: r.key, text: r.text, time: r.time });
