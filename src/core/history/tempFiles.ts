/**
 * Removes temp files left by processes that died mid-save (kill -9): the atomic writer's
 * `<db>.tmp-<pid>-*` (fs/atomicFile.ts), the lock's `<db>.lock.tmp-<pid>-*` and the backup's
 * `<db>.bak.tmp-<pid>-*`. Listed and removed inside the folder opened from `root` without following a
 * link (fs/confinedWrite.ts): a state folder swapped for a link out is refused, nothing out there removed.
 */
import path from 'node:path';
import { pidAlive } from './fileLock';
import { withConfinedFolder } from '../fs/confinedWrite';
import type { FsLayer } from '../fs/fsLayer';

export function cleanStaleTempFiles(fsx: FsLayer, dbPath: string, root = path.dirname(dbPath)): number {
  let removed = 0;
  try {
    withConfinedFolder(root, path.dirname(dbPath), (dir) => (removed = removeStale(fsx, dir, path.basename(dbPath))), false);
  } catch {
    return 0; // a linked folder: the save refuses it with a clear error
  }
  return removed;
}

function removeStale(fsx: FsLayer, dir: string, base: string): number {
  let names: string[];
  try {
    names = fsx.readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith(`${base}.`)) continue;
    const m = /\.tmp-(\d+)-[0-9a-f-]+$/.exec(name);
    if (!m || pidAlive(Number(m[1]))) continue;
    try {
      fsx.unlinkSync(path.join(dir, name));
      removed++;
    } catch {
      // someone else cleaned it
    }
  }
  return removed;
}
