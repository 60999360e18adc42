/** Patches over several files, and patches that create or delete a file. */
import { formatUnified, GIT_PATHS, wholeFileHunk, type FileChange } from '../diff-model';
import type { Kind } from './types';

export const multiFile: Kind = {
  name: 'multi-file',
  group: 'must-apply',
  format: 'unified',
  expectation: 'exact',
  description: 'the clean diffs of 2-4 files changed in the same release, in one `git diff`-style patch',
  make: ({ pair, version, rng }) => {
    const others = version.changed.filter((p) => p.path !== pair.path);
    if (others.length === 0) return null;
    const chosen = [pair, ...rng.shuffle(others).slice(0, rng.int(1, Math.min(3, others.length)))];
    const ordered = rng.shuffle(chosen);
    const changes: FileChange[] = ordered.map((p) => ({ oldPath: p.path, newPath: p.path, hunks: p.hunks }));
    return {
      files: Object.fromEntries(ordered.map((p) => [p.path, p.oldText])),
      expected: Object.fromEntries(ordered.map((p) => [p.path, p.newText])),
      patch: formatUnified(changes, GIT_PATHS, true),
      source: ordered.map((p) => p.source).join(' + '),
      variant: `${ordered.length} files`,
    };
  },
};

const MAX_NEW_FILE_LINES = 300;

export const newAndDeletedFile: Kind = {
  name: 'new-or-deleted-file',
  group: 'must-apply',
  format: 'unified',
  expectation: 'exact',
  description: 'a modified file plus a created (`--- /dev/null`) or a deleted (`+++ /dev/null`) file',
  make: ({ pair, version, rng }) => {
    const candidates = [...version.oldFiles.entries()].filter(
      ([path, text]) => path !== pair.path && text.endsWith('\n') && text.split('\n').length <= MAX_NEW_FILE_LINES,
    );
    if (candidates.length === 0) return null;
    const [otherPath, otherText] = rng.pick(candidates);
    const modify: FileChange = { oldPath: pair.path, newPath: pair.path, hunks: pair.hunks };
    if (rng.bool()) {
      const slash = otherPath.lastIndexOf('/');
      const newPath = `${otherPath.slice(0, slash + 1)}added-${otherPath.slice(slash + 1)}`;
      const create: FileChange = { oldPath: null, newPath, hunks: [wholeFileHunk(otherText, 'add')] };
      return {
        files: { [pair.path]: pair.oldText },
        expected: { [pair.path]: pair.newText, [newPath]: otherText },
        patch: formatUnified([modify, create], GIT_PATHS, true),
        variant: `create ${newPath}`,
      };
    }
    const remove: FileChange = { oldPath: otherPath, newPath: null, hunks: [wholeFileHunk(otherText, 'remove')] };
    return {
      files: { [pair.path]: pair.oldText, [otherPath]: otherText },
      expected: { [pair.path]: pair.newText },
      patch: formatUnified([modify, remove], GIT_PATHS, true),
      variant: `delete ${otherPath}`,
    };
  },
};
