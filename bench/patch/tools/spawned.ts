/** The baselines a user would reach for on the command line: git apply (two ways) and GNU patch. */
import type { BenchCase } from '../kinds/types';
import type { Tool, ToolResult } from './types';
import { pool, runInTree, stripLevel } from './workdir';

const WORKERS = 2;
const unifiedOnly = (c: BenchCase): boolean => c.format === 'unified';

function spawnedTool(name: string, command: string, cmd: string, args: (c: BenchCase, patchFile: string) => string[]): Tool {
  return {
    name,
    command,
    spawns: true,
    supports: unifiedOnly,
    async runAll(cases, onProgress) {
      const results = await pool(cases, WORKERS, (c) => runInTree(c, cmd, (f) => args(c, f)), onProgress);
      // pool returns one result per case, in the order of the cases.
      return new Map<string, ToolResult>(cases.map((c, i) => [c.id, results[i] as ToolResult]));
    },
  };
}

export const gitApply = spawnedTool('git', 'git apply -pN', 'git', (c, f) => ['apply', `-p${stripLevel(c.patch)}`, f]);

export const gitApplyLax = spawnedTool('git-lax', 'git apply -pN --recount --ignore-whitespace -C1', 'git', (c, f) => [
  'apply',
  `-p${stripLevel(c.patch)}`,
  '--recount',
  '--ignore-whitespace',
  '-C1',
  f,
]);

export const gnuPatch = spawnedTool('gnu-patch', 'patch --batch --fuzz=5 -l -pN (no backups, rejects discarded)', 'patch', (c, f) => [
  '--batch',
  '--fuzz=5',
  '-l',
  `-p${stripLevel(c.patch)}`,
  '--no-backup-if-mismatch',
  '--reject-file=-',
  '-i',
  f,
]);
