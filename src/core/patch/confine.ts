import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { pathProblem } from './fileOps';

/**
 * Keeps every read and write inside the workspace root. Textual checks (absolute, `..`) first,
 * then the real path: a symlink anywhere on the way that leads outside is refused, and writes go
 * to the real target so a link inside the workspace is followed, never replaced.
 */

export type Confined = { ok: true; real: string; exists: boolean } | { ok: false; reason: string };

function inside(rootReal: string, p: string): boolean {
  const rel = path.relative(rootReal, p);
  return rel === '' ? false : !rel.startsWith('..') && !path.isAbsolute(rel);
}

export async function confinePath(rootReal: string, rel: string): Promise<Confined> {
  const problem = pathProblem(rel);
  if (problem) return { ok: false, reason: problem };
  const abs = path.resolve(rootReal, rel);
  if (!inside(rootReal, abs)) return { ok: false, reason: `path "${rel}" is outside the workspace` };
  let st;
  try {
    st = await lstat(abs);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT' && (e as NodeJS.ErrnoException).code !== 'ENOTDIR') throw e;
  }
  if (st) {
    let real: string;
    try {
      real = await realpath(abs);
    } catch {
      return { ok: false, reason: `path "${rel}" is a symbolic link to a missing target` };
    }
    if (!inside(rootReal, real)) return { ok: false, reason: `path "${rel}" resolves through a symbolic link to ${real}, outside the workspace` };
    return { ok: true, real, exists: true };
  }
  // Not there yet: its nearest existing ancestor must really be inside the workspace.
  let parent = path.dirname(abs);
  for (;;) {
    try {
      const real = await realpath(parent);
      if (real !== rootReal && !inside(rootReal, real)) {
        return { ok: false, reason: `the folder of "${rel}" resolves through a symbolic link to ${real}, outside the workspace` };
      }
      return { ok: true, real: path.join(real, path.relative(parent, abs)), exists: false };
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') return { ok: false, reason: `the folder of "${rel}" cannot be resolved (${code})` };
      // A dangling symlink on the way is as suspicious as one pointing outside.
      try {
        await lstat(parent);
        return { ok: false, reason: `the folder of "${rel}" goes through a dangling symbolic link` };
      } catch {
        /* really missing: go up */
      }
      parent = path.dirname(parent);
    }
  }
}
