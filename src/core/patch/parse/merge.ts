import type { FilePatch } from '../types';
import { renumber } from './hunk-lines';
import { at } from './lines';

/**
 * A model that sends several fenced blocks often repeats a file's header in each. Sections that
 * modify the same file are joined into one FilePatch (hunk ids stay unique per path); other
 * repeats are kept apart and reported, since their order matters and the applier must judge.
 */
export function mergeSameFile(files: FilePatch[], warnings: string[]): FilePatch[] {
  const out: FilePatch[] = [];
  const modifyByPath = new Map<string, FilePatch>();
  const seen = new Set<string>();
  for (const file of files) {
    const key = file.newPath ?? file.oldPath ?? '';
    const earlier = file.operation === 'modify' ? modifyByPath.get(key) : undefined;
    if (earlier) {
      earlier.hunks.push(...file.hunks);
      renumber(earlier.hunks);
      warnings.push(at(file.patchLine, `second section for ${key} joined with the one at line ${earlier.patchLine}`));
      continue;
    }
    if (seen.has(key)) warnings.push(at(file.patchLine, `${key} appears in more than one file section`));
    seen.add(key);
    if (file.operation === 'modify') modifyByPath.set(key, file);
    out.push(file);
  }
  return out;
}
