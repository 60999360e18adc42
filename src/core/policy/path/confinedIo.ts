/**
 * Confined reads and writes of single workspace files (the walk and its guarantees: confinedWalk.ts).
 * An atomic write is the one confined commit (confinedCommit.ts) with a single change, the same
 * path the PatchManager's multi-file writes take.
 */
import { constants as C, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { commitConfined } from './confinedCommit';
import {
  ConfinementError,
  HAS_PROC_FD,
  O_NOFOLLOW,
  assertStillInside,
  fdPath,
  inside,
  locate,
  openParentDir,
  translateOpenError,
  viaFd,
  type Target,
} from './confinedWalk';

export { ConfinementError } from './confinedWalk';

export interface WriteConfinedOptions {
  /** Write a temp file and rename it over the target (default true): never writes through an existing inode. */
  atomic?: boolean;
  /** Create missing parent directories, each inside the workspace. */
  mkdirs?: boolean;
  /** In-place writes only: allow a target with more than one hard link (the caller got approval). */
  allowHardLinks?: boolean;
  /** Exact mode of the written file (default: an existing file keeps its mode, a new one gets the umask's). */
  mode?: number;
}

/**
 * Opens a workspace file for reading (flags 'r') or in-place writing ('r+'), never following a
 * symlink at any level below the root. The caller closes the handle.
 */
export async function openConfined(workspaceRoot: string, p: string, flags: 'r' | 'r+' = 'r'): Promise<{ handle: FileHandle; realPath: string }> {
  const t = await locate(workspaceRoot, p);
  const access = flags === 'r' ? C.O_RDONLY : C.O_RDWR;
  if (!HAS_PROC_FD) return { handle: await fallbackOpen(t, access), realPath: t.realPath };
  const dir = await openParentDir(t, false);
  try {
    const handle = await fs.open(viaFd(dir.fd, t.base), access | O_NOFOLLOW).catch((e) => translateOpenError(e, t));
    const st = await handle.stat();
    if (!st.isFile()) {
      await handle.close();
      throw new ConfinementError(`"${t.realPath}" is not a regular file.`);
    }
    if (!inside(t.realRoot, await fdPath(handle.fd))) {
      await handle.close();
      throw new ConfinementError(`"${t.realPath}" left the workspace.`);
    }
    return { handle, realPath: t.realPath };
  } finally {
    await dir.close();
  }
}

/**
 * Writes a workspace file without following symlinks swapped in after the policy check. Atomic (the
 * default): the one confined commit (confinedCommit.ts) with a single change. In place: the file's
 * inode is kept, after checking it is a regular file with one link.
 */
export async function writeConfined(
  workspaceRoot: string,
  p: string,
  data: string | Uint8Array,
  options: WriteConfinedOptions = {},
): Promise<{ realPath: string; bytes: number }> {
  const bytes = typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
  if (options.atomic ?? true) {
    const [realPath] = await commitConfined(
      workspaceRoot,
      [{ kind: 'write', path: p, content: data, ...(options.mode !== undefined ? { mode: options.mode } : {}) }],
      { mkdirs: options.mkdirs },
    );
    return { realPath: realPath!, bytes };
  }
  const t = await locate(workspaceRoot, p);
  if (!HAS_PROC_FD) {
    await fallbackWriteInPlace(t, data, options);
    return { realPath: t.realPath, bytes };
  }
  const dir = await openParentDir(t, options.mkdirs ?? false);
  try {
    // No O_TRUNC at open: the checks below must pass before any byte changes.
    const handle = await fs.open(viaFd(dir.fd, t.base), C.O_WRONLY | C.O_CREAT | O_NOFOLLOW, options.mode ?? 0o666).catch((e) => translateOpenError(e, t));
    try {
      const st = await handle.stat();
      if (!st.isFile()) throw new ConfinementError(`"${t.realPath}" is not a regular file.`);
      if (st.nlink > 1 && !options.allowHardLinks)
        throw new ConfinementError(`"${t.realPath}" has ${st.nlink} hard links; writing in place would change them all.`, 'path-hard-link');
      await assertStillInside(dir, t);
      await handle.truncate(0);
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    return { realPath: t.realPath, bytes };
  } finally {
    await dir.close();
  }
}

/** Non-Linux: O_NOFOLLOW on the final component plus a re-check of the parent's real path. */
async function fallbackOpen(t: Target, access: number): Promise<FileHandle> {
  const handle = await fs.open(t.realPath, access | O_NOFOLLOW).catch((e) => translateOpenError(e, t));
  const parentReal = await fs.realpath(path.dirname(t.realPath)).catch(() => '');
  if (parentReal !== path.dirname(t.realPath) || !(await handle.stat()).isFile()) {
    await handle.close();
    throw new ConfinementError(`"${t.realPath}" changed while opening it.`);
  }
  return handle;
}

async function fallbackWriteInPlace(t: Target, data: string | Uint8Array, options: WriteConfinedOptions): Promise<void> {
  const parent = path.dirname(t.realPath);
  if (options.mkdirs) await fs.mkdir(parent, { recursive: true });
  if ((await fs.realpath(parent)) !== parent) throw new ConfinementError(`The parent of "${t.realPath}" changed after the check.`);
  const handle = await fs.open(t.realPath, C.O_WRONLY | C.O_CREAT | O_NOFOLLOW, options.mode ?? 0o666).catch((e) => translateOpenError(e, t));
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw new ConfinementError(`"${t.realPath}" is not a regular file.`);
    if (st.nlink > 1 && !options.allowHardLinks) throw new ConfinementError(`"${t.realPath}" has ${st.nlink} hard links.`, 'path-hard-link');
    await handle.truncate(0);
    await handle.writeFile(data);
  } finally {
    await handle.close();
  }
}
