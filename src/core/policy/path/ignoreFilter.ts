/**
 * `.patchpilotignore` (gitignore syntax, at the workspace root): matching paths are invisible to
 * the agent: no read, edit, grep or glob. One predicate serves the file tools, the JS grep
 * fallback and the command half (which asks when a command names an ignored path). The file is
 * re-read when its mtime, size or inode changes, so a pattern the user just added counts at once.
 * Matching ignores case (the `ignore` package's default), which errs on the side of hiding.
 */
import { readFileSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { errorMessage } from '../../base';

export const IGNORE_FILE_NAME = '.patchpilotignore';
/** An ignore file larger than this is not a list of patterns; it is refused and everything stays visible but reported. */
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

export interface IgnoreMatch {
  ignored: boolean;
  /** The pattern that decided, as `git check-ignore -v` would report it. */
  pattern?: string;
}

export interface IgnoreFilter {
  /** Absolute paths (inside the workspace) or workspace-relative paths; a trailing `/` marks a directory. */
  isIgnored(absOrRelPath: string, isDirectory?: boolean): boolean;
  explain(absOrRelPath: string, isDirectory?: boolean): IgnoreMatch;
  /** A predicate frozen at the current file contents, for a batch (a grep over many files) without a stat per call. */
  snapshot(): (absOrRelPath: string, isDirectory?: boolean) => boolean;
  /** The problem reading the file, if the last load failed (the caller should tell the user). */
  readonly loadError: string | undefined;
}

export function createIgnoreFilter(workspaceRoot: string): IgnoreFilter {
  const root = path.resolve(workspaceRoot);
  const file = path.join(root, IGNORE_FILE_NAME);
  let stamp = '';
  let ig: Ignore = ignore();
  let loadError: string | undefined;

  function reload(): Ignore {
    let st: Stats | undefined;
    try {
      st = statSync(file);
    } catch {
      st = undefined;
    }
    const next = st ? `${st.mtimeMs}:${st.size}:${st.ino}:${st.ctimeMs}` : 'none';
    if (next === stamp) return ig;
    stamp = next;
    loadError = undefined;
    ig = ignore();
    if (!st) return ig;
    if (!st.isFile() || st.size > MAX_IGNORE_FILE_BYTES) {
      loadError = `${IGNORE_FILE_NAME} is not a regular file under 1 MB; it was not loaded.`;
      return ig;
    }
    try {
      ig.add(readFileSync(file, 'utf8'));
    } catch (e) {
      loadError = `Could not read ${IGNORE_FILE_NAME}: ${errorMessage(e)}`;
    }
    return ig;
  }

  function toRelative(p: string, isDirectory?: boolean): string | undefined {
    const trailing = p.endsWith('/') || p.endsWith(path.sep);
    const abs = path.resolve(root, p);
    const rel = path.relative(root, abs);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
    let posix = rel.split(path.sep).join('/');
    let dir = isDirectory ?? trailing;
    if (isDirectory === undefined && !trailing) {
      try {
        dir = statSync(abs).isDirectory();
      } catch {
        dir = false;
      }
    }
    if (dir) posix += '/';
    return posix;
  }

  function test(matcher: Ignore, p: string, isDirectory?: boolean): IgnoreMatch {
    const rel = toRelative(p, isDirectory);
    if (rel === undefined) return { ignored: false };
    const r = matcher.test(rel);
    return r.ignored ? { ignored: true, ...(r.rule ? { pattern: r.rule.pattern } : {}) } : { ignored: false };
  }

  return {
    isIgnored: (p, isDirectory) => test(reload(), p, isDirectory).ignored,
    explain: (p, isDirectory) => test(reload(), p, isDirectory),
    snapshot() {
      const frozen = reload();
      return (p, isDirectory) => test(frozen, p, isDirectory).ignored;
    },
    get loadError() {
      return loadError;
    },
  };
}
