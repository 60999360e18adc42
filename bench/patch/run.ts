/**
 * `npm run bench:patch`: builds the corpus from real npm releases, runs PatchPilot and the
 * baselines over the same cases, prints the table, the targets and where the failures went.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseBenchArgs, USAGE, type BenchArgs } from './args';
import { buildCorpus } from './corpus/build';
import { CACHE_DIR } from './corpus/fetch';
import { writeFailures } from './failures';
import { KINDS } from './kinds';
import { largeTable, largeTargets, runLarge, type LargeRow } from './large';
import type { BenchCase } from './kinds/types';
import { runPerf } from './perf';
import { score, scoredCell, scoredOutcomes, scoredTotals } from './score';
import { fmtMs, legend, markdown, resultsTable } from './table';
import { TOOLS } from './tools';
import { useCli } from './tools/patchpilot';
import type { ToolResult } from './tools/types';

const FAILURES = path.join(CACHE_DIR, 'patch-failures.jsonl');
const log = (msg: string): boolean => process.stderr.write(msg + '\n');

function selected<T extends { name: string }>(all: readonly T[], names: string[] | undefined, what: string): T[] {
  if (!names) return [...all];
  const unknown = names.filter((n) => !all.some((x) => x.name === n));
  if (unknown.length) throw new Error(`unknown ${what}: ${unknown.join(', ')} (known: ${all.map((x) => x.name).join(', ')})`);
  return all.filter((x) => names.includes(x.name));
}

function composition(corpus: Awaited<ReturnType<typeof buildCorpus>>, counts: Record<string, number>): string {
  const pkgs = corpus.versions.map((v) => `${v.pair.pkg} ${v.pair.from}→${v.pair.to} (${v.changed.length} files)`);
  const kinds = Object.entries(counts).map(([k, n]) => `${k} ${n}`);
  const out = [
    `Corpus: ${corpus.cases.length} cases from ${corpus.versions.length} version pairs`,
    `  versions: ${pkgs.join('; ')}`,
    `  cases per kind: ${kinds.join(', ')}`,
  ];
  for (const s of corpus.skipped) out.push(`  skipped ${s.pair.pkg} ${s.pair.from}→${s.pair.to}: ${s.reason}`);
  return out.join('\n');
}

async function main(args: BenchArgs): Promise<number> {
  if (args.cli) useCli(args.cli);
  const kinds = selected(KINDS, args.kinds, 'kinds');
  const tools = selected(TOOLS, args.tools, 'tools');
  const t0 = Date.now();
  log(`building corpus (seed ${args.seed})...`);
  const corpus = await buildCorpus({ packages: args.packages, seed: args.seed, limit: args.limit, maxFilesPerVersion: args.maxFilesPerVersion }, kinds);
  const cases: BenchCase[] = corpus.cases;
  const counts = Object.fromEntries(kinds.map((k) => [k.name, cases.filter((c) => c.kind === k.name).length]));
  if (cases.length === 0) {
    log('no cases: nothing to measure');
    return 1;
  }

  const results: Record<string, Map<string, ToolResult>> = {};
  for (const tool of tools) {
    const started = Date.now();
    const readable = cases.filter((c) => tool.supports(c));
    results[tool.name] = await tool.runAll(readable);
    log(`${tool.name}: ${readable.length} cases in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  const scored = score(cases, kinds, tools, results);

  console.log(composition(corpus, counts));
  console.log('');
  console.log(resultsTable(kinds, tools, scored, counts));
  console.log('');
  console.log(legend(tools));

  const pp = tools.find((t) => t.name === 'patchpilot');
  let perfLine = 'skipped';
  let perfPass: boolean | undefined;
  if (pp && !args.skipPerf) {
    const perf = await runPerf(args.seed, args.perfReps);
    perfPass = !perf.error && perf.exact === perf.reps && perf.medianMs < 5;
    perfLine = perf.error
      ? perf.error
      : `median ${fmtMs(perf.medianMs)} ms, p95 ${fmtMs(perf.p95Ms)} ms, exact ${perf.exact}/${perf.reps}` +
        (perf.refused ? `, refused ${perf.refused} (${(perf.firstError ?? '').slice(0, 120)})` : '');
    console.log(`\nPatchPilot 6-hunk patch on a 10,000-line file, ${perf.reps} reps in one eval process: ${perfLine}`);
  }

  // Large patches, next to the baselines a user would compare with (jsdiff and git's lax mode add nothing here).
  let large: LargeRow[] | undefined;
  const largeTools = tools.filter((t) => ['patchpilot', 'git', 'gnu-patch'].includes(t.name));
  if (pp && !args.skipPerf) {
    log('large patches...');
    large = await runLarge(args.seed, largeTools);
    console.log(
      '\nLarge patches written by git diff (ms: PatchPilot engine time in one eval process; git/GNU patch: wall time of one process):\n' +
        largeTable(large, largeTools),
    );
  }

  if (pp) {
    const ppCells = kinds.filter((k) => k.group === 'must-apply').map((k) => ({ k, c: scoredCell(scored, k.name, 'patchpilot') }));
    const below = ppCells.filter(({ c }) => c.n > 0 && c.exact / c.n < 0.99);
    const wrong = scoredTotals(scored, 'patchpilot').all.wrong;
    const rows = [
      [
        '>= 99% exact on every must-apply kind',
        below.length === 0 ? 'PASS' : 'FAIL',
        below.length === 0
          ? `all ${ppCells.length} kinds`
          : `${below.length} of ${ppCells.length} below: ${below.map(({ k, c }) => `${k.name} ${c.exact}/${c.n}`).join(', ')}`,
      ],
      ['0 wrong across the corpus', wrong === 0 ? 'PASS' : 'FAIL', `${wrong} wrong of ${cases.length}`],
      ['6-hunk / 10k-line median < 5 ms', perfPass === undefined ? 'SKIP' : perfPass ? 'PASS' : 'FAIL', perfLine],
      ...largeTargets(large),
    ];
    console.log('\nTargets (PatchPilot):\n' + markdown(['target', 'result', 'detail'], rows));
    const n = writeFailures(FAILURES, cases, kinds, scoredOutcomes(scored, 'patchpilot'), results.patchpilot ?? new Map());
    console.log(`\n${n} PatchPilot failures written to ${path.relative(process.cwd(), FAILURES)}`);
  }

  if (args.json) {
    const raw = cases.map((c) => ({
      id: c.id,
      kind: c.kind,
      source: c.source,
      variant: c.variant,
      results: Object.fromEntries(tools.map((t) => [t.name, { outcome: scoredOutcomes(scored, t.name)[c.id], ...results[t.name]?.get(c.id) }])),
    }));
    writeFileSync(args.json, JSON.stringify({ args, counts, totals: scored.totals, cells: scored.cells, cases: raw }, null, 1));
    console.log(`raw results written to ${args.json}`);
  }
  log(`done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return 0;
}

let parsed: BenchArgs;
try {
  parsed = parseBenchArgs(process.argv.slice(2));
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n\n${USAGE}\n`);
  process.exit(2);
}
if (parsed.help) {
  process.stdout.write(USAGE + '\n');
  process.exit(0);
}
main(parsed).then(
  (code) => (process.exitCode = code),
  (err: unknown) => {
    process.stderr.write(`bench:patch failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
