/** Helpers shared by the case generators. */
import type { SourcePair } from '../corpus/pairs';
import { cloneHunk, findBlock, formatUnified, GIT_PATHS, oldSide, splitLines, type PathStyle, type UHunk } from '../diff-model';
import type { CaseDraft } from './types';

/** The unified diff of a single source pair, with (possibly edited) hunks. */
export function unifiedFor(pair: SourcePair, hunks: UHunk[] = pair.hunks, style: PathStyle = GIT_PATHS): string {
  return formatUnified([{ oldPath: pair.path, newPath: pair.path, hunks }], style);
}

/** A one-file case: old text in, new text expected. */
export function singleFile(pair: SourcePair, patch: string, variant?: string): CaseDraft {
  return { files: { [pair.path]: pair.oldText }, patch, expected: { [pair.path]: pair.newText }, variant };
}

export function hunksCopy(pair: SourcePair): UHunk[] {
  return pair.hunks.map(cloneHunk);
}

export function endsWithNewline(pair: SourcePair): boolean {
  return pair.oldText.endsWith('\n') && pair.newText.endsWith('\n');
}

export function hasMarker(h: UHunk): boolean {
  return h.lines.some((l) => l.startsWith('\\'));
}

/** Leading/trailing run of context lines in a hunk body. */
export function leadingContext(h: UHunk): number {
  let n = 0;
  while (h.lines[n]?.startsWith(' ')) n++;
  return n;
}

export function trailingContext(h: UHunk): number {
  let n = 0;
  while (h.lines.at(-1 - n)?.startsWith(' ')) n++;
  return n;
}

export function toCrlf(text: string): string {
  return text.replace(/\n/g, '\r\n');
}

/**
 * True when the text of every hunk alone (its old side) locates it: it occurs exactly once in
 * the file. Kinds that take away or falsify the line numbers need this, or the "must apply"
 * case would really be ambiguous and a careful engine would be right to refuse it.
 */
export function locatableWithoutLineNumbers(pair: SourcePair): boolean {
  const file = splitLines(pair.oldText);
  return pair.hunks.every((h) => findBlock(file, oldSide(h)).length === 1);
}
