/**
 * The part of a long test output that explains its failures: every failure's report, the final
 * counts, the first lines (which command, which runner), and when a coverage check failed, its
 * threshold lines and the table rows below 100%. Passing tests, fully covered rows and stack
 * frames of the runner itself are what gets dropped; a failure line never is. The 256 KB node-tap
 * log with one `not ok` in the middle of a 300-line coverage table is the case this is for.
 */
import { stripVTControlCharacters } from 'node:util';
import { FAILURE_LINE, type TestSummary } from './runners';

const HEAD_LINES = 4;
const TAIL_LINES = 12;
/** How many lines of each failure's report are tried first; fewer when the budget is short. */
const BLOCK_SIZES = [40, 20, 10, 5, 2, 1];
const MAX_LINE = 300;
/** Passing-test lines that make even a short output worth trimming. */
const MANY_PASSING_LINES = 30;
/** Coverage table rows below 100% kept at most. */
const MAX_COVERAGE_ROWS = 40;

/**
 * Lines that say nothing about a failure: passing results (TAP's `ok 1`, jest's `PASS file` and `✓`,
 * pytest's `PASSED`, go's `--- PASS` and `ok pkg 0.1s`, cargo's, unittest's and prove's `... ok`),
 * coverage tables, the runners' own stack frames.
 */
// Blank lines are dropped too, silently.
const NOISE =
  /^\s*(ok \d+\b|✓|✔|PASS(ED)?\b|--- PASS|=== RUN|ok\s+\S+\s+(\(cached\)|[\d.]+s)|\S.* \.{2,} ok$|# Subtest: |1\.\.\d+$|# time=)|::\S+ PASSED\b|^([^|\n]*\|){4,}| at .*(node:internal|node_modules)\//;

/** nyc's, c8's and node-tap's "ERROR: Coverage for lines (98%) does not meet global threshold (100%)": why a run whose tests passed failed. */
const COVERAGE_THRESHOLD = /^ERROR: Coverage for \w+ \([\d.]+%\) does not meet (?:global |per-file )?threshold|coverage threshold for \w+ \([\d.]+%\) not met/i;

export function failureExcerpt(raw: string, summary: TestSummary, budget: number): string {
  const text = stripVTControlCharacters(raw).trimEnd();
  const testsPassed = everyTestPassed(summary);
  const lines = text.split(/\r?\n/);
  // A short output is shown whole, unless most of it is passing tests (200 `✓` lines around one `✕`).
  if (text.length <= budget && !testsPassed && lines.filter((l) => NOISE.test(l)).length < MANY_PASSING_LINES) return text;
  // Always kept, whatever the budget: why a coverage check failed, and the lines each failure's summary quotes (the assertion's values).
  const explained = [...coverageShortfalls(lines), ...messageLines(lines, summary)];
  if (testsPassed) {
    // The run failed at a step after its tests (a posttest lint, a coverage threshold): that step's
    // lines explain it, every passing test's line is noise at any length, as in a passing run's summary.
    const kept = new Set([...lines.flatMap((l, i) => (NOISE.test(l) || !l.trim() ? [] : [i])), ...explained]);
    const rendered = render(lines, kept);
    if (rendered.length <= budget) return rendered;
  }
  const marks = failureStarts(lines, summary);
  for (const size of BLOCK_SIZES) {
    const kept = keptLines(lines, marks, size);
    for (const i of explained) kept.add(i);
    const rendered = render(lines, kept);
    if (rendered.length <= budget || size === 1) return rendered;
  }
  return text;
}

/** The runner counted passing tests and no failing or unfinished one: what failed the run is a step, not a test. */
function everyTestPassed(s: TestSummary): boolean {
  return !s.failures.length && !s.failed && !s.unfinished && (s.passed ?? 0) > 0;
}

/** Where failures are reported: the parser's line for each failing test, and every line that reads like a failure. */
function failureStarts(lines: readonly string[], summary: TestSummary): number[] {
  const starts = new Set<number>();
  for (const f of summary.failures) if (f.line !== undefined) starts.add(f.line);
  lines.forEach((l, i) => {
    if (FAILURE_LINE.test(l) && !NOISE.test(l)) starts.add(i);
  });
  return [...starts].sort((a, b) => a - b);
}

/** How far below a failure's start its message lines are looked for (a jest block with a long diff). */
const MESSAGE_REACH = 40;

/**
 * The output lines a failure's message was read from (jest's `Expected value to be:` and the value
 * below it, a pytest `E` line): found below the failure's start by their text, so a short budget
 * that keeps two lines of each failure still keeps its values.
 */
function messageLines(lines: readonly string[], summary: TestSummary): number[] {
  const found: number[] = [];
  for (const f of summary.failures) {
    if (f.line === undefined || !f.message) continue;
    const wanted = new Set(f.message.split('\n').map((l) => l.trim().replace(/\.\.\.$/, '')));
    for (let i = f.line + 1; i < Math.min(lines.length, f.line + MESSAGE_REACH); i++) {
      const line = lines[i]!.trim();
      if (line && (wanted.has(line) || wanted.has(line.slice(0, 237)))) found.push(i);
    }
  }
  return found;
}

/**
 * The lines that say why a coverage check failed: its threshold lines, and the coverage table's
 * header and rows below 100% or naming uncovered lines. Fully covered rows stay out.
 */
function coverageShortfalls(lines: readonly string[]): number[] {
  const threshold = lines.flatMap((l, i) => (COVERAGE_THRESHOLD.test(l) ? [i] : []));
  if (!threshold.length) return [];
  const rows: number[] = [];
  let header: number | undefined;
  lines.forEach((line, i) => {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 5) return;
    if (/^File$/i.test(cells[0]!) && /%/.test(cells[1]!)) header = i;
    const figures = cells.slice(1, 5);
    if (!figures.every((c) => /^\d+(\.\d+)?$/.test(c))) return;
    const uncovered = cells.length > 5 ? cells[5]! : '';
    if (figures.some((c) => Number(c) < 100) || uncovered) rows.push(i);
  });
  // A table of hundreds of short files would crowd out the failures: the first rows say where to look.
  const shown = rows.slice(0, MAX_COVERAGE_ROWS);
  return [...threshold, ...(header !== undefined && shown.length ? [header] : []), ...shown];
}

function keptLines(lines: readonly string[], starts: readonly number[], blockSize: number): Set<number> {
  const kept = new Set<number>();
  for (let i = 0; i < Math.min(HEAD_LINES, lines.length); i++) kept.add(i);
  // The final counts: the last lines that are not noise (a coverage table often ends the output).
  let tail = 0;
  for (let i = lines.length - 1; i >= 0 && tail < TAIL_LINES; i--) {
    if (NOISE.test(lines[i]!) || !lines[i]!.trim()) continue;
    kept.add(i);
    tail++;
  }
  for (const start of starts) {
    kept.add(start);
    let taken = 1;
    for (let i = start + 1; i < lines.length && taken < blockSize; i++) {
      if (NOISE.test(lines[i]!) || !lines[i]!.trim()) continue;
      kept.add(i);
      taken++;
    }
  }
  return kept;
}

function render(lines: readonly string[], kept: ReadonlySet<number>): string {
  const out: string[] = [];
  let skipped = 0;
  for (let i = 0; i < lines.length; i++) {
    if (!kept.has(i)) {
      // Blank lines are not worth a note of their own.
      if (lines[i]!.trim()) skipped++;
      continue;
    }
    if (skipped) out.push(`[... ${skipped} line${skipped === 1 ? '' : 's'} of passing tests, coverage or stack frames omitted ...]`);
    skipped = 0;
    const line = lines[i]!;
    out.push(line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 3)}...` : line);
  }
  if (skipped) out.push(`[... ${skipped} line${skipped === 1 ? '' : 's'} omitted ...]`);
  return out.join('\n');
}
