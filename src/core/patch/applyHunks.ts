import type { Hunk, HunkResult, HunkStatus, PatchFormat } from './types';
import { FileIndex } from './fileIndex';
import { locateHunk, oldSide, type Located, type Variant } from './locate';
import type { Candidate } from './match';
import { ambiguousReason, planAddedLines } from './addedLine';
import { endingAbove, endingsProven, giveOldLastLineAnEnding, planEndings } from './addedEndings';
import { joinText, splitText, type Eol, type FileLine } from './text';
import { explainNotFound, hunkId, hunkLabel } from './describe';
import { placeByNumbers } from './placeByNumbers';
import type { EditScript } from './editScript';
import type { Region } from './lineDiff';

/**
 * Applies the hunks of one file: locate each independently, resolve ties with line hints made
 * consistent by the other hunks' offsets, refuse overlaps, then rewrite bottom-up. All or nothing.
 */

/** Fuzzy placements scoring below this are refused. */
export const CONFIDENCE_THRESHOLD = 0.6;
/** A header hint picks among equal candidates only when the nearest is this close to it. */
const HINT_WINDOW = 12;

const LEVEL_CONFIDENCE: Record<string, number> = {
  exact: 1,
  'trailing-whitespace': 0.97,
  unicode: 0.95,
  indentation: 0.9,
  whitespace: 0.85,
};

export interface FileApplyOutcome {
  ok: boolean;
  newText?: string;
  hunks: HunkResult[];
  /** Every refused hunk's paragraph. */
  reason?: string;
  /** What changed, line by line (for a cheap, exact reverse patch). */
  script?: EditScript;
}

interface Placed {
  hunk: Hunk;
  variant: Variant;
  cand: Candidate;
  confidence: number;
  end: number;
  note?: string;
  /** The text of each added line (see planAddedLines), set once the placement is final. */
  texts?: Map<number, string>;
  /** The ending of each added line (see planEndings), set with `texts`. */
  eols?: Map<number, Eol>;
}

export interface ApplyHunksOptions {
  path: string;
  /** Status given to placed hunks when the file applies. */
  placedStatus: HunkStatus;
  isSelected: (h: Hunk) => boolean;
  /**
   * Whose semantics apply: `apply_patch` (Codex) puts a chunk of only added lines and no anchor at
   * the end of the file; `unified` (git) anchors a hunk whose context is on one side only to that
   * end of the file and places a clean `-U0` patch by its line numbers. Default: unified.
   */
  format?: PatchFormat;
}

const endOf = (c: Candidate) => (c.map.length ? c.map[c.map.length - 1]! + 1 : c.start);

export function applyHunksToText(text: string, hunks: readonly Hunk[], opts: ApplyHunksOptions): FileApplyOutcome {
  const split = splitText(text, quotesBom(text, hunks));
  const index = new FileIndex(split.lines.map((l) => l.text));
  const results = new Map<Hunk, HunkResult>();
  const idOf = (h: Hunk) => hunkId(opts.path, h.index);
  const refuse = (h: Hunk, why: string) =>
    results.set(h, { id: idOf(h), path: opts.path, index: h.index, status: 'refused', reason: `${hunkLabel(opts.path, h)}: ${why}` });

  const selected = hunks.filter(opts.isSelected);
  for (const h of hunks) if (!opts.isSelected(h)) results.set(h, { id: idOf(h), path: opts.path, index: h.index, status: 'rejected' });

  // Pass 1: locate every hunk on its own; a clean -U0 patch by its line numbers (git's --unidiff-zero).
  const format = opts.format ?? 'unified';
  const byNumbers = format === 'unified' ? placeByNumbers(index, hunks) : { kind: 'not-zero-context' as const };
  const located = new Map<Hunk, Located>();
  const placed: Placed[] = [];
  for (const h of selected) {
    if (byNumbers.kind === 'placed') {
      const cand = byNumbers.cands.get(h)!;
      const variant: Variant = { lines: h.lines, factor: 1, topTrim: 0, levels: ['exact'], strategy: 'exact' };
      located.set(h, { kind: 'found', variant, cands: [cand], anchorMissed: false });
      placed.push({
        hunk: h,
        variant,
        cand,
        confidence: 1,
        end: endOf(cand),
        note: 'placed by its line numbers (a -U0 patch whose removed lines match the file)',
      });
      continue;
    }
    const loc = locateHunk(index, h, format, byNumbers.kind === 'unproven' ? byNumbers.why : undefined);
    located.set(h, loc);
    if (loc.kind === 'found' && loc.cands.length === 1) placed.push(place(h, loc.variant, loc.cands[0]!, undefined, loc.anchorMissed));
  }

  // Pass 2: ties. The hint is the header line shifted by the offset the nearest placed hunk showed.
  for (const h of selected) {
    const loc = located.get(h)!;
    if (loc.kind === 'none') {
      refuse(h, `not found in the file.\n${explainNotFound(index, h, oldSide(h.lines), expectedStart(h, 0, placed))}`);
      continue;
    }
    if (loc.kind === 'refused') {
      refuse(h, loc.reason);
      continue;
    }
    if (loc.cands.length === 1) continue;
    const free = loc.cands.filter((c) => !placed.some((p) => overlaps(p.cand.start, p.end, c.start, endOf(c))));
    const expected = expectedStart(h, loc.variant.topTrim, placed);
    const lines = loc.cands
      .map((c) => c.start + 1)
      .slice(0, 8)
      .join(', ');
    if (free.length === 0) {
      refuse(h, `every place it matches (lines ${lines}) overlaps another hunk of this file; merge the overlapping hunks into one`);
      continue;
    }
    if (free.length === 1) {
      placed.push(place(h, loc.variant, free[0]!, expected, loc.anchorMissed, 0.95));
      continue;
    }
    // Line numbers that failed the -U0 check do not get to pick for a hunk without context.
    const untrusted = byNumbers.kind === 'unproven' && !h.lines.some((l) => l.kind === 'context');
    const pick = untrusted ? undefined : pickByHint(free, expected);
    if (pick) placed.push(place(h, loc.variant, pick, expected, loc.anchorMissed, 0.9));
    else
      refuse(
        h,
        `ambiguous: the old side matches equally at lines ${lines}${loc.cands.length > 8 ? ', …' : ''} (${loc.cands[0]!.level} match)` +
          (untrusted
            ? ` and its line numbers cannot be trusted (${byNumbers.why})`
            : expected === undefined
              ? ' and the hunk has no line numbers to choose'
              : `, and the header line ${expected + 1} does not clearly pick one`) +
          '; include more unchanged context lines (or an @@ anchor line) so the hunk matches one place',
      );
  }

  // Below-threshold placements are refused, then overlapping ones.
  for (const p of [...placed]) {
    if (p.confidence < CONFIDENCE_THRESHOLD) {
      placed.splice(placed.indexOf(p), 1);
      refuse(
        p.hunk,
        `the best match at line ${p.cand.start + 1} (${p.variant.strategy ?? p.cand.level}) has confidence ${p.confidence.toFixed(2)}, below ${CONFIDENCE_THRESHOLD}; include exact context lines`,
      );
    }
  }
  placed.sort((a, b) => a.cand.start - b.cand.start || a.end - b.end || a.hunk.index - b.hunk.index);
  for (let i = 1; i < placed.length; i++) {
    const a = placed[i - 1]!;
    const b = placed[i]!;
    if (overlaps(a.cand.start, a.end, b.cand.start, b.end)) {
      const rest = afterSharedContext(a, b);
      if (rest) {
        placed[i] = rest;
        continue;
      }
      const what = `overlaps ${hunkLabel(opts.path, a.hunk)} (both touch lines ${b.cand.start + 1}-${Math.min(a.end, b.end)}); merge them into one hunk`;
      refuse(b.hunk, what);
    }
  }
  // Added lines: each hunk's plan, then, once any hunk of the file shows the model wrote some added
  // lines at the file's indentation and others shifted, every run that fits both ways is refused.
  const undetermined: Array<[Placed, number]> = [];
  let mixed = false;
  for (const p of placed) {
    if (results.get(p.hunk)?.status === 'refused') continue;
    const plan = planAddedLines(p.variant, p.cand, fileLineOfOld(p.variant, p.cand), split.lines, p.cand.start, p.end);
    if (plan.kind === 'ambiguous') {
      refuse(p.hunk, plan.reason);
      mixed = true;
      continue;
    }
    p.texts = plan.texts;
    const fileOf = fileLineOfOld(p.variant, p.cand);
    const endings = planEndings(
      {
        lines: p.variant.lines,
        fileOf,
        start: p.cand.start,
        end: p.end,
        literal: endingsProven(p.variant.lines, fileOf, split.lines),
        crlfPatch: p.hunk.crlfPatch,
      },
      split,
    );
    if (endings.kind === 'refused') {
      refuse(p.hunk, endings.reason);
      continue;
    }
    p.eols = endings.eols;
    if (endings.inferred) {
      // A guess is never reported as exact, even when the placement is.
      p.confidence *= 0.99;
      p.note = p.note ? `${p.note}; ${endings.inferred}` : endings.inferred;
    }
    if (plan.written > 0) mixed = true;
    if (plan.undetermined.length > 0) undetermined.push([p, plan.undetermined[0]!]);
  }
  if (mixed) for (const [p, line] of undetermined) refuse(p.hunk, ambiguousReason(p.cand, p.variant.lines[line]!.text));
  const refusedAny = selected.some((h) => results.get(h)?.status === 'refused');
  for (const p of placed) {
    if (results.get(p.hunk)?.status === 'refused') continue;
    results.set(p.hunk, {
      id: idOf(p.hunk),
      path: opts.path,
      index: p.hunk.index,
      status: refusedAny ? 'would-apply' : opts.placedStatus,
      range: { start: p.cand.start + 1, end: p.end },
      strategy: p.variant.strategy ?? p.cand.level,
      confidence: Math.round(p.confidence * 1000) / 1000,
      ...(p.note ? { note: p.note } : {}),
    });
  }
  const hunkResults = hunks.map((h) => results.get(h)!);
  if (refusedAny) {
    return {
      ok: false,
      hunks: hunkResults,
      reason: hunkResults
        .filter((r) => r.status === 'refused')
        .map((r) => r.reason)
        .join('\n\n'),
    };
  }
  const script = rewrite(split, placed, text);
  return { ok: true, hunks: hunkResults, newText: script.newText, script };
}

/**
 * A diff of a file with a BOM (git, the diff package) writes the BOM as the first bytes of line 1:
 * when a hunk's old side has that line so, the BOM is matched and rewritten as part of it.
 */
function quotesBom(text: string, hunks: readonly Hunk[]): boolean {
  if (!text.startsWith('\uFEFF')) return false;
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  return hunks.some((h) => h.lines.some((l) => l.kind !== 'add' && l.text === firstLine));
}

/**
 * Hunks that meet on context lines both keep (the trailing context of one is the leading
 * context of the next) do not overlap: the second is placed after the shared lines, as git and
 * jsdiff apply them one after the other. Undefined when they share a line either one changes.
 */
function afterSharedContext(a: Placed, b: Placed): Placed | undefined {
  const k = a.end - b.cand.start;
  if (k <= 0 || k >= b.variant.lines.length || b.end <= a.end) return undefined;
  const tailOfA = a.variant.lines.slice(-k);
  const headOfB = b.variant.lines.slice(0, k);
  if (![...tailOfA, ...headOfB].every((l) => l.kind === 'context')) return undefined;
  const aMap = a.cand.map.slice(-k);
  const bMap = b.cand.map.slice(0, k);
  if (aMap.some((q, j) => q !== bMap[j] || q !== b.cand.start + j)) return undefined;
  const lines = b.variant.lines.slice(k);
  if (!lines.some((l) => l.kind !== 'add')) return undefined;
  const cand: Candidate = { ...b.cand, start: b.cand.map[k]!, map: b.cand.map.slice(k) };
  return { ...b, variant: { ...b.variant, lines, topTrim: b.variant.topTrim + k }, cand };
}

function overlaps(s1: number, e1: number, s2: number, e2: number): boolean {
  // Pure insertions (empty ranges) overlap a range only when strictly inside it.
  if (s1 === e1) return s2 < s1 && s1 < e2;
  if (s2 === e2) return s1 < s2 && s2 < e1;
  return s1 < e2 && s2 < e1;
}

function expectedStart(h: Hunk, topTrim: number, placed: readonly Placed[]): number | undefined {
  if (h.oldStart === undefined || h.oldStart < 1) return undefined;
  let offset = 0;
  let bestDist = Infinity;
  for (const p of placed) {
    if (p.hunk.oldStart === undefined || p.hunk.oldStart < 1) continue;
    const d = Math.abs(p.hunk.oldStart - h.oldStart);
    if (d < bestDist) {
      bestDist = d;
      offset = p.cand.start - p.variant.topTrim - (p.hunk.oldStart - 1);
    }
  }
  return h.oldStart - 1 + offset + topTrim;
}

function pickByHint(cands: readonly Candidate[], expected: number | undefined): Candidate | undefined {
  if (expected === undefined || cands.length === 0) return undefined;
  const sorted = [...cands].sort((a, b) => Math.abs(a.start - expected) - Math.abs(b.start - expected));
  const d1 = Math.abs(sorted[0]!.start - expected);
  const d2 = sorted.length > 1 ? Math.abs(sorted[1]!.start - expected) : Infinity;
  return d1 <= HINT_WINDOW && d2 >= Math.max(2 * d1 + 1, d1 + 3) ? sorted[0] : undefined;
}

function place(h: Hunk, variant: Variant, cand: Candidate, expected: number | undefined, anchorMissed: boolean, tieFactor = 1): Placed {
  let confidence = (LEVEL_CONFIDENCE[cand.level] ?? 0.8) * variant.factor * tieFactor;
  if (h.oldStart !== undefined && expected !== undefined && cand.start !== expected) confidence *= 0.98;
  if (h.oldStart !== undefined && expected === undefined && cand.start - variant.topTrim !== h.oldStart - 1 && cand.map.length > 0) confidence *= 0.98;
  if (h.oldStart === undefined && h.anchors.length === 0 && cand.map.length > 0) confidence *= 0.98;
  if (anchorMissed) confidence *= 0.9;
  return { hunk: h, variant, cand, confidence, end: endOf(cand), note: variant.note };
}

/** Rewrites bottom-up so earlier line numbers stay valid; context lines keep the file's bytes. */
function rewrite(split: ReturnType<typeof splitText>, placed: readonly Placed[], original: string): EditScript {
  const n = split.lines.length;
  // Each placement's replacement for its lines; spliced in once at the end, top-down in one pass
  // (splicing each into the file array would cost hunks x lines).
  const outs = new Map<Placed, FileLine[]>();
  let finalNewline = split.finalNewline;
  const eol = split.dominantEol;
  // Changed regions per placement: old lines a0..a1, and o0..o1 within the placement's output.
  const local = new Map<Placed, { a0: number; a1: number; o0: number; o1: number }[]>();
  const outLength = new Map<Placed, number>();
  const added = new Set<FileLine>();
  let endDecided = false;
  // Bottom-up; at one start a replacement goes before an insertion there, so the insertion lands
  // in front of the replaced lines without shifting them first.
  for (const p of [...placed].sort((a, b) => b.cand.start - a.cand.start || b.end - a.end || b.hunk.index - a.hunk.index)) {
    const { cand, variant } = p;
    const fileOf = fileLineOfOld(variant, cand);
    const out: FileLine[] = [];
    const regions: { a0: number; a1: number; o0: number; o1: number }[] = [];
    let open: { a0: number; a1: number; o0: number; o1: number } | undefined;
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
      while (cursor < q) out.push(split.lines[cursor++]!); // file lines the patch dropped from its context
      if (line.kind === 'context') {
        close();
        out.push(split.lines[q]!);
      } else {
        open ??= { a0: q, a1: q, o0: out.length, o1: out.length };
        open.a1 = q + 1;
      }
      cursor = q + 1;
    });
    close();
    local.set(p, regions);
    outLength.set(p, out.length);
    outs.set(p, out);
    if (p.end === n) {
      if (p.hunk.newNoNewlineAtEnd && !p.hunk.oldNoNewlineAtEnd) finalNewline = false;
      else if (p.hunk.oldNoNewlineAtEnd && !p.hunk.newNoNewlineAtEnd) finalNewline = true;
      endDecided = !!(p.hunk.newNoNewlineAtEnd || p.hunk.oldNoNewlineAtEnd);
    }
  }
  const lines = assemble(split.lines, placed, outs);
  giveOldLastLineAnEnding(lines, split);
  // git's semantics: a line owns its newline. When the old last line (the one without) is gone
  // and an earlier line of the file ends it now, that line keeps its newline.
  const lastLine = lines[lines.length - 1];
  if (!finalNewline && !endDecided && lastLine && n > 0 && lastLine !== split.lines[n - 1] && !added.has(lastLine)) finalNewline = true;
  if (finalNewline && lastLine && lastLine.eol === '') lines[lines.length - 1] = { text: lastLine.text, eol: endingAbove(lines, lines.length - 1, split) };
  const regions: Region[] = [];
  let delta = 0;
  for (const p of [...placed].sort((a, b) => a.cand.start - b.cand.start || a.end - b.end || a.hunk.index - b.hunk.index)) {
    const newStart = p.cand.start + delta;
    for (const r of local.get(p)!) regions.push({ a0: r.a0, a1: r.a1, b0: newStart + r.o0, b1: newStart + r.o1 });
    delta += outLength.get(p)! - (p.end - p.cand.start);
  }
  return {
    oldText: original,
    newText: joinText(lines, split.bom, finalNewline, eol),
    oldLines: split.lines,
    newLines: lines,
    bom: split.bom,
    oldFinalNewline: split.finalNewline,
    newFinalNewline: finalNewline,
    dominantEol: eol,
    regions,
  };
}

/** The file's lines with each placement's lines replaced by its output, in one top-down pass. */
function assemble(fileLines: readonly FileLine[], placed: readonly Placed[], outs: ReadonlyMap<Placed, FileLine[]>): FileLine[] {
  const lines: FileLine[] = [];
  let cursor = 0;
  // At one start an insertion (empty range) goes in front of the lines replaced there.
  for (const p of [...placed].sort((a, b) => a.cand.start - b.cand.start || a.end - b.end || a.hunk.index - b.hunk.index)) {
    while (cursor < p.cand.start) lines.push(fileLines[cursor++]!);
    for (const l of outs.get(p)!) lines.push(l);
    cursor = Math.max(cursor, p.end);
  }
  while (cursor < fileLines.length) lines.push(fileLines[cursor++]!);
  return lines;
}

/** For each variant line: the 0-based file line its old-side line matched (-1 for added lines). */
function fileLineOfOld(variant: Variant, cand: Candidate): number[] {
  let k = 0;
  return variant.lines.map((l) => (l.kind === 'add' ? -1 : cand.map[k++]!));
}
