/**
 * Crash-safe whole-file replacement: write a temp file in the same folder, fsync it, keep the
 * current file as `.bak` (a hard link, so no copy of 50 MB), rename the temp file over the target,
 * fsync the folder. A kill -9 at any point leaves the old or the new file under the target name,
 * never a torn one: rename within one folder is atomic on POSIX and NTFS.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { errnoCode, sleepSync, type FsLayer } from './fsLayer';

/** Errors a virus scanner or indexer causes for a moment on Windows: worth a quick retry. */
const TRANSIENT_RENAME = new Set(['EPERM', 'EBUSY', 'EACCES']);
const RENAME_RETRY_DELAYS_MS = [20, 60, 150];

export function backupPath(target: string): string {
  return `${target}.bak`;
}

export function writeFileAtomic(fsx: FsLayer, target: string, bytes: Uint8Array, beforeRename?: () => void): void {
  const tmp = `${target}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  let fd: number | undefined;
  try {
    fd = fsx.openSync(tmp, 'wx', 0o644);
    let offset = 0;
    while (offset < bytes.length) offset += fsx.writeSync(fd, bytes, offset, bytes.length - offset);
    fsx.fsyncSync(fd);
    fsx.closeSync(fd);
    fd = undefined;
    keepBackup(fsx, target);
    beforeRename?.();
    renameWithRetry(fsx, tmp, target);
  } catch (err) {
    if (fd !== undefined) safely(() => fsx.closeSync(fd!));
    safely(() => fsx.unlinkSync(tmp));
    throw err;
  }
  fsyncDir(fsx, path.dirname(target));
}

function renameWithRetry(fsx: FsLayer, from: string, to: string): void {
  for (let attempt = 0; ; attempt++) {
    try {
      fsx.renameSync(from, to);
      return;
    } catch (err) {
      const delay = RENAME_RETRY_DELAYS_MS[attempt];
      if (delay === undefined || !TRANSIENT_RENAME.has(errnoCode(err) ?? '')) throw err;
      sleepSync(delay);
    }
  }
}

/** The current file becomes `.bak` (the previous good file). Best effort: a missing backup never blocks a save. */
function keepBackup(fsx: FsLayer, target: string): void {
  const bak = backupPath(target);
  const tmp = `${bak}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    try {
      fsx.linkSync(target, tmp);
    } catch (err) {
      if (errnoCode(err) === 'ENOENT') return; // first save: nothing to keep
      fsx.copyFileSync(target, tmp); // file systems without hard links
    }
    fsx.renameSync(tmp, bak);
  } catch {
    safely(() => fsx.unlinkSync(tmp));
  }
}

/** Makes the rename itself durable. Folders cannot be fsynced on Windows; ignore that. */
function fsyncDir(fsx: FsLayer, dir: string): void {
  let fd: number | undefined;
  try {
    fd = fsx.openSync(dir, 'r');
    fsx.fsyncSync(fd);
  } catch {
    // not supported here
  } finally {
    if (fd !== undefined) safely(() => fsx.closeSync(fd!));
  }
}

function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // cleanup only
  }
}
