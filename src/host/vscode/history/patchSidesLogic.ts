/**
 * The two sides of a recorded patch for VS Code's diff editor: the files as the run recorded them
 * before and after (snapshots), or, for a patch recorded without them (an older PatchPilot, a file
 * over the snapshot cap, a refused proposal), the patch's own hunks: each hunk's old lines against
 * its new lines, the gaps between hunks marked. No `vscode` import.
 */
import { parsePatch } from '../../../core/patch';
import type { PatchRecord } from '../../../core/history';

export interface PatchSide {
  path: string;
  before: string;
  after: string;
  /** 'recorded': whole files; 'hunks': only what the patch text holds. */
  source: 'recorded' | 'hunks';
}

export const GAP = '⋯';

export function patchSides(p: PatchRecord): PatchSide[] {
  if (p.snapshots?.length) return p.snapshots.map((s) => ({ path: s.path, before: s.before ?? '', after: s.after ?? '', source: 'recorded' }));
  const parsed = parsePatch(p.text);
  if (!parsed.ok) return [{ path: p.files[0] ?? 'patch', before: '', after: p.text, source: 'hunks' }];
  return parsed.value.files.map((f) => {
    const old: string[] = [];
    const neu: string[] = [];
    f.hunks.forEach((h, i) => {
      if (i > 0) {
        old.push(GAP);
        neu.push(GAP);
      }
      for (const l of h.lines) {
        if (l.kind !== 'add') old.push(l.text);
        if (l.kind !== 'remove') neu.push(l.text);
      }
    });
    return { path: f.newPath ?? f.oldPath ?? 'patch', before: old.join('\n'), after: neu.join('\n'), source: 'hunks' };
  });
}
