import path from 'node:path';
import { errorMessage } from '../../base';
import { resolveRealPath } from './realPath';

export type Confined = { ok: true; real: string; exists: boolean } | { ok: false; reason: string };

/**
 * Where a workspace-relative path really is, resolved like the kernel resolves it (realPath.ts,
 * the same walk checkPath judges), or why it may not be touched: outside the workspace, through a
 * link that leads out, through a dangling link. The confined writes then go to `real` without
 * following any link (confinedCommit.ts).
 */
export async function confinePath(rootReal: string, rel: string): Promise<Confined> {
  if (rel === '' || rel.includes('\0')) return { ok: false, reason: 'empty or invalid path' };
  if (path.isAbsolute(rel)) return { ok: false, reason: `absolute path "${rel}" is outside the workspace` };
  let info;
  try {
    info = await resolveRealPath(path.join(rootReal, rel));
  } catch (e) {
    return { ok: false, reason: `path "${rel}" cannot be resolved (${errorMessage(e)})` };
  }
  const within = path.relative(rootReal, info.real);
  if (within === '' || within.startsWith('..') || path.isAbsolute(within)) {
    return {
      ok: false,
      reason: info.symlinks.length
        ? `path "${rel}" resolves through a symbolic link to ${info.real}, outside the workspace`
        : `path "${rel}" is outside the workspace`,
    };
  }
  // A link to nothing is as suspicious as one that leads out: what it names could appear anywhere later.
  if (!info.exists && info.symlinks.length > 0) return { ok: false, reason: `path "${rel}" goes through a dangling symbolic link` };
  return { ok: true, real: info.real, exists: info.exists };
}
