import type { FileProblem } from '../ports/diagnostics';

/** At most this many problems go to the model after one edit; the rest are counted. */
export const MAX_REPORTED_PROBLEMS = 20;

/**
 * The problems in `after` that were not in `before`, in the edited files only. A problem counts as the
 * same when file, severity, source and message match (lines move when an edit adds lines above it).
 */
export function newProblems(before: readonly FileProblem[], after: readonly FileProblem[], edited: readonly string[]): FileProblem[] {
  const files = new Set(edited);
  const seen = new Map<string, number>();
  for (const p of before) seen.set(problemKey(p), (seen.get(problemKey(p)) ?? 0) + 1);
  const fresh: FileProblem[] = [];
  for (const p of after) {
    if (!files.has(p.path)) continue;
    const left = seen.get(problemKey(p)) ?? 0;
    if (left > 0) seen.set(problemKey(p), left - 1);
    else fresh.push(p);
  }
  return fresh;
}

function problemKey(p: FileProblem): string {
  return [p.path, p.severity, p.source ?? '', p.message].join('\u0000');
}

/** "new problems in the files you edited" text for the tool result; undefined when there are none. */
export function formatNewProblems(problems: readonly FileProblem[]): string | undefined {
  if (problems.length === 0) return undefined;
  const sorted = [...problems].sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line || a.column - b.column);
  const shown = sorted.slice(0, MAX_REPORTED_PROBLEMS).map(formatProblem);
  const more = sorted.length - shown.length;
  const errors = problems.filter((p) => p.severity === 'error').length;
  const head = `new problems in the files you edited (${errors} error${errors === 1 ? '' : 's'}, ${problems.length - errors} warning${problems.length - errors === 1 ? '' : 's'}):`;
  return [head, ...shown, ...(more > 0 ? [`... and ${more} more`] : [])].join('\n');
}

function formatProblem(p: FileProblem): string {
  return `${p.path}:${p.line}:${p.column}: ${p.severity}: ${p.message}${p.source ? ` [${p.source}]` : ''}`;
}
