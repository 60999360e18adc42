/**
 * The engine's speed target: a 6-hunk patch on a 10,000-line file, repeated ~200 times through
 * one `patch eval` process, median of the engine-reported `ms` (< 5 ms).
 */
import { diffHunks, formatUnified } from './diff-model';
import { Rng } from './rng';
import { filesEqual, median } from './score';
import { runEval, type EvalInput } from './tools/patchpilot';

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'value', 'index', 'count', 'total', 'name', 'result'];

/** A plausible 10k-line JS file: functions of 5-15 lines, every statement distinct. */
export function generateLargeFile(rng: Rng, lines: number): string[] {
  const out: string[] = [];
  let fn = 0;
  while (out.length < lines) {
    out.push(`function ${rng.pick(WORDS)}${fn}(input) {`);
    const body = rng.int(3, 13);
    for (let i = 0; i < body; i++) out.push(`  const ${rng.pick(WORDS)}${fn}_${i} = input.${rng.pick(WORDS)} + ${rng.int(0, 9999)};`);
    out.push(`  return ${rng.pick(WORDS)}${fn}_0;`, '}', '');
    fn++;
  }
  return out.slice(0, lines);
}

/** Six small edits spread over the file: replace, insert, delete. */
export function editLargeFile(rng: Rng, lines: string[], hunks = 6): string[] {
  const out = [...lines];
  const span = Math.floor(lines.length / hunks);
  for (let h = hunks - 1; h >= 0; h--) {
    const at = h * span + rng.int(10, span - 10);
    const op = h % 3;
    if (op === 0) out.splice(at, 1, `${out[at]} // changed ${h}`);
    else if (op === 1) out.splice(at, 0, `  // inserted note ${h}`, `  const extra${h} = ${rng.int(0, 99)};`);
    else out.splice(at, 2);
  }
  return out;
}

export interface PerfResult {
  reps: number;
  medianMs: number;
  p95Ms: number;
  exact: number;
  refused: number;
  /** The first refusal reason, if any. */
  firstError?: string;
  /** Set when the engine could not be run or returned nothing. */
  error?: string;
}

export async function runPerf(seed: number, reps = 200): Promise<PerfResult> {
  const rng = Rng.forLabel(seed, 'perf');
  const oldLines = generateLargeFile(rng, 10_000);
  const oldText = oldLines.join('\n') + '\n';
  const newText = editLargeFile(rng, oldLines).join('\n') + '\n';
  const hunks = diffHunks(oldText, newText);
  if (hunks.length !== 6) throw new Error(`perf patch has ${hunks.length} hunks, expected 6`);
  const patch = formatUnified([{ oldPath: 'src/large.js', newPath: 'src/large.js', hunks }]);
  const inputs: EvalInput[] = Array.from({ length: reps }, (_, i) => ({ id: `perf-${i}`, files: { 'src/large.js': oldText }, patch }));
  const run = await runEval(inputs);
  const results = [...run.results.values()];
  const ms = results.map((r) => r.ms).sort((a, b) => a - b);
  const exact = results.filter((r) => r.status === 'applied' && r.files && filesEqual(r.files, { 'src/large.js': newText })).length;
  const refusals = results.filter((r) => r.status === 'refused');
  const error = results.length === 0 ? `no results (${run.stderr.trim().split('\n')[0] ?? `exit ${run.code}`})` : undefined;
  return {
    reps,
    medianMs: median(ms),
    p95Ms: ms[Math.floor(ms.length * 0.95)] ?? NaN, // NaN when there are no timings
    exact,
    refused: refusals.length,
    firstError: refusals[0]?.error,
    error,
  };
}
