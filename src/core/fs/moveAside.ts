/**
 * The one way PatchPilot puts a damaged file out of the way (the history database, the saved chat):
 * renamed next to itself as `<name>.corrupt-<time>`, never over an earlier one, so it can be looked
 * at and nothing is lost. Given the `root` the file lives under, the rename goes through the
 * confined writer's open folder (no folder on the way may be a link out of it, checked at the
 * moment of the rename), as every other write of PatchPilot's own files does.
 */
import path from 'node:path';
import { withConfinedFolder } from './confinedWrite';
import { nodeFs, type FsLayer } from './fsLayer';

/** Renames a damaged file out of the way; returns the new name, or undefined if it could not be moved. */
export function moveAside(file: string, now: number = Date.now(), fsx: FsLayer = nodeFs, root?: string): string | undefined {
  if (root === undefined) return renameAside(path.dirname(file), path.basename(file), now, fsx);
  let moved: string | undefined;
  try {
    withConfinedFolder(root, path.dirname(file), (dir) => (moved = renameAside(dir, path.basename(file), now, fsx)), false);
  } catch {
    return undefined; // a linked folder on the way: the file stays where it is, and the caller says so
  }
  return moved === undefined ? undefined : path.join(path.dirname(file), path.basename(moved));
}

function renameAside(dir: string, name: string, now: number, fsx: FsLayer): string | undefined {
  const stamp = new Date(now).toISOString().replace(/[:.]/g, '-');
  for (let i = 0; i < 100; i++) {
    const target = path.join(dir, `${name}.corrupt-${stamp}${i ? `-${i}` : ''}`);
    if (fsx.existsSync(target)) continue;
    try {
      fsx.renameSync(path.join(dir, name), target);
      return target;
    } catch {
      return undefined;
    }
  }
  return undefined;
}
