/**
 * The synchronous confined writer: PatchPilot's own files under a root (the workspace: its state
 * folder, checkpoints, restores, imported rules) are written only through here. The invariant: **no
 * folder on the way from the root to the file may be a symlink**, checked at the moment of writing.
 * On Linux each folder is opened from the already-open folder above it with O_NOFOLLOW (through
 * /proc/self/fd, like openat), and the file is created and renamed inside the last open folder, so a
 * link swapped in after any check is refused, not followed. Elsewhere each folder is checked with
 * lstat just before the write (a narrow race remains; docs/security.md). Deletions (a restore's
 * removals) go the same way: the entry is removed by its name inside the last open folder, and a
 * folder missing on the way means there is nothing to remove (none is created). The asynchronous twin for
 * workspace files the agent edits is policy/path/confinedCommit.ts, with the same rule.
 */
import {
  appendFileSync,
  closeSync,
  constants as C,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmdirSync,
  symlinkSync,
  chmodSync,
  unlinkSync,
  fsyncSync,
} from 'node:fs';
import path from 'node:path';
import { UserError } from '../base/errors';
import { tempPathFor, writeFileAtomic, type WriteAtomicOptions } from './atomicFile';

const HAS_PROC_FD = existsSync('/proc/self/fd');
const O_NOFOLLOW = C.O_NOFOLLOW ?? 0;
const O_DIRECTORY = C.O_DIRECTORY ?? 0;

export class LinkedFolderError extends UserError {
  constructor(readonly folder: string) {
    super(
      `refused to write through "${folder}": it is a symlink (or not a folder), and PatchPilot writes its files only through real folders of the workspace`,
      'path',
    );
    this.name = 'LinkedFolderError';
  }
}

/** Replaces the file `target` (inside `root`) atomically; missing folders are created as real folders. */
export function writeFileConfined(root: string, target: string, data: string | Uint8Array, options: Pick<WriteAtomicOptions, 'mode' | 'durable'> = {}): void {
  withConfinedFolder(root, path.dirname(target), (dir) => writeFileAtomic(path.join(dir, path.basename(target)), data, options));
}

/** Appends to the file `target` (inside `root`), never through a link, the file itself included. */
export function appendFileConfined(root: string, target: string, data: string, options: { durable?: boolean } = {}): void {
  withConfinedFolder(root, path.dirname(target), (dir) => {
    const fd = openSync(path.join(dir, path.basename(target)), C.O_WRONLY | C.O_APPEND | C.O_CREAT | O_NOFOLLOW, 0o600);
    try {
      appendFileSync(fd, data);
      if (options.durable) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  });
}

/** Creates the folder `folder` (inside `root`, or the root itself) and its parents as real folders. */
export function mkdirConfined(root: string, folder: string, mode?: number): void {
  withConfinedFolder(root, folder, (dir) => {
    if (mode !== undefined) chmodSync(dir, mode);
  });
}

/** Replaces `target` with a symlink to `to` (a restore puts back a link the workspace had). */
export function symlinkConfined(root: string, target: string, to: string): void {
  withConfinedFolder(root, path.dirname(target), (dir) => {
    const tmp = tempPathFor(path.join(dir, path.basename(target)), { hidden: true });
    symlinkSync(to, tmp);
    renameSync(tmp, path.join(dir, path.basename(target)));
  });
}

/** Which entries `removeConfined` removes: any, only a folder (empty), or only a file or link. */
export type RemovedKind = 'any' | 'folder' | 'non-folder';

/**
 * Removes `target` (inside `root`): a file or a link (the link itself, never what it points at), or
 * an empty folder, when it is of `kind`. Every folder on the way must be a real folder (a link is
 * refused with LinkedFolderError, checked at the moment of removal); a missing one, or a missing
 * target, means nothing to remove. Returns whether something was removed.
 */
export function removeConfined(root: string, target: string, kind: RemovedKind = 'any'): boolean {
  if (path.resolve(target) === path.resolve(root)) throw new UserError(`"${target}" is the root itself: PatchPilot does not remove it`, 'path');
  let removed = false;
  withConfinedFolder(
    root,
    path.dirname(target),
    (dir) => {
      const entry = path.join(dir, path.basename(target));
      let st;
      try {
        st = lstatSync(entry);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw err;
      }
      const folder = st.isDirectory();
      if ((kind === 'folder' && !folder) || (kind === 'non-folder' && folder)) return;
      // rmdir removes only an empty folder: its entries are removals of their own.
      if (folder) rmdirSync(entry);
      else unlinkSync(entry);
      removed = true;
    },
    false,
  );
  return removed;
}

/**
 * Removes `target` (inside `root`) and everything under it, by `removeConfined` one entry at a time:
 * a link inside is removed as a link (what it points at is never reached), and a folder on the way
 * swapped for a link meanwhile is refused there. Returns whether something was removed.
 */
export function removeTreeConfined(root: string, target: string): boolean {
  let names: string[] | undefined;
  withConfinedFolder(
    root,
    path.dirname(target),
    (dir) => {
      const entry = path.join(dir, path.basename(target));
      try {
        // lstat, then list only a real folder: a link named like the folder is removed as a link.
        if (lstatSync(entry).isDirectory()) names = readdirSync(entry);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    },
    false,
  );
  for (const name of names ?? []) removeTreeConfined(root, path.join(target, name));
  return removeConfined(root, target);
}

/**
 * Opens `folder` component by component from `root`, never following a link, creating what is
 * missing (`create`; otherwise a missing folder ends the walk and `use` is not called); `use` gets
 * a path that names the open folder itself (no name on the way is looked up again).
 * Exported for writers with steps of their own inside the folder (the history's save keeps a backup
 * and checks its lock between writing and renaming).
 */
export function withConfinedFolder(root: string, folder: string, use: (dir: string) => void, create = true): void {
  const rel = path.relative(root, folder);
  if (rel.startsWith('..') || path.isAbsolute(rel)) throw new UserError(`"${folder}" is outside "${root}": PatchPilot does not write there`, 'path');
  const parts = rel ? rel.split(path.sep) : [];
  if (!HAS_PROC_FD) return withCheckedFolder(root, parts, use, create);
  let fd = openSync(realpathSync(root), C.O_RDONLY | O_DIRECTORY);
  try {
    for (const [i, part] of parts.entries()) {
      const next = openChildFolder(fd, part, path.join(root, ...parts.slice(0, i + 1)), create);
      if (next === undefined) return; // missing, and not to be created: nothing below it to use
      closeSync(fd);
      fd = next;
    }
    use(`/proc/self/fd/${fd}`);
  } finally {
    closeSync(fd);
  }
}

function openChildFolder(parentFd: number, name: string, shown: string, create: boolean): number | undefined {
  const child = `/proc/self/fd/${parentFd}/${name}`;
  const open = () => openSync(child, C.O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  try {
    return open();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'ENOTDIR') throw new LinkedFolderError(shown);
    if (code !== 'ENOENT') throw err;
    if (!create) return undefined;
  }
  // mkdir never follows a link in the last component: a link planted meanwhile is EEXIST, then refused by open.
  try {
    mkdirSync(child, 0o755);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  try {
    return open();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw code === 'ELOOP' || code === 'ENOTDIR' ? new LinkedFolderError(shown) : err;
  }
}

/** Without /proc: each folder checked with lstat (created when missing, if `create`) just before the write. */
function withCheckedFolder(root: string, parts: readonly string[], write: (dir: string) => void, create: boolean): void {
  let dir = realpathSync(root);
  for (const part of parts) {
    dir = path.join(dir, part);
    if (!existsSync(dir) && !lstatOrUndefined(dir)) {
      if (!create) return;
      mkdirSync(dir, 0o755);
    }
    const st = lstatSync(dir);
    if (st.isSymbolicLink() || !st.isDirectory()) throw new LinkedFolderError(dir);
  }
  write(dir);
}

function lstatOrUndefined(p: string) {
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
}
