/**
 * Reads a test run's output the way a developer skims it: which framework, how many passed and
 * failed, and the names (with the first error line) of the failing tests. Understands node's test
 * runner (TAP and spec reporters), jest, mocha and pytest; unknown output gives counts of nothing,
 * and the caller falls back to the output's tail.
 */
import { stripVTControlCharacters } from 'node:util';
import { headTail } from '../base/truncate';

/** How much of a failing command's output the model sees: its head and its tail. */
const OUTPUT_CHARS_ON_FAILURE = 6000;

export interface TestCommandResult {
  command: string;
  exitCode: number | null;
  durationMs: number;
  timedOut: boolean;
  output: string;
  summary: TestSummary;
}

/**
 * One test command's result in the words the model reads, whoever ran it (run_tests, the tests after
 * an edit, Run Tests or a save in VS Code): status, the summary, and on failure the output's head and tail.
 */
export function describeTestCommand(r: TestCommandResult): string {
  const seconds = (r.durationMs / 1000).toFixed(1);
  const status = r.timedOut ? `timed out after ${seconds} s` : r.exitCode === null ? `killed after ${seconds} s` : `exit ${r.exitCode} after ${seconds} s`;
  const summary = formatTestSummary(r.summary);
  const lines = [`$ ${r.command}`, status];
  if (summary) lines.push(summary);
  if (r.exitCode !== 0) lines.push('--- output ---', headTail(r.output.trimEnd(), OUTPUT_CHARS_ON_FAILURE).text);
  return lines.join('\n');
}

export interface TestFailure {
  name: string;
  message?: string;
}

export interface TestSummary {
  framework?: 'node' | 'jest' | 'mocha' | 'pytest';
  passed?: number;
  failed?: number;
  failures: TestFailure[];
}

const MAX_FAILURES = 20;

export function summarizeTestOutput(raw: string): TestSummary {
  const text = stripVTControlCharacters(raw);
  const lines = text.split(/\r?\n/);
  return pytest(text, lines) ?? jest(text, lines) ?? mocha(text, lines) ?? node(text, lines) ?? { failures: [] };
}

export function formatTestSummary(s: TestSummary): string {
  const counts = [s.passed !== undefined ? `${s.passed} passed` : '', s.failed !== undefined ? `${s.failed} failed` : ''].filter(Boolean).join(', ');
  const head = s.framework ? `${s.framework}${counts ? `: ${counts}` : ''}` : counts;
  const failures = s.failures.map((f) => `  FAIL ${f.name}${f.message ? `\n       ${f.message}` : ''}`);
  return [head, ...failures].filter(Boolean).join('\n');
}

function pytest(text: string, lines: string[]): TestSummary | undefined {
  const totals = /^(?:=+ )?(\d+ (?:passed|failed|errors?)\b.*?|no tests ran) in [\d.]+s\b/m.exec(text);
  if (!totals && !/^(FAILED|ERROR) \S+::/m.test(text)) return undefined;
  const failures: TestFailure[] = [];
  for (const line of lines) {
    const m = /^(?:FAILED|ERROR) (\S+)(?: - (.*))?$/.exec(line);
    if (m) add(failures, m[1]!, m[2]);
  }
  return {
    framework: 'pytest',
    passed: count(totals?.[1], /(\d+) passed/),
    failed: sum(count(totals?.[1], /(\d+) failed/), count(totals?.[1], /(\d+) errors?/)),
    failures,
  };
}

function jest(text: string, lines: string[]): TestSummary | undefined {
  const totals = /^Tests:\s+(.*\btotal)$/m.exec(text);
  if (!totals) return undefined;
  const failures: TestFailure[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^\s*● (.+)$/.exec(lines[i]!);
    if (m && !/^Console$/.test(m[1]!)) add(failures, m[1]!.trim(), firstMessage(lines, i + 1));
  }
  return { framework: 'jest', passed: count(totals[1], /(\d+) passed/) ?? 0, failed: count(totals[1], /(\d+) failed/) ?? 0, failures };
}

function mocha(text: string, lines: string[]): TestSummary | undefined {
  const passing = /^\s*(\d+) passing\b/m.exec(text);
  if (!passing) return undefined;
  const failing = /^\s*(\d+) failing\b/m.exec(text);
  const failures: TestFailure[] = [];
  const start = failing ? lines.findIndex((l) => /^\s*\d+ failing\b/.test(l)) : -1;
  if (start >= 0) {
    for (let i = start + 1; i < lines.length; i++) {
      const m = /^\s{1,4}(\d+)\) (.+)$/.exec(lines[i]!);
      if (!m) continue;
      // "1) suite" then "     test name:" on the next indented lines, then the error.
      const parts = [m[2]!.trim()];
      let j = i + 1;
      while (j < lines.length && /^\s+\S.*:$/.test(lines[j]!) && !/Error/.test(lines[j]!)) parts.push(lines[j++]!.trim().replace(/:$/, ''));
      add(failures, parts.join(' '), firstMessage(lines, j));
    }
  }
  return { framework: 'mocha', passed: Number(passing[1]), failed: failing ? Number(failing[1]) : 0, failures };
}

function node(text: string, lines: string[]): TestSummary | undefined {
  const tapPass = /^# pass (\d+)$/m.exec(text);
  const tapFail = /^# fail (\d+)$/m.exec(text);
  const specPass = /^ℹ pass (\d+)$/m.exec(text);
  const specFail = /^ℹ fail (\d+)$/m.exec(text);
  if (!tapPass && !specPass) return undefined;
  const failures: TestFailure[] = [];
  const suites = new Set(lines.map((l) => /^\s*▶ (.+)$/.exec(l)?.[1]).filter((n): n is string => !!n));
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const tap = /^\s*not ok \d+ - (.+?)(?:\s+# (?:TODO|SKIP).*)?$/.exec(line);
    if (tap && !/#\s*(TODO|SKIP)/.test(line)) {
      const error = tapError(lines, i + 1);
      // A suite is "not ok" because a child failed; the child is listed on its own.
      if (!error || !/^\d+ subtests? failed$/.test(error)) add(failures, tap[1]!, error);
      continue;
    }
    const spec = /^\s*✖ (.+?)(?: \([\d.]+m?s\))?$/.exec(line);
    // `▶ name` marks a suite; it fails because a child did, and the child is listed on its own.
    if (spec && spec[1] !== 'failing tests:' && !suites.has(spec[1]!)) add(failures, spec[1]!, firstMessage(lines, i + 1));
  }
  return {
    framework: 'node',
    passed: Number((tapPass ?? specPass)![1]),
    failed: Number((tapFail ?? specFail)?.[1] ?? failures.length),
    failures,
  };
}

/** TAP's YAML block: `error: 'message'` or `error: |-` followed by the message. */
function tapError(lines: string[], from: number): string | undefined {
  for (let i = from; i < Math.min(lines.length, from + 30); i++) {
    const line = lines[i]!;
    if (/^\s*(not )?ok \d+/.test(line)) return undefined;
    const m = /^\s*error: (.*)$/.exec(line);
    if (!m) continue;
    const inline = m[1]!.trim().replace(/^['"]|['"]$/g, '');
    if (inline && inline !== '|-' && inline !== '|' && inline !== '>-') return cut(inline);
    return lines[i + 1] ? cut(lines[i + 1]!.trim()) : undefined;
  }
  return undefined;
}

/** The first line that looks like an error message, within a few lines after a failure's name. */
function firstMessage(lines: string[], from: number): string | undefined {
  for (let i = from; i < Math.min(lines.length, from + 12); i++) {
    const line = lines[i]!.trim();
    if (/(Error|Expected|expect\(|assert|Exception)/.test(line) && !/^at /.test(line)) return cut(line);
  }
  return undefined;
}

function add(failures: TestFailure[], name: string, message?: string): void {
  if (failures.length >= MAX_FAILURES || failures.some((f) => f.name === name)) return;
  failures.push(message ? { name, message } : { name });
}

function count(text: string | undefined, re: RegExp): number | undefined {
  const m = text ? re.exec(text) : null;
  return m ? Number(m[1]) : undefined;
}

function sum(a?: number, b?: number): number | undefined {
  return a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0);
}

function cut(s: string): string {
  return s.length > 240 ? s.slice(0, 237) + '...' : s;
}
