import type { Hunk, HunkResult, HunkStatus, PatchFormat } from './types';
import { FileIndex, type LineWork } from './fileIndex';
import { locateHunk, oldSide, type Located, type Variant } from './locate';
import type { Candidate } from './match';
import { ambiguousReason, planAddedLines } from './addedLine';
import { endingsProven, planEndings } from './addedEndings';
import { splitText } from './text';
import { explainNotFound, hunkId, hunkLabel } from './describe';
import { placeByNumbers, type ByNumbers } from './placeByNumbers';
import type { EditScript } from './editScript';
import { endOf, fileLineOfOld, topDown, type Placed } from './placement';
import { rewrite } from './rewritePlaced';

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
  /** Counts the file lines looked at (the scaling test's measure of work); default: a counter of this file's own. */
  work?: LineWork;
}

export function applyHunksToText(text: string, hunks: readonly Hunk[], opts: ApplyHunksOptions): FileApplyOutcome {
  const run = new FileApplication(text, hunks, opts);
  run.locateEach();
  run.resolveTies();
  run.refuseUnsure();
  run.refuseOverlaps();
  run.planAdded();
  return run.outcome();
}

/** One file's hunks on their way to a placement or a refusal; each step is one pass over them. */
class FileApplication {
  private readonly split: ReturnType<typeof splitText>;
  private readonly index: FileIndex;
  private readonly results = new Map<Hunk, HunkResult>();
  private readonly selected: Hunk[];
  private readonly format: PatchFormat;
  private readonly byNumbers: ByNumbers;
  private readonly located = new Map<Hunk, Located>();
  private readonly placed: Placed[] = [];

  constructor(
    private readonly text: string,
    private readonly hunks: readonly Hunk[],
    private readonly opts: ApplyHunksOptions,
  ) {
    this.split = splitText(text, quotesBom(text, hunks));
    this.index = new FileIndex(
      this.split.lines.map((l) => l.text),
      opts.work,
    );
    this.selected = hunks.filter(opts.isSelected);
    for (const h of hunks) if (!opts.isSelected(h)) this.results.set(h, { id: this.idOf(h), path: opts.path, index: h.index, status: 'rejected' });
    this.format = opts.format ?? 'unified';
    // A clean -U0 patch is placed by its line numbers (git's --unidiff-zero).
    this.byNumbers = this.format === 'unified' ? placeByNumbers(this.index, hunks) : { kind: 'not-zero-context' };
  }

  private idOf(h: Hunk): string {
    return hunkId(this.opts.path, h.index);
  }

  private refuse(h: Hunk, why: string): void {
    this.results.set(h, { id: this.idOf(h), path: this.opts.path, index: h.index, status: 'refused', reason: `${hunkLabel(this.opts.path, h)}: ${why}` });
  }

  private isRefused(h: Hunk): boolean {
    return this.results.get(h)?.status === 'refused';
  }

  /** Pass 1: locate every hunk on its own; one match places it. */
  locateEach(): void {
    const byNumbers = this.byNumbers;
    for (const h of this.selected) {
      if (byNumbers.kind === 'placed') {
        const cand = byNumbers.cands.get(h)!;
        const variant: Variant = { lines: h.lines, factor: 1, topTrim: 0, levels: ['exact'], strategy: 'exact' };
        this.located.set(h, { kind: 'found', variant, cands: [cand], anchorMissed: false });
        this.placed.push({
          hunk: h,
          variant,
          cand,
          confidence: 1,
          end: endOf(cand),
          note: 'placed by its line numbers (a -U0 patch whose removed lines match the file)',
        });
        continue;
      }
      const loc = locateHunk(this.index, h, this.format, byNumbers.kind === 'unproven' ? byNumbers.why : undefined);
      this.located.set(h, loc);
      if (loc.kind === 'found' && loc.cands.length === 1) this.placed.push(place(h, loc.variant, loc.cands[0]!, undefined, loc.anchorMissed));
    }
  }

  /** Pass 2: ties. The hint is the header line shifted by the offset the nearest placed hunk showed. */
  resolveTies(): void {
    for (const h of this.selected) {
      const loc = this.located.get(h)!;
      if (loc.kind === 'none') this.refuse(h, `not found in the file.\n${explainNotFound(this.index, h, oldSide(h.lines), expectedStart(h, 0, this.placed))}`);
      else if (loc.kind === 'refused') this.refuse(h, loc.reason);
      else if (loc.cands.length > 1) this.resolveTie(h, loc);
    }
  }

  private resolveTie(h: Hunk, loc: Extract<Located, { kind: 'found' }>): void {
    const placed = this.placed;
    const free = loc.cands.filter((c) => !placed.some((p) => overlaps(p.cand.start, p.end, c.start, endOf(c))));
    const expected = expectedStart(h, loc.variant.topTrim, placed);
    const lines = loc.cands
      .map((c) => c.start + 1)
      .slice(0, 8)
      .join(', ');
    if (free.length === 0) {
      this.refuse(h, `every place it matches (lines ${lines}) overlaps another hunk of this file; merge the overlapping hunks into one`);
      return;
    }
    if (free.length === 1) {
      placed.push(place(h, loc.variant, free[0]!, expected, loc.anchorMissed, 0.95));
      return;
    }
    // Line numbers that failed the -U0 check do not get to pick for a hunk without context.
    const byNumbers = this.byNumbers;
    const untrusted = byNumbers.kind === 'unproven' && !h.lines.some((l) => l.kind === 'context');
    const pick = untrusted ? undefined : pickByHint(free, expected);
    if (pick) placed.push(place(h, loc.variant, pick, expected, loc.anchorMissed, 0.9));
    else
      this.refuse(
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

  /** Below-threshold placements are refused. */
  refuseUnsure(): void {
    for (const p of [...this.placed]) {
      if (p.confidence < CONFIDENCE_THRESHOLD) {
        this.placed.splice(this.placed.indexOf(p), 1);
        this.refuse(
          p.hunk,
          `the best match at line ${p.cand.start + 1} (${p.variant.strategy ?? p.cand.level}) has confidence ${p.confidence.toFixed(2)}, below ${CONFIDENCE_THRESHOLD}; include exact context lines`,
        );
      }
    }
  }

  /** Overlapping placements are refused, unless they only share context lines. */
  refuseOverlaps(): void {
    const placed = this.placed;
    placed.sort(topDown);
    for (let i = 1; i < placed.length; i++) {
      const a = placed[i - 1]!;
      const b = placed[i]!;
      if (overlaps(a.cand.start, a.end, b.cand.start, b.end)) {
        const rest = afterSharedContext(a, b);
        if (rest) {
          placed[i] = rest;
          continue;
        }
        const what = `overlaps ${hunkLabel(this.opts.path, a.hunk)} (both touch lines ${b.cand.start + 1}-${Math.min(a.end, b.end)}); merge them into one hunk`;
        this.refuse(b.hunk, what);
      }
    }
  }

  /**
   * Added lines: each hunk's plan, then, once any hunk of the file shows the model wrote some added
   * lines at the file's indentation and others shifted, every run that fits both ways is refused.
   */
  planAdded(): void {
    const undetermined: Array<[Placed, number]> = [];
    let mixed = false;
    for (const p of this.placed) {
      if (this.isRefused(p.hunk)) continue;
      const plan = planAddedLines(p.variant, p.cand, fileLineOfOld(p.variant, p.cand), this.split.lines, p.cand.start, p.end);
      if (plan.kind === 'ambiguous') {
        this.refuse(p.hunk, plan.reason);
        mixed = true;
        continue;
      }
      p.texts = plan.texts;
      if (!this.planEndingsOf(p)) continue;
      if (plan.written > 0) mixed = true;
      if (plan.undetermined.length > 0) undetermined.push([p, plan.undetermined[0]!]);
    }
    if (mixed) for (const [p, line] of undetermined) this.refuse(p.hunk, ambiguousReason(p.cand, p.variant.lines[line]!.text));
  }

  /** Sets the endings of a placement's added lines; false when they cannot be decided (refused). */
  private planEndingsOf(p: Placed): boolean {
    const split = this.split;
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
      this.refuse(p.hunk, endings.reason);
      return false;
    }
    p.eols = endings.eols;
    if (endings.inferred) {
      // A guess is never reported as exact, even when the placement is.
      p.confidence *= 0.99;
      p.note = p.note ? `${p.note}; ${endings.inferred}` : endings.inferred;
    }
    return true;
  }

  /** Every hunk's result; the new text only when no selected hunk was refused. */
  outcome(): FileApplyOutcome {
    const refusedAny = this.selected.some((h) => this.isRefused(h));
    const rewritten = refusedAny ? undefined : rewrite(this.split, this.placed, this.text);
    for (const p of this.placed) {
      if (this.isRefused(p.hunk)) continue;
      this.results.set(p.hunk, {
        id: this.idOf(p.hunk),
        path: this.opts.path,
        index: p.hunk.index,
        status: refusedAny ? 'would-apply' : this.opts.placedStatus,
        range: { start: p.cand.start + 1, end: p.end },
        ...(rewritten?.newRanges.has(p.hunk) ? { newRange: rewritten.newRanges.get(p.hunk)! } : {}),
        strategy: p.variant.strategy ?? p.cand.level,
        confidence: Math.round(p.confidence * 1000) / 1000,
        ...(p.note ? { note: p.note } : {}),
      });
    }
    const hunkResults = this.hunks.map((h) => this.results.get(h)!);
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
    const { script } = rewritten!;
    return { ok: true, hunks: hunkResults, newText: script.newText, script };
  }
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
