/**
 * Where an old_string that matches nowhere probably meant to be: the file's windows that share the
 * most lines with it (ignoring indentation and trailing blanks), else the lines most like its first
 * line. The model reads the file's actual lines with their numbers, so it can copy them exactly.
 */

const MAX_CANDIDATES = 3;
const MAX_SHOWN_LINES = 8;
/** Lines of old_string used to vote; a long old_string is usually wrong near its start. */
const MAX_VOTING_LINES = 40;
/** Beyond this many file lines the character-similarity fallback is skipped (it is O(lines)). */
const MAX_FALLBACK_LINES = 50_000;

interface Window {
  start: number;
  agree: number;
}

/** Nearest places in `fileLines` for `oldLines`, described for the model (empty when nothing is near). */
export function nearestCandidates(fileLines: readonly string[], oldLines: readonly string[]): string {
  const windows = votedWindows(fileLines, oldLines);
  const chosen = windows.length ? windows : similarFirstLine(fileLines, oldLines);
  if (!chosen.length) return '';
  const blocks = chosen.map((w) => describeWindow(fileLines, oldLines, w));
  return `nearest lines in the file (line | text):\n${blocks.join('\n')}`;
}

function votedWindows(fileLines: readonly string[], oldLines: readonly string[]): Window[] {
  const byText = new Map<string, number[]>();
  fileLines.forEach((line, i) => {
    const key = line.trim();
    if (!key) return;
    const at = byText.get(key);
    if (at) at.push(i);
    else byText.set(key, [i]);
  });
  const votes = new Map<number, number>();
  oldLines.slice(0, MAX_VOTING_LINES).forEach((line, j) => {
    const key = line.trim();
    if (!key) return;
    for (const i of byText.get(key) ?? []) votes.set(i - j, (votes.get(i - j) ?? 0) + 1);
  });
  return [...votes]
    .map(([start, agree]) => ({ start: Math.max(0, start), agree }))
    .sort((a, b) => b.agree - a.agree || a.start - b.start)
    .filter((w, k, all) => all.findIndex((o) => Math.abs(o.start - w.start) < oldLines.length) === k)
    .slice(0, MAX_CANDIDATES);
}

function similarFirstLine(fileLines: readonly string[], oldLines: readonly string[]): Window[] {
  const first = oldLines.findIndex((l) => l.trim() !== '');
  if (first < 0 || fileLines.length > MAX_FALLBACK_LINES) return [];
  const wanted = bigrams(oldLines[first]!.trim());
  return fileLines
    .map((line, i) => ({ start: Math.max(0, i - first), score: dice(wanted, bigrams(line.trim())) }))
    .filter((c) => c.score >= 0.5)
    .sort((a, b) => b.score - a.score || a.start - b.start)
    .slice(0, MAX_CANDIDATES)
    .map((c) => ({ start: c.start, agree: 0 }));
}

function describeWindow(fileLines: readonly string[], oldLines: readonly string[], w: Window): string {
  const count = Math.min(Math.max(oldLines.length, 1), MAX_SHOWN_LINES, fileLines.length - w.start);
  const shown = fileLines.slice(w.start, w.start + count).map((text, k) => `  ${w.start + k + 1} | ${text}`);
  const more = oldLines.length > count ? `\n  (... ${oldLines.length - count} more line(s) of old_string not shown)` : '';
  const agree = w.agree ? `, ${w.agree} of ${oldLines.length} line(s) agree ignoring indentation` : '';
  return `lines ${w.start + 1}-${w.start + count}${agree}${firstDifference(fileLines, oldLines, w.start)}:\n${shown.join('\n')}${more}`;
}

/** The first line that differs, quoted both ways: what the model wrote and what the file has. */
function firstDifference(fileLines: readonly string[], oldLines: readonly string[], start: number): string {
  const j = oldLines.findIndex((line, k) => fileLines[start + k] !== line);
  if (j < 0 || start + j >= fileLines.length) return '';
  const actual = fileLines[start + j]!;
  const how = actual.trim() === oldLines[j]!.trim() ? ' (only whitespace differs)' : '';
  return `; first difference at line ${start + j + 1}${how}: old_string has ${JSON.stringify(oldLines[j])}, the file has ${JSON.stringify(actual)}`;
}

function bigrams(s: string): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) {
    const g = s.slice(i, i + 2);
    out.set(g, (out.get(g) ?? 0) + 1);
  }
  return out;
}

/** Sørensen-Dice similarity of two bigram multisets: 1 for the same text, 0 for nothing shared. */
function dice(a: Map<string, number>, b: Map<string, number>): number {
  let shared = 0;
  let total = 0;
  for (const n of a.values()) total += n;
  for (const n of b.values()) total += n;
  if (total === 0) return 0;
  for (const [g, n] of a) shared += Math.min(n, b.get(g) ?? 0);
  return (2 * shared) / total;
}
