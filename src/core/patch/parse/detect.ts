import { isApplyPatchMarker } from './apply-patch';
import { CLAIMED_LINE } from './lines';
import type { ClaimedRanges } from './result';
import { isReplaceMarker, isSearchMarker } from './search-replace';

/** First line index of each format's unmistakable markers; -1 when absent. */

export function firstSearchReplaceMarker(lines: readonly string[]): number {
  return lines.findIndex((s) => isSearchMarker(s) || isReplaceMarker(s));
}

export function firstApplyPatchMarker(lines: readonly string[]): number {
  return lines.findIndex(isApplyPatchMarker);
}

/** `diff --git`, `Binary files x and y differ`, a `---`/`+++` pair, a numbered `@@ -n` header, or `@@` followed by a body line. */
export function firstUnifiedMarker(lines: readonly string[]): number {
  for (let i = 0; i < lines.length; i++) {
    const s = lines[i]!;
    if (s.startsWith('diff --git ') || s.startsWith('diff --cc ')) return i;
    if (s.startsWith('Binary files ') && s.endsWith(' differ')) return i;
    if (s.startsWith('--- ') && (lines[i + 1]?.startsWith('+++ ') ?? false)) return i;
    if (s.startsWith('@@')) {
      if (/^@@ -\d/.test(s)) return i;
      const c = lines[i + 1]?.[0];
      if (c === ' ' || c === '+' || c === '-') return i;
    }
  }
  return -1;
}

/**
 * Hides lines another format claimed (the text of SEARCH/REPLACE blocks, apply_patch envelopes)
 * behind fence lines, which every parser treats as a boundary; indexes stay line numbers.
 */
export function mask(lines: readonly string[], claimed: ClaimedRanges): readonly string[] {
  if (claimed.length === 0) return lines;
  const out = lines.slice();
  for (const [from, to] of claimed) {
    for (let i = from; i < to; i++) out[i] = CLAIMED_LINE;
  }
  return out;
}
