/**
 * File access that closes most of the time-of-check/time-of-use gap (A8: "a link swapped between
 * check and write"). checkPath decides on a real path; between that check and the write, a
 * concurrent process could swap a parent directory or the file for a symlink. These helpers walk
 * the path again from an open descriptor of the workspace root, one component at a time with
 * O_NOFOLLOW, so a swapped-in symlink makes the open fail instead of being followed.
 *
 * On Linux, `/proc/self/fd/<dirfd>/<name>` is resolved by the kernel from the open directory
 * itself (like openat(2)), so once a directory is open, renaming or replacing its path does not
 * redirect us. Elsewhere (macOS, Windows) Node has no openat: we open with O_NOFOLLOW on the final
 * component and re-check the parent's real path right after, which leaves a short window.
 * Pass the `realPath` from checkPath: these helpers follow no link at all below the root.
 * Residual risks (documented in README): a directory moved out of the workspace after we opened
 * it (we re-check just before writing, a window of microseconds remains), bind mounts (need root),
 * and the non-Linux fallback's window.
 */
import { existsSync, constants as C, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { UserError } from '../../base';

export class ConfinementError extends UserError {
  constructor(message: string, code = 'path-confinement') {
    super(message, code);
    this.name = 'ConfinementError';
  }
}

const O_NOFOLLOW = C.O_NOFOLLOW ?? 0;
const O_DIRECTORY = C.O_DIRECTORY ?? 0;
const HAS_PROC_FD = process.platform === 'linux' && existsSync('/proc/self/fd');

export interface WriteConfinedOptions {
  /** Write a temp file and rename it over the target (default true): never writes through an existing inode. */
  atomic?: boolean;
  /** Create missing parent directories, each inside the workspace. */
  mkdirs?: boolean;
  /** In-place writes only: allow a target with more than one hard link (the caller got approval). */
  allowHardLinks?: boolean;
  /** Mode for a new file (default 0o666 minus umask); an existing file keeps its mode. */
  mode?: number;
}

interface Target {
  realRoot: string;
  /** Components from the root to the parent directory. */
  parentParts: string[];
  base: string;
  realPath: string;
}

/**
 * Maps the path onto the real workspace root WITHOUT following links: callers pass the realPath
 * that checkPath returned, and any symlink found on the way now means something was swapped in.
 */
async function locate(workspaceRoot: string, p: string): Promise<Target> {
  const realRoot = await fs.realpath(workspaceRoot);
  const givenRoot = path.resolve(workspaceRoot);
  let abs = path.resolve(realRoot, p);
  if (path.isAbsolute(p) && givenRoot !== realRoot && (p === givenRoot || p.startsWith(givenRoot + path.sep))) {
    abs = path.join(realRoot, path.relative(givenRoot, p));
  }
  const rel = path.relative(realRoot, abs);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) {
    throw new ConfinementError(`"${p}" is not a file inside the workspace.`);
  }
  const parts = rel.split(path.sep);
  const base = parts.pop()!;
  return { realRoot, parentParts: parts, base, realPath: abs };
}

const viaFd = (fd: number, name: string) => `/proc/self/fd/${fd}/${name}`;

async function fdPath(fd: number): Promise<string> {
  return fs.readlink(`/proc/self/fd/${fd}`);
}

function inside(root: string, p: string): boolean {
  return p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/** Opens the parent directory of the target by walking from the root without following links (Linux). */
async function openParentDir(t: Target, mkdirs: boolean): Promise<FileHandle> {
  let dir = await fs.open(t.realRoot, C.O_RDONLY | O_DIRECTORY);
  try {
    if ((await fdPath(dir.fd)) !== t.realRoot) throw new ConfinementError('The workspace root moved while opening it.');
    for (const name of t.parentParts) {
      if (mkdirs) await fs.mkdir(viaFd(dir.fd, name)).catch((e: NodeJS.ErrnoException) => (e.code === 'EEXIST' ? undefined : Promise.reject(e)));
      let next: FileHandle;
      try {
        next = await fs.open(viaFd(dir.fd, name), C.O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ELOOP' || code === 'ENOTDIR') throw new ConfinementError(`"${name}" changed into a symlink or file after the check; refusing to follow it.`);
        throw e;
      }
      await dir.close();
      dir = next;
    }
    return dir;
  } catch (e) {
    await dir.close().catch(() => undefined);
    throw e;
  }
}

async function assertStillInside(dir: FileHandle, t: Target): Promise<void> {
  const where = await fdPath(dir.fd);
  if (!inside(t.realRoot, where)) throw new ConfinementError(`The directory was moved out of the workspace (now ${where}).`);
}

function translateOpenError(e: unknown, t: Target): never {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ELOOP') throw new ConfinementError(`"${t.realPath}" is (now) a symlink; refusing to follow it.`);
  throw e;
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

/** Writes a workspace file without following symlinks swapped in after the policy check. */
export async function writeConfined(workspaceRoot: string, p: string, data: string | Uint8Array, options: WriteConfinedOptions = {}): Promise<{ realPath: string; bytes: number }> {
  const t = await locate(workspaceRoot, p);
  const bytes = typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
  const atomic = options.atomic ?? true;
  if (!HAS_PROC_FD) {
    await fallbackWrite(t, data, atomic, options);
    return { realPath: t.realPath, bytes };
  }
  const dir = await openParentDir(t, options.mkdirs ?? false);
  try {
    if (atomic) {
      let mode = options.mode ?? 0o666;
      const existing = await fs.lstat(viaFd(dir.fd, t.base)).catch(() => undefined);
      if (existing?.isDirectory()) throw new ConfinementError(`"${t.realPath}" is a directory.`);
      if (existing?.isFile()) mode = existing.mode & 0o7777;
      const tmpName = `.${t.base}.pp-${randomBytes(6).toString('hex')}.tmp`;
      const tmp = await fs.open(viaFd(dir.fd, tmpName), C.O_WRONLY | C.O_CREAT | C.O_EXCL | O_NOFOLLOW, mode);
      try {
        await tmp.writeFile(data);
        await tmp.chmod(mode);
        await tmp.sync();
      } finally {
        await tmp.close();
      }
      try {
        await assertStillInside(dir, t);
        // rename() replaces the name itself: a symlink or hard link at the target is replaced, never written through.
        await fs.rename(viaFd(dir.fd, tmpName), viaFd(dir.fd, t.base));
      } catch (e) {
        await fs.rm(viaFd(dir.fd, tmpName), { force: true }).catch(() => undefined);
        throw e;
      }
    } else {
      // No O_TRUNC at open: the checks below must pass before any byte changes.
      const handle = await fs.open(viaFd(dir.fd, t.base), C.O_WRONLY | C.O_CREAT | O_NOFOLLOW, options.mode ?? 0o666).catch((e) => translateOpenError(e, t));
      try {
        const st = await handle.stat();
        if (!st.isFile()) throw new ConfinementError(`"${t.realPath}" is not a regular file.`);
        if (st.nlink > 1 && !options.allowHardLinks) throw new ConfinementError(`"${t.realPath}" has ${st.nlink} hard links; writing in place would change them all.`, 'path-hard-link');
        await assertStillInside(dir, t);
        await handle.truncate(0);
        await handle.writeFile(data);
        await handle.sync();
      } finally {
        await handle.close();
      }
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

async function fallbackWrite(t: Target, data: string | Uint8Array, atomic: boolean, options: WriteConfinedOptions): Promise<void> {
  const parent = path.dirname(t.realPath);
  if (options.mkdirs) await fs.mkdir(parent, { recursive: true });
  if ((await fs.realpath(parent)) !== parent) throw new ConfinementError(`The parent of "${t.realPath}" changed after the check.`);
  if (atomic) {
    const tmp = path.join(parent, `.${t.base}.pp-${randomBytes(6).toString('hex')}.tmp`);
    await fs.writeFile(tmp, data, { flag: 'wx', mode: options.mode ?? 0o666 });
    try {
      if ((await fs.realpath(parent)) !== parent) throw new ConfinementError(`The parent of "${t.realPath}" changed during the write.`);
      await fs.rename(tmp, t.realPath);
    } catch (e) {
      await fs.rm(tmp, { force: true });
      throw e;
    }
    return;
  }
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
