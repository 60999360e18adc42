/**
 * The one hunk model. Every accepted patch format (unified diff, apply_patch envelope,
 * SEARCH/REPLACE blocks) is parsed into these types, so matching, preview, per-hunk selection
 * and apply share one path.
 *
 * Conventions:
 * - Line text never includes its line ending ("\n" or "\r\n" are stripped by the parser).
 * - Line numbers are 1-based. Header numbers are hints only: models get them wrong.
 * - Paths are workspace-relative with forward slashes, `a/` `b/` `./` prefixes already removed.
 */

export type PatchFormat = 'unified' | 'apply_patch' | 'search_replace';

export type HunkLineKind = 'context' | 'add' | 'remove';

export interface HunkLine {
  kind: HunkLineKind;
  text: string;
  /**
   * The line had no valid prefix in the patch (models drop the leading space of context lines,
   * and sometimes the `+` of an added line). Parsed as context; the matcher decides whether it is
   * really context or an added line, and refuses when it cannot tell.
   */
  unprefixed?: boolean;
  /**
   * The ending this line had in the patch text, set only when the patch mixes endings (a git diff
   * of a CRLF file has LF headers and CRLF body lines): then it is part of what the patch says,
   * and an added line keeps it in a file that mixes endings too. Never part of `text`.
   */
  eol?: '\r\n' | '\n';
}

export interface Hunk {
  /** 0-based position of this hunk in its file patch, as written in the patch text. */
  index: number;
  /** Header hints (unified diff `@@ -a,b +c,d @@`); undefined when missing or a bare `@@`. */
  oldStart?: number;
  oldCount?: number;
  newStart?: number;
  newCount?: number;
  /**
   * Anchor lines that locate the hunk: apply_patch `@@ def foo():` lines (outermost first) or
   * the section heading after a unified `@@ ... @@`. The matcher prefers matches after them.
   */
  anchors: string[];
  /** The hunk body in order. `remove` + `context` lines form the old side; `add` + `context` the new. */
  lines: HunkLine[];
  /** `\ No newline at end of file` after the old side / the new side. */
  oldNoNewlineAtEnd?: boolean;
  newNoNewlineAtEnd?: boolean;
  /** apply_patch `*** End of File` marker, or a unified hunk known to touch the end of file. */
  atEndOfFile?: boolean;
  /** 1-based line in the patch text where this hunk starts, for error messages. */
  patchLine: number;
  /**
   * Every line of the patch text ended in CRLF, so no line carries its own `eol`: the patch was
   * written, or carried, in CRLF. Unset for LF throughout (a model's usual patch) and for a mixed
   * text, whose lines carry their endings.
   */
  crlfPatch?: boolean;
  /**
   * SEARCH/REPLACE: blank lines at the start or end of the SEARCH text may be absent from the
   * file (models add them; aider and Cline match without them).
   */
  looseBlankEdges?: boolean;
}

export type FileOperation = 'modify' | 'create' | 'delete' | 'rename';

export interface FilePatch {
  operation: FileOperation;
  /** Path before the change; null for a created file. */
  oldPath: string | null;
  /** Path after the change; null for a deleted file. For modify, equal to oldPath. */
  newPath: string | null;
  hunks: Hunk[];
  /**
   * For create: the complete content is the `add` lines of the single hunk. (SEARCH/REPLACE only:
   * an empty-SEARCH block creates the file and later blocks for the same path follow as hunks
   * 1..n, to be applied to the content hunk 0 created.)
   * For delete: hunks may be empty (apply_patch `*** Delete File:`) or list the whole old content.
   */
  /** Git binary patch or "Binary files differ": cannot be applied, refused with a reason. */
  binary?: boolean;
  /** 1-based line in the patch text where this file section starts. */
  patchLine: number;
}

export interface ParsedPatch {
  format: PatchFormat;
  files: FilePatch[];
  /** Things the parser tolerated (a bare `@@`, a recounted header, stripped fences), for the log. */
  warnings: string[];
}

export interface PatchParseError {
  message: string;
  /** 1-based line in the patch text, when the error has a place. */
  line?: number;
}

/** How a hunk was located in the file. Ordered from most to least strict. */
export type MatchStrategy =
  'exact' | 'trailing-whitespace' | 'unicode' | 'indentation' | 'whitespace' | 'context-trimmed' | 'fuzzy' | 'end-of-file' | 'create' | 'delete';

export interface LineRange {
  /** 1-based first line of the matched old text in the original file. */
  start: number;
  /** 1-based last line (inclusive); start - 1 for an empty match (pure insertion). */
  end: number;
}

export type HunkStatus = 'applied' | 'would-apply' | 'refused' | 'rejected';

export interface HunkResult {
  /** Stable id for selection: `${path}#${index + 1}` (hunkId) with the file's new path (old path for delete). */
  id: string;
  path: string;
  index: number;
  /** applied (written), would-apply (dry run, matched), refused (engine could not place it), rejected (not selected). */
  status: HunkStatus;
  range?: LineRange;
  /** 1-based lines the hunk's text occupies in the new file (end = start - 1 when it only removed lines); set when it was placed. */
  newRange?: LineRange;
  strategy?: MatchStrategy;
  /** 0..1; 1 for an exact match at the hinted line. */
  confidence?: number;
  /** Why it was refused: which hunk, what was searched, nearest candidate and its line, how it differs. */
  reason?: string;
  /** What the matcher repaired to place it (trimmed stale context, a recovered `+`, kept dropped context). */
  note?: string;
}

export interface FileResult {
  operation: FileOperation;
  oldPath: string | null;
  newPath: string | null;
  /** ok: every selected hunk placed; refused: nothing of this file can be applied. */
  status: 'ok' | 'refused';
  hunks: HunkResult[];
  /** Text before / after (null when the file does not exist on that side). Absent on refusal. */
  oldText?: string | null;
  newText?: string | null;
  reason?: string;
}

export interface ApplyResult {
  /** True when every file is ok (rejected-by-selection hunks do not make a patch fail). */
  ok: boolean;
  dryRun: boolean;
  format?: PatchFormat;
  files: FileResult[];
  /** A unified diff that undoes what was (or would be) applied. Empty when nothing changes. */
  reversePatch: string;
  /** A summary for the model when !ok: every refusal, one paragraph each. */
  error?: string;
  /** What the parser tolerated (prose around a fence, a missing `*** End Patch`), for the user and the model. */
  warnings?: string[];
}

export interface ApplyOptions {
  /** Compute the new contents without writing anything. */
  dryRun?: boolean;
  /** Only these hunk ids are applied; others are reported as `rejected`. Default: all. */
  acceptedHunks?: ReadonlySet<string>;
  /** The user saw these hunks in a review before this apply: a host need not show the result again. */
  reviewed?: boolean;
}
