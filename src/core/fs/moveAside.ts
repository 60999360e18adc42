/**
 * The one way PatchPilot puts a damaged file out of the way (the history database, the saved chat):
 * renamed next to itself as `<name>.corrupt-<time>`, never over an earlier one, so it can be looked
 * at and nothing is lost.
 */
import { nodeFs, type FsLayer } from './fsLayer';

/** Renames a damaged file out of the way; returns the new name, or undefined if it could not be moved. */
export function moveAside(file: string, now: number = Date.now(), fsx: FsLayer = nodeFs): string | undefined {
  const stamp = new Date(now).toISOString().replace(/[:.]/g, '-');
  for (let i = 0; i < 100; i++) {
    const target = `${file}.corrupt-${stamp}${i ? `-${i}` : ''}`;
    if (fsx.existsSync(target)) continue;
    try {
      fsx.renameSync(file, target);
      return target;
    } catch {
      return undefined;
    }
  }
  return undefined;
}
