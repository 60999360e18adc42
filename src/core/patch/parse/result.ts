import type { FilePatch } from '../types';

/** What one format parser found: files in patch order and what it tolerated. */
export interface FormatParse {
  files: FilePatch[];
  warnings: string[];
}

/** Line index ranges [from, to) a parser read as its own, hidden from the other formats. */
export type ClaimedRanges = Array<[number, number]>;
