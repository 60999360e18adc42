/**
 * The one crash-safe file replacement of PatchPilot, used by the history store's saves and by every
 * confined workspace write (write_file and the PatchManager, policy/path/confinedCommit.ts):
 * write a temp file next to the target (exclusive create), fsync it, rename it over the target,
 * fsync the folder. A kill -9 at any point leaves the old or the new file under the target name,
 * never a torn one: rename within one folder is atomic on POSIX and NTFS. The steps are exported
 * for a multi-file commit that prepares every temp before swapping any.
 *
 * Synchronous on purpose: the history saves from a worker and from process.on('exit'), where no
 * promise can be awaited; a workspace write is a few small files.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { errnoCode, nodeFs, sleepSync, type FsLayer } from './fsLayer';

/** Errors a virus scanner or indexer causes for a moment on Windows: worth a quick retry. */
const TRANSIENT_RENAME = new Set(['EPERM', 'EBUSY', 'EACCES']);
const RENAME_RETRY_DELAYS_MS = [20, 60, 150];

/**
 * A temp name in the target's own folder, carrying the pid so a dead process's leftovers can be told
 * apart: `<name>.tmp-<pid>-<hex>`, which the state folder's `.gitignore` patterns (`history.db*`)
 * cover; `hidden` prefixes a dot, for files in the user's workspace (editors and watchers skip it).
 */
export function tempPathFor(target: string, options: { hidden?: boolean } = {}): string {
  return path.join(path.dirname(target), `${options.hidden ? '.' : ''}${path.basename(target)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
}

/** A file's contents: text, bytes, or bytes produced in parts (a large file written without holding it whole). */
export type FileData = string | Uint8Array | Iterable<Uint8Array>;

/**
 * Creates `file` (it must not exist), writes all of `data`, fsyncs and closes it. `mode` is applied
 * exactly (the umask must not strip an executable bit); without it the umask decides. A failure
 * removes the half-written file.
 */
export function writeTempSync(file: string, data: FileData, mode?: number, fsx: FsLayer = nodeFs, sync = true): void {
  const parts = typeof data === 'string' ? [Buffer.from(data, 'utf8')] : data instanceof Uint8Array ? [data] : data;
  let fd: number | undefined;
  try {
    fd = fsx.openSync(file, 'wx', mode ?? 0o666);
    for (const bytes of parts) {
      let offset = 0;
      while (offset < bytes.length) offset += fsx.writeSync(fd, bytes, offset, bytes.length - offset);
    }
    if (mode !== undefined) fsx.fchmodSync(fd, mode);
    if (sync) fsx.fsyncSync(fd);
    fsx.closeSync(fd);
    fd = undefined;
  } catch (err) {
    if (fd !== undefined) safely(() => fsx.closeSync(fd!));
    safely(() => fsx.unlinkSync(file));
    throw err;
  }
}

/** rename(2), retried briefly on the transient errors Windows scanners cause. */
export function renameSync(from: string, to: string, fsx: FsLayer = nodeFs): void {
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

/** Makes a rename in `dir` durable. Best effort: folders cannot be fsynced on Windows and some file systems. */
export function fsyncDirSync(dir: string, fsx: FsLayer = nodeFs): void {
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

export interface WriteAtomicOptions {
  /** Exact mode of the new file (default: the umask's). */
  mode?: number;
  /** Runs after the temp file is durable, just before the rename (keep a backup, check a lock); a throw aborts the write. */
  beforeRename?: () => void;
  fsx?: FsLayer;
  /**
   * false: no fsync (of the file or its folder). The replacement is still whole or absent after a
   * kill -9 (the page cache outlives the process), not after a power cut: for data that can be
   * found missing and said so (checkpoint blobs), where a thousand fsyncs per step would cost seconds.
   */
  durable?: boolean;
}

/** Replaces `target` with `data`: temp file, fsync, rename, fsync the folder. */
export function writeFileAtomic(target: string, data: FileData, options: WriteAtomicOptions = {}): void {
  const fsx = options.fsx ?? nodeFs;
  const tmp = tempPathFor(target);
  const durable = options.durable !== false;
  writeTempSync(tmp, data, options.mode, fsx, durable);
  try {
    options.beforeRename?.();
    renameSync(tmp, target, fsx);
  } catch (err) {
    safely(() => fsx.unlinkSync(tmp));
    throw err;
  }
  if (durable) fsyncDirSync(path.dirname(target), fsx);
}

function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // cleanup only
  }
}
