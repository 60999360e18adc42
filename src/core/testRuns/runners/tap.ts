import { cutByTimer, fileRunOf, foldFileRuns, type FileRun, type LeafResult } from './tapFiles';
import { addFailure, brief, countOf, sumOf, type TestFailure, type TestSummary } from './types';

/**
 * TAP, as node-tap, tape, prove (Perl's Test::More) and node's test runner (`--test-reporter=tap`)
 * write it. A failing test is the innermost `not ok` (its parents fail because it did), named by
 * its chain of `# Subtest:` headers; its YAML block gives the values (node-tap's diff and
 * found/wanted, tape's expected/actual, node's error). Test::More's `#   Failed test 'x'` comments
 * name failures prove shows without -v.
 */
export function tap(text: string, lines: readonly string[]): TestSummary | undefined {
  const isTap = /^TAP version \d+$/m.test(text) || /^# pass\s+\d+$/m.test(text) || /^\s*(not )?ok \d+\b/m.test(text) || /^#\s+Failed test '/m.test(text);
  if (!isTap) return undefined;
  const leaves: LeafResult[] = [];
  const fileRuns: FileRun[] = [];
  const headers = new SubtestHeaders();
  const chain: { indent: number; name: string }[] = [];
  // node-tap 14 prints a file's result first and its subtests after it, in braces (`ok 2 - test/a.js # time=9ms {`,
  // or `{` alone after the YAML block): the file heads the names inside, as `# Subtest: test/a.js` does in node-tap 16.
  let last: { indent: number; name: string } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const brace = /^(\s*)([{}])\s*$/.exec(line);
    if (brace?.[2] === '{' && last?.indent === brace[1]!.length) chain.push(last);
    if (brace?.[2] === '}') popTo(chain, brace[1]!.length);
    if (brace) continue;
    const subtest = /^(\s*)# Subtest: (.+)$/.exec(line);
    if (subtest) {
      popTo(chain, subtest[1]!.length);
      headers.opened(chain, subtest[1]!.length, subtest[2]!.trim());
      chain.push({ indent: subtest[1]!.length, name: subtest[2]!.trim() });
      continue;
    }
    const result = /^(\s*)(not )?ok \d+(?: -)?\s*(.*?)(\s+#\s*(TODO|SKIP|time=).*)?$/i.exec(line);
    if (result) {
      const indent = result[1]!.length;
      const name = result[3]!.trim().replace(/\s*\{$/, '');
      const directive = result[5]?.toUpperCase();
      headers.closed(indent, name);
      const yaml = yamlBlock(lines, i + 1);
      const fileRun = result[2] && indent === 0 ? fileRunOf(name, line, yaml, i) : undefined;
      if (fileRun) fileRuns.push(fileRun);
      else if (result[2] && directive !== 'TODO' && directive !== 'SKIP' && isLeaf(lines, i, indent))
        leaves.push({ failure: leafFailure(yaml, i, chain, indent, name), cutByTimer: cutByTimer(name, yaml) });
      // The parent's own line closes its subtest.
      if (chain.length && chain[chain.length - 1]!.indent === indent && chain[chain.length - 1]!.name === name) chain.pop();
      last = { indent, name };
      if (/\s\{\s*$/.test(line)) chain.push(last);
      continue;
    }
    // tape names its tests in plain comments (`# subtracts wrong`) before their assertions.
    const comment = /^# (?!Subtest: |tests |pass |fail |skip|todo |SKIP |TODO |\{ |time=|No coverage|suites |cancelled |duration_ms )(\S.*)$/.exec(line);
    if (comment && !/^\s*Failed test '/.test(comment[1]!) && !/^Looks like you/.test(comment[1]!)) {
      chain.length = 0;
      chain.push({ indent: 0, name: comment[1]!.trim() });
      continue;
    }
    const testMore = /^#\s+Failed test '(.+)'$/.exec(line);
    if (testMore)
      leaves.push({ failure: { name: testMore[1]!, message: brief(diagnostics(lines, i + 1)), line: i, ...fileOfTestMore(lines[i + 1]) }, cutByTimer: false });
  }
  const folded = foldFileRuns(leaves, fileRuns, headers.unfinishedByFile());
  const failures: TestFailure[] = [];
  for (const f of folded.failures) addFailure(failures, f);
  const counts = definedOnly(countsOf(text));
  // node-tap's top-level results are its test files: counted as files, not tests.
  const ofFiles = fileRuns.length > 0 || /^ok \d+ - \S+\.[cm]?[jt]sx? # time=/m.test(text);
  return {
    framework: tapProducer(text),
    ...counts,
    ...(ofFiles && counts.passed !== undefined && !/^# \{ total: /m.test(text) ? { countsFiles: true } : {}),
    ...(folded.unfinished ? { unfinished: folded.unfinished } : {}),
    failures,
  };
}

/**
 * The `# Subtest:` headers inside test files that never got their result line: the subtests a
 * file's ended run did not finish (node-tap 16 prints the header, then nothing).
 */
class SubtestHeaders {
  private readonly open: { file: string; indent: number; name: string; directChild: boolean }[] = [];

  opened(chain: readonly { name: string }[], indent: number, name: string): void {
    const at = chain.findIndex((c) => isFileName(c.name));
    if (at < 0) return;
    this.open.push({ file: chain[at]!.name, indent, name, directChild: at === chain.length - 1 });
  }

  closed(indent: number, name: string): void {
    let at = this.open.length - 1;
    while (at >= 0 && !(this.open[at]!.indent === indent && this.open[at]!.name === name)) at--;
    if (at >= 0) this.open.splice(at, 1);
  }

  unfinishedByFile(): Map<string, string[]> {
    const byFile = new Map<string, string[]>();
    for (const h of this.open) if (h.directChild) byFile.set(h.file, [...(byFile.get(h.file) ?? []), h.name]);
    return byFile;
  }
}

function isFileName(name: string): boolean {
  return /\.[cm]?[jt]sx?$|\.t$/.test(name);
}

/**
 * Which runner wrote the TAP: its name matters, narrowing a run is runner-specific (node's runner
 * and node-tap filter by name, tape and prove do not). node's runner ends with `# suites` and
 * `# duration_ms`, prove with `Files=N, Tests=N`, tape with `# tests N` and no `# Subtest:` (node-tap's).
 */
function tapProducer(text: string): 'node' | 'prove' | 'tape' | 'tap' {
  if (/^# (suites|duration_ms) /m.test(text)) return 'node';
  if (/^Files=\d+, Tests=\d+/m.test(text)) return 'prove';
  if (/^# tests \d+$/m.test(text) && !/^\s*# Subtest: /m.test(text)) return 'tape';
  return 'tap';
}

function definedOnly<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

function popTo(chain: { indent: number }[], indent: number): void {
  while (chain.length && chain[chain.length - 1]!.indent >= indent) chain.pop();
}

/** A `not ok` with no failing child: nothing deeper failed since the previous result at its own depth. */
function isLeaf(lines: readonly string[], at: number, indent: number): boolean {
  for (let i = at - 1; i >= 0; i--) {
    const m = /^(\s*)(not )?ok \d+/.exec(lines[i]!);
    if (!m) continue;
    if (m[1]!.length <= indent) return true;
    if (m[2]) return false;
  }
  return true;
}

function leafFailure(yaml: readonly string[], at: number, chain: readonly { indent: number; name: string }[], indent: number, name: string): TestFailure {
  const enclosing = chain.filter((c) => c.indent <= indent).map((c) => c.name);
  // node-tap names a thrown non-Error `(unnamed test)`: the subtest it was thrown in is its name.
  const own = name === '(unnamed test)' && enclosing.length ? enclosing[enclosing.length - 1]! : name;
  const names = enclosing[enclosing.length - 1] === own ? enclosing : [...enclosing, own];
  // node-tap names the file as a subtest or in `fileName:`; node's runner in `location: '/abs/file.js:4:1'`.
  const file =
    names.find(isFileName) ?? /^\s*fileName: (.+)$/m.exec(yaml.join('\n'))?.[1]?.trim() ?? /^\s*location: '?(.+?):\d+:\d+'?$/m.exec(yaml.join('\n'))?.[1];
  return { name: names.filter(Boolean).join(' > ') || `test ${at}`, message: brief(valuesOf(yaml), 6), ...(file ? { file } : {}), line: at };
}

/** The YAML diagnostics after a result line: from `---` to `...`. */
function yamlBlock(lines: readonly string[], from: number): string[] {
  if (!/^\s*---\s*$/.test(lines[from] ?? '')) return [];
  const block: string[] = [];
  for (let i = from + 1; i < lines.length && !/^\s*\.\.\.\s*$/.test(lines[i]!); i++) block.push(lines[i]!);
  return block;
}

/** What a reader needs of a YAML block: the error, the compared values, the diff's changed lines. */
function valuesOf(yaml: readonly string[]): string[] {
  const kept: string[] = [];
  // node-tap's process fields (`args:`, `stdio:`) hold YAML lists whose `- item` lines are not a diff.
  let inList = false;
  for (let i = 0; i < yaml.length; i++) {
    const line = yaml[i]!.trim();
    // `source:` quotes the test's code with a `--^` pointer: not a diff either.
    if (/^[\w-]+:/.test(line)) inList = /^(args|stdio|env|command|cwd|at|stack|source):/.test(line);
    if (inList) continue;
    const timeout = /^(timeout|signal|expired): (.+)$/.exec(line);
    if (timeout) kept.push(`${timeout[1]}: ${timeout[2]}`);
    const field = /^(error|message|expected|actual|wanted|found|operator|got|compare): ?(.*)$/.exec(line);
    if (field) {
      const value = /^[|>]-?$/.test(field[2]!) ? (yaml[i + 1] ?? '').trim() : field[2]!;
      // The error is the message itself; the compared values keep their labels.
      if (field[1] === 'error' || field[1] === 'message') kept.push(value);
      else if (field[1] !== 'operator' && field[1] !== 'compare') kept.push(`${field[1]}: ${value}`);
      continue;
    }
    if (/^[-+](?![-+]{2})\s*\S/.test(line) || /^(---|\+\+\+) (expected|actual)$/.test(line)) kept.push(line);
  }
  return kept;
}

/** Test::More's comment lines after `Failed test`: `got:` and `expected:`, up to the next failure. */
function diagnostics(lines: readonly string[], from: number): string[] {
  const kept: string[] = [];
  for (let i = from; i < Math.min(lines.length, from + 8) && /^#\s/.test(lines[i]!); i++) {
    if (/^#\s+Failed test/.test(lines[i]!)) break;
    if (!/^#\s+at .* line \d+\.$/.test(lines[i]!)) kept.push(lines[i]!.replace(/^#\s+/, ''));
  }
  return kept;
}

function fileOfTestMore(line: string | undefined): { file?: string } {
  const file = line ? /^#\s+at (.+) line \d+\.$/.exec(line)?.[1] : undefined;
  return file ? { file } : {};
}

/**
 * node-tap up to 16 prints no counts of its own when every test passes (`1..81` and `# time=`), and
 * `# failed 1 of 81 tests` when one fails: its tests are the top-level results, one a test file.
 */
function topLevelCounts(text: string): Pick<TestSummary, 'passed' | 'failed' | 'skipped'> {
  const plan = countOf(text, /^1\.\.(\d+)\s*$/m);
  if (!plan) return {};
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const m of text.matchAll(/^(not )?ok \d+\b.*$/gm)) {
    if (/#\s*(SKIP|TODO)\b/i.test(m[0])) skipped++;
    else if (m[1]) failed++;
    else passed++;
  }
  if (passed + failed + skipped === plan) return { passed, failed, ...(skipped ? { skipped } : {}) };
  return cutCounts(text, plan);
}

/**
 * A long node-tap log cut in the middle by the output cap ("[... N bytes dropped ...]") lost some
 * top-level results, but its tail keeps the plan and, when a file failed, `# failed F of N tests`
 * (node-tap prints it whenever one did): the counts follow from those.
 */
function cutCounts(text: string, plan: number): Pick<TestSummary, 'passed' | 'failed'> {
  if (!/^\[\.\.\. \d+ bytes dropped \.\.\.\]$/m.test(text) || !/^1\.\.\d+\s*\n(?:# failed \d+ of \d+ tests?\n)?# time=/m.test(text)) return {};
  const failedOf = /^# failed (\d+) of (\d+) tests?$/m.exec(text);
  if (failedOf && Number(failedOf[2]) !== plan) return {};
  const failed = failedOf ? Number(failedOf[1]) : 0;
  return { passed: plan - failed, failed };
}

/** node's `# pass 1`, tape's `# pass  1`, node-tap's `# { total: 4, pass: 1, fail: 2, skip: 1 }`, prove's `Tests=3` with `Failed 1/3`. */
function countsOf(text: string): Pick<TestSummary, 'passed' | 'failed' | 'skipped'> {
  const object = /^# \{ total: \d+(.*)\}$/m.exec(text)?.[1];
  if (object) return { passed: countOf(object, /pass: (\d+)/) ?? 0, failed: countOf(object, /fail: (\d+)/) ?? 0, skipped: countOf(object, /skip: (\d+)/) };
  const passed = countOf(text, /^# pass\s+(\d+)$/m);
  // node's runner counts a test its timeout ended as `# cancelled`, not `# fail`.
  const failedOrCancelled = sumOf(countOf(text, /^# fail\s+(\d+)$/m), countOf(text, /^# cancelled\s+(\d+)$/m)) ?? 0;
  if (passed !== undefined) return { passed, failed: failedOrCancelled, skipped: countOf(text, /^# skip(?:ped)?\s+(\d+)$/m) };
  const total = countOf(text, /^Files=\d+, Tests=(\d+)/m);
  if (total === undefined) return topLevelCounts(text);
  const failed = [...text.matchAll(/^Failed (\d+)\/\d+ subtests/gm)].reduce((n, m) => n + Number(m[1]), 0);
  return { passed: total - failed, failed };
}
