/**
 * File access that closes most of the time-of-check/time-of-use gap (attacks.paths: "a link swapped between
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
 * Residual risks (documented in docs/security.md): a directory moved out of the workspace after we opened
 * it (we re-check just before writing, a window of microseconds remains), bind mounts (need root),
 * and the non-Linux fallback's window.
 */
import { existsSync, constants as C, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { UserError } from '../../base';

export class ConfinementError extends UserError {
  constructor(message: string, code = 'path-confinement') {
    super(message, code);
    this.name = 'ConfinementError';
  }
}

export const O_NOFOLLOW = C.O_NOFOLLOW ?? 0;
const O_DIRECTORY = C.O_DIRECTORY ?? 0;
export const HAS_PROC_FD = process.platform === 'linux' && existsSync('/proc/self/fd');

export interface Target {
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
export async function locate(workspaceRoot: string, p: string): Promise<Target> {
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

export const viaFd = (fd: number, name: string) => `/proc/self/fd/${fd}/${name}`;

export async function fdPath(fd: number): Promise<string> {
  return fs.readlink(`/proc/self/fd/${fd}`);
}

export function inside(root: string, p: string): boolean {
  return p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/**
 * Opens the parent directory of the target by walking from the root without following links
 * (Linux). Folders it creates (`mkdirs`) are appended to `created`, outermost first, for a rollback.
 */
export async function openParentDir(t: Target, mkdirs: boolean, created: string[] = []): Promise<FileHandle> {
  let dir = await fs.open(t.realRoot, C.O_RDONLY | O_DIRECTORY);
  try {
    if ((await fdPath(dir.fd)) !== t.realRoot) throw new ConfinementError('The workspace root moved while opening it.');
    for (const [i, name] of t.parentParts.entries()) {
      if (mkdirs) {
        const made = await fs.mkdir(viaFd(dir.fd, name)).then(
          () => true,
          (e: NodeJS.ErrnoException) => (e.code === 'EEXIST' ? false : Promise.reject(e)),
        );
        if (made) created.push(path.join(t.realRoot, ...t.parentParts.slice(0, i + 1)));
      }
      let next: FileHandle;
      try {
        next = await fs.open(viaFd(dir.fd, name), C.O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ELOOP' || code === 'ENOTDIR')
          throw new ConfinementError(`"${name}" changed into a symlink or file after the check; refusing to follow it.`);
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

export async function assertStillInside(dir: FileHandle, t: Target): Promise<void> {
  const where = await fdPath(dir.fd);
  if (!inside(t.realRoot, where)) throw new ConfinementError(`The directory was moved out of the workspace (now ${where}).`);
}

export function translateOpenError(e: unknown, t: Target): never {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ELOOP') throw new ConfinementError(`"${t.realPath}" is (now) a symlink; refusing to follow it.`);
  throw e;
}
