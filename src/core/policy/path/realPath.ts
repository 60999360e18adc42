/**
 * Resolves a path the way the kernel will when a tool opens it: component by component, following
 * every symlink (also dangling ones, and symlinked parents), so the result is where a read or write
 * would really land, even for a file that does not exist yet.
 */
import { promises as fs, type Stats } from 'node:fs';
import path from 'node:path';

export interface RealPathInfo {
  /** Absolute real path (existing prefix resolved, the rest appended). */
  real: string;
  /** Whether the final target exists. */
  exists: boolean;
  /** Symlinks crossed on the way (absolute lexical locations). */
  symlinks: string[];
  /** lstat of the final real target, when it exists. */
  stat?: Stats;
}

const MAX_LINKS = 40;

export class PathLoopError extends Error {
  constructor(p: string) {
    super(`Too many levels of symbolic links resolving "${p}".`);
    this.name = 'PathLoopError';
  }
}

export async function resolveRealPath(absPath: string): Promise<RealPathInfo> {
  const root = path.parse(absPath).root;
  const pending = splitParts(absPath.slice(root.length));
  let current = root;
  let exists = true;
  let links = 0;
  const symlinks: string[] = [];
  let stat: Stats | undefined = await fs.lstat(root);
  while (pending.length > 0) {
    const name = pending.shift()!;
    if (name === '.') continue;
    if (name === '..') {
      current = path.dirname(current);
      continue;
    }
    const next = path.join(current, name);
    if (!exists) {
      current = next;
      continue;
    }
    let st: Stats;
    try {
      st = await fs.lstat(next);
    } catch {
      exists = false;
      stat = undefined;
      current = next;
      continue;
    }
    if (st.isSymbolicLink()) {
      if (++links > MAX_LINKS) throw new PathLoopError(absPath);
      symlinks.push(next);
      const target = await fs.readlink(next);
      // The target's own components go through the same walk: no lexical ".." collapsing.
      pending.unshift(...splitParts(path.isAbsolute(target) ? target.slice(path.parse(target).root.length) : target));
      if (path.isAbsolute(target)) current = path.parse(target).root;
      continue;
    }
    current = next;
    stat = st;
    if (!st.isDirectory() && pending.some((p) => p !== '.' && p !== '..')) {
      // A file used as a directory: nothing below it can exist.
      exists = false;
      stat = undefined;
    }
  }
  return exists && stat ? { real: current, exists: true, symlinks, stat } : { real: current, exists: false, symlinks };
}

/** On POSIX a backslash is an ordinary file name character; only Windows separates on it. */
const SEPARATORS = path.sep === '\\' ? /[\\/]+/ : /\/+/;

function splitParts(p: string): string[] {
  return p.split(SEPARATORS).filter((x) => x !== '');
}
