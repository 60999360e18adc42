/**
 * Whether a workspace's file system folds case (macOS and Windows defaults, some mounts on Linux).
 * Detected per workspace by probing, cached. First without writing: stat the case-swapped name of
 * an existing entry; only if no entry has letters, create a temp file and stat its swapped name.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

const cache = new Map<string, Promise<boolean>>();

function swapCase(s: string): string {
  return s.replace(/[a-zA-Z]/g, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
}

async function sameFile(a: string, b: string): Promise<boolean> {
  try {
    const [x, y] = await Promise.all([fs.lstat(a), fs.lstat(b)]);
    return x.ino === y.ino && x.dev === y.dev;
  } catch {
    return false;
  }
}

async function probe(realRoot: string): Promise<boolean> {
  try {
    const names = await fs.readdir(realRoot);
    const named = names.find((n) => /[a-zA-Z]/.test(n));
    if (named) return await sameFile(path.join(realRoot, named), path.join(realRoot, swapCase(named)));
  } catch {
    // unreadable root: fall through to the temp file probe
  }
  const name = `.pp-case-probe-${randomBytes(4).toString('hex')}aB`;
  const file = path.join(realRoot, name);
  try {
    await fs.writeFile(file, '', { flag: 'wx' });
    try {
      return await sameFile(file, path.join(realRoot, swapCase(name)));
    } finally {
      await fs.rm(file, { force: true });
    }
  } catch {
    // read-only workspace: the platform default is the best remaining guess
    return process.platform === 'darwin' || process.platform === 'win32';
  }
}

/** True when `realRoot`'s file system treats names differing only in case as the same file. */
export function isCaseInsensitive(realRoot: string): Promise<boolean> {
  let p = cache.get(realRoot);
  if (!p) {
    p = probe(realRoot);
    cache.set(realRoot, p);
  }
  return p;
}
