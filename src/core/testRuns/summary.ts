/**
 * A test run in the words everyone reads it in: the status, the counts, the failing tests with
 * what explains them (runners/ reads each runner's output), and on failure the part of the
 * output that explains the failures (excerpt.ts), never a head and tail that cut them out.
 */
import { stripVTControlCharacters } from 'node:util';
import { failureExcerpt } from './excerpt';
import { failingStep, stepAfterTests } from './failingStep';
import type { TestFailure, TestSummary } from './runners';

/** How much of a failing command's output the model sees: what explains the failures and the counts (more when a failure needs it). */
const OUTPUT_CHARS_ON_FAILURE = 6000;

export interface TestCommandResult {
  command: string;
  exitCode: number | null;
  durationMs: number;
  timedOut: boolean;
  output: string;
  summary: TestSummary;
  /** Workspace-relative file keeping the whole output (the result shows an excerpt or none of it), for read_file. */
  keptAt?: string;
  /** A chained script stopped at its first failing step: which steps ran and which never did (chainStop.ts). */
  chainStopped?: string;
}

/**
 * One test command's result in the words the model reads, whoever ran it (run_tests, the tests after
 * an edit, Run Tests or a save in VS Code): status, the summary, and on failure the output's failures and counts.
 */
export function describeTestCommand(r: TestCommandResult): string {
  const seconds = (r.durationMs / 1000).toFixed(1);
  const status = r.timedOut ? `timed out after ${seconds} s` : r.exitCode === null ? `killed after ${seconds} s` : `exit ${r.exitCode} after ${seconds} s`;
  const summary = formatTestSummary(r.summary);
  const lines = [`$ ${r.command}`, status];
  const step = r.exitCode !== 0 ? failingStep(r.output, r.summary) : undefined;
  const after = r.exitCode !== 0 && !r.timedOut ? stepAfterTests(r.output, r.summary) : undefined;
  if (r.chainStopped) lines.push(`not the whole suite: ${r.chainStopped}`);
  if (step) lines.push(`failed step: ${step}`);
  if (after) lines.push(`failed step: ${after}, after every test passed`);
  if (summary) lines.push(summary);
  if (r.exitCode !== 0) lines.push('--- output ---', failureExcerpt(r.output, r.summary, OUTPUT_CHARS_ON_FAILURE));
  if (r.keptAt) lines.push(`the whole output: read_file ${r.keptAt}`);
  return lines.join('\n');
}

/**
 * Whether the model is shown less than the whole output: a passing run shows none of it, a failing
 * one an excerpt that dropped lines (a long output, or the passing tests of a run failed by a later step).
 */
export function outputPartlyShown(r: Pick<TestCommandResult, 'exitCode' | 'output' | 'summary'>): boolean {
  const text = stripVTControlCharacters(r.output).trimEnd();
  return r.exitCode === 0 ? text.trim() !== '' : failureExcerpt(r.output, r.summary, OUTPUT_CHARS_ON_FAILURE) !== text;
}

/** `pytest: 1 passed, 3 failed, 1 skipped` and one `FAIL name` per failing test with its message indented below. */
export function formatTestSummary(s: TestSummary): string {
  const counts = s.countsFiles
    ? fileCounts(s)
    : [s.passed !== undefined ? `${s.passed} passed` : '', s.failed !== undefined ? `${s.failed} failed` : '', s.skipped ? `${s.skipped} skipped` : '']
        .filter(Boolean)
        .join(', ');
  const runs = s.runs && s.runs > 1 ? `, ${s.runs} runs summed` : '';
  const head = s.framework ? `${s.framework}${runs}${counts ? `: ${counts}` : ''}` : counts;
  const failures = s.failures.map((f) => `  FAIL ${nameWithFile(f, s.failures)}${f.message ? `\n${f.message.replace(/^/gm, '       ')}` : ''}`);
  // Counted in files, the failures listed (subtests) are not "more" than the failed files.
  const more =
    !s.countsFiles && s.failed !== undefined && s.failed > s.failures.length && s.failures.length > 0 ? [`  (and ${s.failed - s.failures.length} more)`] : [];
  return [head, ...failures, ...more].filter(Boolean).join('\n');
}

/** The test's name, and its file when another failure has the same name (`group > same name` in two files). */
function nameWithFile(f: TestFailure, all: readonly TestFailure[]): string {
  if (!f.file || !all.some((other) => other !== f && other.name === f.name)) return f.name;
  return `${f.name} (${f.file})`;
}

/** node-tap counts test files: "1 test file failed (2 of its subtests did not finish), 80 test files passed". */
function fileCounts(s: TestSummary): string {
  const files = (n: number) => `${n} test ${n === 1 ? 'file' : 'files'}`;
  const unfinished = s.unfinished ? ` (${s.unfinished} of ${s.failed === 1 ? 'its' : 'their'} subtests did not finish)` : '';
  return [
    s.failed ? `${files(s.failed)} failed${unfinished}` : '',
    s.passed !== undefined ? `${files(s.passed)} passed` : '',
    s.skipped ? `${files(s.skipped)} skipped` : '',
  ]
    .filter(Boolean)
    .join(', ');
}

/** The failing tests' names, for one line (the chat, the CLI's last line, the history). */
export function failingNames(s: TestSummary, max = 3): string {
  const names = s.failures.slice(0, max).map((f) => nameWithFile(f, s.failures));
  const rest = (s.failed ?? s.failures.length) - names.length;
  return names.join(', ') + (rest > 0 ? ` and ${rest} more` : '');
}
