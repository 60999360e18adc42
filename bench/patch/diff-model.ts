/**
 * The benchmark's own small unified-diff model: hunks as prefixed lines, exactly as they will be
 * written. Case generators edit these lines (the corruption) and then format them. Kept separate
 * from the engine's model on purpose: the benchmark must not share code with what it measures.
 */
import { structuredPatch } from 'diff';

export interface UHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  /** Lines with their prefix: ' ' context, '-' removed, '+' added, '\' no-newline marker. */
  lines: string[];
  /** Overrides the `@@ -a,b +c,d @@` header line (bare `@@`, misleading numbers). */
  header?: string;
}

export interface FileChange {
  /** null: the file is created. */
  oldPath: string | null;
  /** null: the file is deleted. */
  newPath: string | null;
  hunks: UHunk[];
}

export interface PathStyle {
  oldPrefix: string;
  newPrefix: string;
}

export const GIT_PATHS: PathStyle = { oldPrefix: 'a/', newPrefix: 'b/' };

/** Unified diff hunks of old -> new with 3 lines of context (jsdiff, same as `diff -u`). */
export function diffHunks(oldText: string, newText: string, context = 3): UHunk[] {
  const sp = structuredPatch('old', 'new', oldText, newText, '', '', { context });
  return sp.hunks.map((h) => ({
    oldStart: h.oldStart,
    oldLines: h.oldLines,
    newStart: h.newStart,
    newLines: h.newLines,
    lines: [...h.lines],
  }));
}

export function cloneHunk(h: UHunk): UHunk {
  return { ...h, lines: [...h.lines] };
}

/** Text of the old side (context + removed), without prefixes or markers. */
export function oldSide(h: UHunk): string[] {
  return h.lines.filter((l) => l[0] === ' ' || l[0] === '-').map((l) => l.slice(1));
}

export function newSide(h: UHunk): string[] {
  return h.lines.filter((l) => l[0] === ' ' || l[0] === '+').map((l) => l.slice(1));
}

/** Makes the header counts agree with the body again (after lines were added or dropped). */
export function recount(h: UHunk): UHunk {
  const oldLines = oldSide(h).length;
  const newLines = newSide(h).length;
  // An empty side's start is the line before it (diff convention); a non-empty side starts at >= 1.
  return {
    ...h,
    oldLines,
    newLines,
    oldStart: oldLines === 0 ? Math.max(0, h.oldStart) : Math.max(1, h.oldStart),
    newStart: newLines === 0 ? Math.max(0, h.newStart) : Math.max(1, h.newStart),
  };
}

export function hunkHeader(h: UHunk): string {
  return h.header ?? `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`;
}

/**
 * Formats file changes as a unified diff: `---`/`+++` headers, and with `git` also the
 * `diff --git` line and new/deleted file modes that `git diff` writes (how multi-file patches
 * usually look; it also ends each file section for tools that recount hunk bodies).
 */
export function formatUnified(changes: FileChange[], style: PathStyle = GIT_PATHS, git = false): string {
  const out: string[] = [];
  for (const c of changes) {
    if (git) {
      const path = c.oldPath ?? c.newPath;
      out.push(`diff --git a/${c.oldPath ?? path} b/${c.newPath ?? path}`);
      if (c.oldPath === null) out.push('new file mode 100644');
      if (c.newPath === null) out.push('deleted file mode 100644');
    }
    out.push(`--- ${c.oldPath === null ? '/dev/null' : style.oldPrefix + c.oldPath}`);
    out.push(`+++ ${c.newPath === null ? '/dev/null' : style.newPrefix + c.newPath}`);
    for (const h of c.hunks) out.push(hunkHeader(h), ...h.lines);
  }
  return out.join('\n') + '\n';
}

/** Lines of a text as the diff sees them ("a\nb\n" -> ["a", "b"]). */
export function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** 0-based indexes of every place where `needle` occurs as consecutive lines of `hay`. */
export function findBlock(hay: readonly string[], needle: readonly string[]): number[] {
  const hits: number[] = [];
  if (needle.length === 0) return hits;
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    hits.push(i);
  }
  return hits;
}

/** A hunk for creating a file with this content (or deleting one: pass `remove`). */
export function wholeFileHunk(text: string, side: 'add' | 'remove'): UHunk {
  const lines = splitLines(text);
  const prefix = side === 'add' ? '+' : '-';
  const body = lines.map((l) => prefix + l);
  if (!text.endsWith('\n')) body.push('\\ No newline at end of file');
  return side === 'add'
    ? { oldStart: 0, oldLines: 0, newStart: 1, newLines: lines.length, lines: body }
    : { oldStart: 1, oldLines: lines.length, newStart: 0, newLines: 0, lines: body };
}
