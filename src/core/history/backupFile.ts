/**
 * A database save that keeps the previous good file: the shared atomic writer (fs/atomicFile.ts),
 * with the current file kept as `.bak` (a hard link, so no copy of 50 MB) just before the rename.
 * loadDb.ts falls back to the backup when the main file is damaged.
 */
import { randomBytes } from 'node:crypto';
import { writeFileAtomic, type FileData } from '../fs/atomicFile';
import { errnoCode, type FsLayer } from '../fs/fsLayer';

export function backupPath(target: string): string {
  return `${target}.bak`;
}

/** Replaces the database file atomically; `beforeRename` (the lock check) runs after the backup is kept. */
export function saveWithBackup(fsx: FsLayer, target: string, bytes: FileData, beforeRename?: () => void): void {
  writeFileAtomic(target, bytes, {
    fsx,
    beforeRename: () => {
      keepBackup(fsx, target);
      beforeRename?.();
    },
  });
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
    try {
      fsx.unlinkSync(tmp);
    } catch {
      // nothing to clean
    }
  }
}
