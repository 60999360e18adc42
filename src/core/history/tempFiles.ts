/**
 * Removes temp files left by processes that died mid-save (kill -9): the atomic writer's
 * `<db>.tmp-<pid>-*` (fs/atomicFile.ts), the lock's `<db>.lock.tmp-<pid>-*` and the backup's
 * `<db>.bak.tmp-<pid>-*`.
 */
import path from 'node:path';
import { pidAlive } from './fileLock';
import type { FsLayer } from '../fs/fsLayer';

export function cleanStaleTempFiles(fsx: FsLayer, dbPath: string): number {
  const dir = path.dirname(dbPath);
  const base = path.basename(dbPath);
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
