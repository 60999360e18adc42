/** Every case kind, in table order: must-apply kinds first, then the never-apply-wrong kinds. */
import { clean, droppedContext, extraContext, hunksOutOfOrder, missingLineNumbers, wrongLineNumbers } from './unified-mutations';
import { crlfPatchLfFile, indentationDrift, lfPatchCrlfFile, trailingWhitespace } from './whitespace';
import { pathPrefix, proseAndFences, unicodePunctuation } from './text';
import { applyPatch, searchReplace } from './formats';
import { multiFile, newAndDeletedFile } from './files';
import { ambiguousHunk, missingPlus, wrongDeletedLine } from './unsafe';
import { srCline, srFenceTags, srFilenameFence, srRoo, srSequential } from './peers-search-replace';
import { applyPatchIndented, eolBytes, mixedIndentation, oneSidedContext, unifiedU0 } from './peers-diff';
import type { Kind } from './types';

export const KINDS: readonly Kind[] = [
  clean,
  wrongLineNumbers,
  missingLineNumbers,
  hunksOutOfOrder,
  droppedContext,
  extraContext,
  indentationDrift,
  trailingWhitespace,
  crlfPatchLfFile,
  lfPatchCrlfFile,
  pathPrefix,
  unicodePunctuation,
  proseAndFences,
  applyPatch,
  searchReplace,
  multiFile,
  newAndDeletedFile,
  // The peers' format variants (Codex, aider, Roo Code, Cline, jsdiff, git).
  srFenceTags,
  srFilenameFence,
  srRoo,
  srCline,
  srSequential,
  applyPatchIndented,
  unifiedU0,
  eolBytes,
  missingPlus,
  ambiguousHunk,
  wrongDeletedLine,
  oneSidedContext,
  mixedIndentation,
];
