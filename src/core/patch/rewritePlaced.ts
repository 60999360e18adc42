import { endingAbove, giveOldLastLineAnEnding } from './addedEndings';
import type { EditScript } from './editScript';
import type { Region } from './lineDiff';
import { fileLineOfOld, topDown, type Placed } from './placement';
import type { Hunk, LineRange } from './types';
import { joinText, type FileLine, type splitText } from './text';

type Split = ReturnType<typeof splitText>;

/** A changed region of one placement: old lines a0..a1, and o0..o1 within the placement's output. */
interface LocalRegion {
  a0: number;
  a1: number;
  o0: number;
  o1: number;
}

/** What one placement puts in place of the file lines it covers. */
interface PlacementOutput {
  out: FileLine[];
  regions: LocalRegion[];
}

/**
 * Rewrites bottom-up so earlier line numbers stay valid; context lines keep the file's bytes.
 * `newRanges`: the lines each hunk's text occupies in the new file (what the model is told, so a
 * later edit of the same place reads the right lines).
 */
export function rewrite(split: Split, placed: readonly Placed[], original: string): { script: EditScript; newRanges: Map<Hunk, LineRange> } {
  const n = split.lines.length;
  // Each placement's replacement for its lines; spliced in once at the end, top-down in one pass
  // (splicing each into the file array would cost hunks x lines).
  const outputs = new Map<Placed, PlacementOutput>();
  const added = new Set<FileLine>();
  let finalNewline = split.finalNewline;
  let endDecided = false;
  // Bottom-up; at one start a replacement goes before an insertion there, so the insertion lands
  // in front of the replaced lines without shifting them first.
  for (const p of [...placed].sort((a, b) => b.cand.start - a.cand.start || b.end - a.end || b.hunk.index - a.hunk.index)) {
    outputs.set(p, placementOutput(p, split.lines, added));
    if (p.end === n) {
      if (p.hunk.newNoNewlineAtEnd && !p.hunk.oldNoNewlineAtEnd) finalNewline = false;
      else if (p.hunk.oldNoNewlineAtEnd && !p.hunk.newNoNewlineAtEnd) finalNewline = true;
      endDecided = !!(p.hunk.newNoNewlineAtEnd || p.hunk.oldNoNewlineAtEnd);
    }
  }
  const lines = assemble(split.lines, placed, outputs);
  giveOldLastLineAnEnding(lines, split);
  // git's semantics: a line owns its newline. When the old last line (the one without) is gone
  // and an earlier line of the file ends it now, that line keeps its newline.
  const lastLine = lines[lines.length - 1];
  if (!finalNewline && !endDecided && lastLine && n > 0 && lastLine !== split.lines[n - 1] && !added.has(lastLine)) finalNewline = true;
  if (finalNewline && lastLine && lastLine.eol === '') lines[lines.length - 1] = { text: lastLine.text, eol: endingAbove(lines, lines.length - 1, split) };
  const { regions, newRanges } = newRegions(placed, outputs);
  const script: EditScript = {
    oldText: original,
    newText: joinText(lines, split.bom, finalNewline, split.dominantEol),
    oldLines: split.lines,
    newLines: lines,
    bom: split.bom,
    oldFinalNewline: split.finalNewline,
    newFinalNewline: finalNewline,
    dominantEol: split.dominantEol,
    regions,
  };
  return { script, newRanges };
}

/**
 * One placement's output lines (context lines are the file's own, file lines the patch dropped
 * from its context are kept) and its changed regions. Added lines go into `added`.
 */
function placementOutput(p: Placed, fileLines: readonly FileLine[], added: Set<FileLine>): PlacementOutput {
  const { cand, variant } = p;
  const fileOf = fileLineOfOld(variant, cand);
  const out: FileLine[] = [];
  const regions: LocalRegion[] = [];
  let open: LocalRegion | undefined;
  const close = () => {
    if (open) regions.push(open);
    open = undefined;
  };
  let cursor = cand.start;
  const texts = p.texts!;
  variant.lines.forEach((line, i) => {
    if (line.kind === 'add') {
      open ??= { a0: cursor, a1: cursor, o0: out.length, o1: out.length };
      const line_: FileLine = { text: texts.get(i)!, eol: p.eols!.get(i)! };
      added.add(line_);
      out.push(line_);
      open.o1 = out.length;
      return;
    }
    const q = fileOf[i]!;
    if (cursor < q) close();
    while (cursor < q) out.push(fileLines[cursor++]!); // file lines the patch dropped from its context
    if (line.kind === 'context') {
      close();
      out.push(fileLines[q]!);
    } else {
      open ??= { a0: q, a1: q, o0: out.length, o1: out.length };
      open.a1 = q + 1;
    }
    cursor = q + 1;
  });
  close();
  return { out, regions };
}

/** Each placement's changed regions in old and new file lines, top-down. */
function newRegions(placed: readonly Placed[], outputs: ReadonlyMap<Placed, PlacementOutput>): { regions: Region[]; newRanges: Map<Hunk, LineRange> } {
  const regions: Region[] = [];
  const newRanges = new Map<Hunk, LineRange>();
  let delta = 0;
  for (const p of [...placed].sort(topDown)) {
    const { out, regions: local } = outputs.get(p)!;
    const newStart = p.cand.start + delta;
    for (const r of local) regions.push({ a0: r.a0, a1: r.a1, b0: newStart + r.o0, b1: newStart + r.o1 });
    newRanges.set(p.hunk, { start: newStart + 1, end: newStart + out.length });
    delta += out.length - (p.end - p.cand.start);
  }
  return { regions, newRanges };
}

/** The file's lines with each placement's lines replaced by its output, in one top-down pass. */
function assemble(fileLines: readonly FileLine[], placed: readonly Placed[], outputs: ReadonlyMap<Placed, PlacementOutput>): FileLine[] {
  const lines: FileLine[] = [];
  let cursor = 0;
  // At one start an insertion (empty range) goes in front of the lines replaced there.
  for (const p of [...placed].sort(topDown)) {
    while (cursor < p.cand.start) lines.push(fileLines[cursor++]!);
    for (const l of outputs.get(p)!.out) lines.push(l);
    cursor = Math.max(cursor, p.end);
  }
  while (cursor < fileLines.length) lines.push(fileLines[cursor++]!);
  return lines;
}
