import type { Hunk } from './types';
import type { FileIndex } from './fileIndex';
import { nearestPlace } from './match';
import { keyAt } from './normalize';

/** Refusal messages a model can act on: which hunk, what was searched, the nearest place, the difference. */

export function hunkHeader(h: Hunk): string {
  const anchors = h.anchors.length ? ' ' + h.anchors.join(' / ') : '';
  if (h.oldStart === undefined) return `@@${anchors}`;
  const old = h.oldCount === undefined ? `${h.oldStart}` : `${h.oldStart},${h.oldCount}`;
  const nw = h.newStart === undefined ? '' : h.newCount === undefined ? ` +${h.newStart}` : ` +${h.newStart},${h.newCount}`;
  return `@@ -${old}${nw} @@${anchors}`;
}

/**
 * A hunk's id for selection (`--accept`, the diff review, history): the file and the hunk's number
 * as every message shows it, from 1 ("src/a.ts#1" is "src/a.ts hunk #1").
 */
export function hunkId(path: string, index: number): string {
  return `${path}#${index + 1}`;
}

export function hunkLabel(path: string, h: Hunk): string {
  return `${path} hunk #${h.index + 1} (${hunkHeader(h)}, patch line ${h.patchLine})`;
}

const clip = (s: string, n = 100) => (s.length > n ? s.slice(0, n - 1) + '…' : s);

/** "searched for" block plus the nearest candidate and a short diff of the lines that differ. */
export function explainNotFound(index: FileIndex, h: Hunk, old: readonly string[], expected: number | undefined): string {
  const shown = old.slice(0, 4).map((l) => `    | ${clip(l)}`);
  if (old.length > 4) shown.push(`    | … (${old.length} old-side lines in all)`);
  const parts = ['  searched for the old side (context and removed lines):', ...shown];
  const near = nearestPlace(index, old, expected);
  if (!near || index.length === 0) {
    parts.push(index.length === 0 ? '  the file is empty.' : '  no line of it occurs in the file.');
    return parts.join('\n');
  }
  const diffs: string[] = [];
  let equal = 0;
  for (let i = 0; i < old.length; i++) {
    const q = near.start + i;
    const fileLine = q >= 0 && q < index.length ? index.lines[q]! : undefined;
    if (fileLine !== undefined && keyAt('whitespace', fileLine) === keyAt('whitespace', old[i]!)) {
      equal++;
      continue;
    }
    if (diffs.length < 6) {
      diffs.push(`    ${q < 0 ? 'before line 1' : `line ${q + 1}`}: patch ${JSON.stringify(clip(old[i]!))}`);
      const absent = q < 0 ? '(before the start of the file)' : '(past the end of the file)';
      diffs.push(`    ${' '.repeat(String(q + 1).length + 5)}  file  ${fileLine === undefined ? absent : JSON.stringify(clip(fileLine))}`);
    }
  }
  parts.push(`  nearest candidate at line ${Math.max(1, near.start + 1)} (${equal} of ${old.length} lines equal, ignoring whitespace); it differs:`);
  parts.push(...diffs);
  return parts.join('\n');
}
