/**
 * The files a failing check step names: eslint's stylish report (a file's path on its own line, its
 * `line:col  error  ...` rows under it), the `path:line:col` lines of eslint's unix format, flake8,
 * ruff and mypy, and tsc's `path(line,col): error`. A lint that fails only in files the run did not
 * change is not the run's doing (report.ts, test/unit/testRuns/stepFiles.test.ts).
 */

/** The paths the check's output names, in order, each once, relative to `root` when under it. */
export function filesNamedByCheck(output: string, root?: string): string[] {
  const lines = output.split(/\r?\n/);
  const named = new Set<string>();
  lines.forEach((line, i) => {
    const path = stylishHeader(line, lines[i + 1]) ?? LOCATED.exec(line)?.[1] ?? TSC.exec(line)?.[1];
    if (path) named.add(relative(path.trim(), root));
  });
  return [...named];
}

/** The named files among those the run changed (paths relative to the workspace, as the run records them). */
export function changedAmong(named: readonly string[], changed: Iterable<string>): string[] {
  const edits = [...changed].map((f) => f.replace(/\\/g, '/').replace(/^\.\//, ''));
  return named.filter((n) => edits.some((e) => n === e || n.endsWith(`/${e}`)));
}

/** `src/a.ts:3:7: error` (eslint unix), `a.py:3:7: E501` (flake8, ruff), `a.py:3: error:` (mypy), `src/a.ts:3:7 - error TS` (tsc pretty). */
const LOCATED = /^((?:[A-Za-z]:)?[^\s:()]*[^\s:()/]\.[A-Za-z]\w{0,4}):\d+(?::\d+)?(?::| - )\s*(?:error|warning|[A-Z]{1,3}\d{2,4}\b|\w)/;
/** `src/a.ts(3,7): error TS2322` */
const TSC = /^((?:[A-Za-z]:)?[^\s:()]*\.[A-Za-z]\w{0,4})\(\d+,\d+\): (?:error|warning)/;

/** eslint's stylish format: the path alone on its line, then `  3:7  error  message  rule`. */
function stylishHeader(line: string, next: string | undefined): string | undefined {
  if (!next || !/^\s+\d+:\d+\s+(?:error|warning)\s/.test(next)) return undefined;
  return /^(?:[A-Za-z]:)?[^\s]*\.[A-Za-z]\w{0,4}$/.test(line) ? line : undefined;
}

function relative(path: string, root: string | undefined): string {
  const p = path.replace(/\\/g, '/');
  const r = root?.replace(/\\/g, '/').replace(/\/+$/, '');
  return r && p.startsWith(`${r}/`) ? p.slice(r.length + 1) : p.replace(/^\.\//, '');
}
