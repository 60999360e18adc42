/**
 * Source pairs: one file changed between two published versions, whose diff has 1-6 hunks.
 * Every case kind starts from a pair; the expected result is the new version's exact bytes.
 */
import { diffHunks, type UHunk } from '../diff-model';
import type { VersionPair } from './packages';
import { fetchPackage, readTextFiles } from './fetch';

export interface SourcePair {
  /** `pkg@from..to:path`, stable across runs. */
  source: string;
  pkg: string;
  from: string;
  to: string;
  path: string;
  oldText: string;
  newText: string;
  hunks: UHunk[];
}

export interface VersionFiles {
  pair: VersionPair;
  /** Every text file of the old version (for new/deleted-file and multi-file cases). */
  oldFiles: Map<string, string>;
  changed: SourcePair[];
}

const MAX_LINES = 5000;

export async function loadVersionPair(pair: VersionPair): Promise<VersionFiles> {
  const [oldRoot, newRoot] = await Promise.all([fetchPackage(pair.pkg, pair.from), fetchPackage(pair.pkg, pair.to)]);
  const oldFiles = readTextFiles(oldRoot);
  const newFiles = readTextFiles(newRoot);
  const changed: SourcePair[] = [];
  for (const [path, oldText] of oldFiles) {
    const newText = newFiles.get(path);
    if (newText === undefined || newText === oldText) continue;
    if (oldText.split('\n').length > MAX_LINES || newText.split('\n').length > MAX_LINES) continue;
    const hunks = diffHunks(oldText, newText);
    if (hunks.length < 1 || hunks.length > 6) continue;
    changed.push({
      source: `${pair.pkg}@${pair.from}..${pair.to}:${path}`,
      pkg: pair.pkg,
      from: pair.from,
      to: pair.to,
      path,
      oldText,
      newText,
      hunks,
    });
  }
  return { pair, oldFiles, changed };
}
