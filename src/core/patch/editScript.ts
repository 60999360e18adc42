import type { StructuredPatchHunk } from 'diff';
import type { Eol, FileLine } from './text';
import { formatRegions, type Region, type SideView } from './lineDiff';

/**
 * What the applier changed in one file, as regions of its line arrays. The reverse patch is built
 * from this directly (no re-splitting and re-diffing of two big texts): untouched lines are the
 * very same objects on both sides, and only the first lines (a BOM) and the last lines (an ending
 * added or dropped) can render differently, which is checked explicitly.
 */
export interface EditScript {
  oldText: string;
  newText: string;
  oldLines: readonly FileLine[];
  newLines: readonly FileLine[];
  bom: boolean;
  oldFinalNewline: boolean;
  newFinalNewline: boolean;
  dominantEol: Eol;
  /** Changed regions, old lines a0..a1 replaced by new lines b0..b1, ascending. */
  regions: Region[];
}

function view(lines: readonly FileLine[], bom: boolean, finalNewline: boolean, eol: Eol): SideView {
  const n = lines.length;
  return {
    length: n,
    noEol: n > 0 && !finalNewline,
    text(i) {
      const l = lines[i]!;
      const ending = i < n - 1 ? l.eol || eol : finalNewline ? l.eol || eol : '';
      return (i === 0 && bom ? '\uFEFF' : '') + l.text + (ending === '\r\n' ? '\r' : '');
    },
  };
}

/** Adds a one-line region where a last line renders differently although the applier kept it. */
function boundaryFixes(s: EditScript, A: SideView, B: SideView): Region[] {
  const regs = s.regions.slice();
  const render = (v: SideView, i: number) => v.text(i) + (v.noEol && i === v.length - 1 ? '\0' : '');
  const alignOld = (i: number): number | undefined => {
    let delta = 0;
    for (const r of s.regions) {
      if (i >= r.a0 && i < r.a1) return undefined;
      if (r.a1 <= i) delta += r.b1 - r.b0 - (r.a1 - r.a0);
    }
    return i + delta;
  };
  const alignNew = (j: number): number | undefined => {
    let delta = 0;
    for (const r of s.regions) {
      if (j >= r.b0 && j < r.b1) return undefined;
      if (r.b1 <= j) delta += r.b1 - r.b0 - (r.a1 - r.a0);
    }
    return j - delta;
  };
  // First lines too: a BOM renders with whichever line comes first.
  const pairs: [number, number][] = [];
  for (const i of A.length > 0 ? [0, A.length - 1] : []) {
    const j = alignOld(i);
    if (j !== undefined) pairs.push([i, j]);
  }
  for (const j of B.length > 0 ? [0, B.length - 1] : []) {
    const i = alignNew(j);
    if (i !== undefined) pairs.push([i, j]);
  }
  for (const [i, j] of pairs) {
    if (render(A, i) !== render(B, j) && !regs.some((r) => r.a0 === i && r.a1 === i + 1)) regs.push({ a0: i, a1: i + 1, b0: j, b1: j + 1 });
  }
  regs.sort((x, y) => x.a0 - y.a0 || x.b0 - y.b0);
  const merged: Region[] = [];
  for (const r of regs) {
    const last = merged[merged.length - 1];
    if (last && r.a0 <= last.a1 && r.b0 <= last.b1) {
      last.a1 = Math.max(last.a1, r.a1);
      last.b1 = Math.max(last.b1, r.b1);
    } else merged.push({ ...r });
  }
  return merged;
}

/** Hunks that take the new text back to the old one. */
export function reverseHunks(s: EditScript): StructuredPatchHunk[] {
  const A = view(s.oldLines, s.bom, s.oldFinalNewline, s.dominantEol);
  const B = view(s.newLines, s.bom, s.newFinalNewline, s.dominantEol);
  const regs = boundaryFixes(s, A, B).map((r) => ({ a0: r.b0, a1: r.b1, b0: r.a0, b1: r.a1 }));
  return formatRegions(B, A, regs);
}
