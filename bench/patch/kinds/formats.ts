/** The same change written in the other two formats models use: apply_patch and SEARCH/REPLACE. */
import { newSide, oldSide, splitLines, type UHunk } from '../diff-model';
import type { Rng } from '../rng';
import { endsWithNewline, locatableWithoutLineNumbers, singleFile } from './common';
import type { Kind } from './types';

/**
 * A line before the hunk that names where it is (a less-indented, non-blank line), usable as an
 * apply_patch `@@ anchor`: it must be the first line with that text after the previous hunk.
 */
function findAnchor(file: string[], h: UHunk, prevEnd: number): string | null {
  const first = h.oldStart - 1; // 0-based first old line
  const body = oldSide(h).find((l) => l.trim() !== '');
  if (body === undefined) return null;
  const indent = (s: string): number => s.length - s.trimStart().length;
  for (let i = first - 1; i >= prevEnd; i--) {
    const line = file[i];
    if (line === undefined || line.trim().length < 3 || indent(line) >= indent(body)) continue;
    const text = line.trimEnd();
    const firstHit = file.findIndex((l, k) => k >= prevEnd && l.trimEnd() === text);
    return firstHit === i ? text : null;
  }
  return null;
}

export function applyPatchEnvelope(path: string, oldText: string, hunks: UHunk[], rng: Rng): string {
  const file = splitLines(oldText);
  const out = ['*** Begin Patch', `*** Update File: ${path}`];
  let prevEnd = 0;
  for (const h of hunks) {
    const anchor = rng.bool(0.5) ? findAnchor(file, h, prevEnd) : null;
    out.push(anchor ? `@@ ${anchor}` : '@@');
    out.push(...h.lines.filter((l) => l[0] !== '\\'));
    prevEnd = h.oldStart - 1 + h.oldLines;
    if (prevEnd >= file.length) out.push('*** End of File');
  }
  out.push('*** End Patch');
  return out.join('\n') + '\n';
}

export const applyPatch: Kind = {
  name: 'apply-patch-envelope',
  group: 'must-apply',
  format: 'apply_patch',
  expectation: 'exact',
  description: 'the same change as an apply_patch envelope (`*** Update File:`, `@@` anchors, `*** End of File`)',
  make: ({ pair, rng }) => {
    // The envelope has no line numbers: only hunks whose text is unique make a fair must-apply case.
    if (!endsWithNewline(pair) || !locatableWithoutLineNumbers(pair)) return null;
    return singleFile(pair, applyPatchEnvelope(pair.path, pair.oldText, pair.hunks, rng));
  },
};

export function searchReplaceBlocks(path: string, hunks: UHunk[]): string {
  const blocks = hunks.map((h) => [path, '<<<<<<< SEARCH', ...oldSide(h), '=======', ...newSide(h), '>>>>>>> REPLACE'].join('\n'));
  return blocks.join('\n\n') + '\n';
}

export const searchReplace: Kind = {
  name: 'search-replace',
  group: 'must-apply',
  format: 'search_replace',
  expectation: 'exact',
  description: 'the same change as SEARCH/REPLACE blocks (path line, `<<<<<<< SEARCH`, `=======`, `>>>>>>> REPLACE`)',
  make: ({ pair }) => {
    if (!endsWithNewline(pair)) return null;
    // A SEARCH block carries no line number: only unique blocks make a fair must-apply case.
    if (!locatableWithoutLineNumbers(pair)) return null;
    return singleFile(pair, searchReplaceBlocks(pair.path, pair.hunks));
  },
};
