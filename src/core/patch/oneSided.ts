import type { HunkLine } from './types';
import type { FileIndex } from './fileIndex';
import type { Candidate } from './match';

/**
 * A unified-diff hunk whose added lines have context on one side only. Every diff tool writes
 * context on both sides of a change unless the change touches the start or the end of the file,
 * so git anchors such a hunk there: no context after the added lines means the end of the file,
 * none before them the start. Anywhere else the added lines could belong right where the
 * context ends (the model dropped the rest) or at that end of the file (the context is stale),
 * so the place is uncertain and the hunk is refused with what to send instead.
 *
 * Only an insertion at the open edge counts: when removed lines sit there, the added lines take
 * their place, which the removed lines themselves fix.
 */
export interface OpenEdges {
  /** Added lines before the first old-side line, which is context. */
  top: boolean;
  /** Added lines after the last old-side line, which is context. */
  bottom: boolean;
}

export function openEdges(lines: readonly HunkLine[]): OpenEdges {
  const first = lines.findIndex((l) => l.kind !== 'add');
  let last = lines.length - 1;
  while (last >= 0 && lines[last]!.kind === 'add') last--;
  if (first < 0) return { top: false, bottom: false };
  return {
    top: first > 0 && lines[first]!.kind === 'context',
    bottom: last < lines.length - 1 && lines[last]!.kind === 'context',
  };
}

const endOf = (c: Candidate) => (c.map.length ? c.map[c.map.length - 1]! + 1 : c.start);

/** The candidates where the open edges hold: at the start / at the end of the file. */
export function anchoredAtEdges(index: FileIndex, edges: OpenEdges, cands: readonly Candidate[]): Candidate[] {
  return cands.filter((c) => (!edges.top || c.start === 0) && (!edges.bottom || endOf(c) === index.length));
}

/** A line as the reason quotes it: a blank one said in words (`""` read as a mistake). */
const clip = (s: string) => (!s.trim() ? (s ? 'a line of only whitespace' : 'an empty line') : JSON.stringify(s.length > 80 ? `${s.slice(0, 79)}…` : s));

export function oneSidedReason(index: FileIndex, edges: OpenEdges, cand: Candidate): string {
  if (edges.bottom) {
    const end = endOf(cand);
    return (
      `its added lines have context only before them, which (as in git) places them at the end of the file, ` +
      `but the context matches at line ${cand.start + 1} and the file goes on after line ${end} with ${clip(index.lines[end] ?? '')}; ` +
      'add the unchanged lines that follow the insertion as context (or, if it belongs at the end of the file, use its last lines as context)'
    );
  }
  return (
    `its added lines have context only after them, which (as in git) places them at the start of the file, ` +
    `but the context matches at line ${cand.start + 1}, after ${clip(index.lines[cand.start - 1] ?? '')}; ` +
    'add the unchanged lines that come before the insertion as context (or, if it belongs at the start of the file, use its first lines as context)'
  );
}
