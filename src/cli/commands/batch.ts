import os from 'node:os';
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import { ExitCode, UsageError, parseCommandLine } from '../io';
import { BatchFileError, loadBatchFile, type BatchItem } from '../node/batch/batchFile';
import { runBatch, type BatchRunOptions, type ItemOutcome } from '../node/batch/batchRun';
import { batchTable } from '../node/batch/batchTable';

const OPTIONS = {
  concurrency: { type: 'string' },
  matrix: { type: 'boolean' },
  index: { type: 'string' },
  'work-dir': { type: 'string' },
  'events-dir': { type: 'string' },
  json: { type: 'boolean' },
} as const;

/** GitHub Actions runs at most this many jobs of one matrix. */
const MATRIX_LIMIT = 256;

export async function run(argv: string[]): Promise<number> {
  const { values: args, positionals } = parseCommandLine(argv, OPTIONS);
  if (positionals.length !== 1) throw new UsageError(positionals.length ? `one FILE only, not '${positionals[1]}'` : 'the batch FILE is missing');
  const items = await loadBatchFile(positionals[0]!).catch((err: unknown) => {
    if (err instanceof BatchFileError) throw new UsageError(err.message);
    throw err;
  });
  if (args.matrix) return printMatrix(items);
  const options: BatchRunOptions = {
    workDir: path.resolve(args['work-dir'] ?? mkdtempSync(path.join(os.tmpdir(), 'patchpilot-batch-'))),
    ...(args['events-dir'] ? { eventsDir: path.resolve(args['events-dir']) } : {}),
    log: (line) => process.stderr.write(`${line}\n`),
  };
  const index = args.index ?? process.env.JOB_COMPLETION_INDEX;
  if (index !== undefined) {
    const item = items[wholeNumber(index, args.index !== undefined ? '--index' : 'JOB_COMPLETION_INDEX', items.length)]!;
    const [outcome] = await runBatch([item], 1, options);
    report([outcome!], args.json === true);
    return outcome!.exitCode;
  }
  const concurrency = args.concurrency === undefined ? 2 : wholeNumber(args.concurrency, '--concurrency', Infinity, 1);
  const outcomes = await runBatch(items, concurrency, options);
  report(outcomes, args.json === true);
  return outcomes.every((o) => o.exitCode === 0 || o.exitCode === 3) ? ExitCode.ok : ExitCode.failed;
}

function printMatrix(items: BatchItem[]): number {
  if (items.length > MATRIX_LIMIT) throw new UsageError(`${items.length} goals: a GitHub Actions matrix runs at most ${MATRIX_LIMIT} jobs; split the file`);
  const include = items.map((i) => ({ index: i.index, repo: i.isUrl ? i.repo : path.basename(i.repo), goal: i.goal }));
  process.stdout.write(`${JSON.stringify({ include })}\n`);
  return ExitCode.ok;
}

function report(outcomes: ItemOutcome[], json: boolean): void {
  if (!json) return void process.stdout.write(batchTable(outcomes));
  const rows = outcomes.map(({ item, exitCode, result, error }) => ({
    index: item.index,
    repo: item.repo,
    goal: item.goal,
    exitCode,
    result: result ?? null,
    ...(error ? { error } : {}),
  }));
  process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
}

function wholeNumber(text: string, name: string, below: number, min = 0): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < min || n >= below)
    throw new UsageError(`${name} must be a whole number${below === Infinity ? ` of at least ${min}` : ` from ${min} to ${below - 1}`}, not '${text}'`);
  return n;
}
