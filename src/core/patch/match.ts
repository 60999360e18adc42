import type { FileIndex } from './fileIndex';
import { keyAt, type Level } from './normalize';
import { inferShift, type IndentShift } from './reindent';

/** One place where a hunk's old side matches the file. */
export interface Candidate {
  /** 0-based index of the first matched file line. */
  start: number;
  /** 0-based file line of each old-side line (ascending; contiguous unless gaps were allowed). */
  map: number[];
  level: Level;
  /** How added lines must be re-indented; 'relative' = per line, from the nearest old line. */
  shift: IndentShift | 'relative';
}

/** Most candidates collected per search; more than this is hopeless ambiguity anyway. */
const MAX_CANDIDATES = 64;
/** Largest run of file lines skipped between two old-side lines when a dropped context line is tolerated. */
const MAX_GAP = 8;

function pivotOf(index: FileIndex, keys: readonly string[], level: Level): number {
  if (level === 'exact') {
    // Counting every key would cost a scan each; the longest line is almost always the rarest.
    let longest = 0;
    for (let i = 1; i < keys.length; i++) if (keys[i]!.trim().length > keys[longest]!.trim().length) longest = i;
    return longest;
  }
  let best = -1;
  let bestCount = Infinity;
  for (let i = 0; i < keys.length; i++) {
    const count = index.positions(level, keys[i]!).length;
    // Blank keys are poor pivots even when rare.
    const weighted = keys[i] === '' ? count * 1000 + 1 : count;
    if (weighted < bestCount) {
      bestCount = weighted;
      best = i;
    }
  }
  return best;
}

function shiftFor(level: Level, old: readonly string[], fileLines: readonly string[], map: readonly number[]): IndentShift | 'relative' | null {
  if (level === 'whitespace') return 'relative';
  if (level !== 'indentation') return { kind: 'none' };
  return inferShift(old.map((p, i) => [p, fileLines[map[i]!]!] as const));
}

/** Every place where the old side matches contiguously at `level`. */
export function findContiguous(index: FileIndex, old: readonly string[], level: Level): Candidate[] {
  if (old.length === 0 || old.length > index.length) return [];
  const keys = old.map((l) => keyAt(level, l));
  const fileKeys = index.keys(level);
  const pivot = pivotOf(index, keys, level);
  const out: Candidate[] = [];
  for (const pos of index.positions(level, keys[pivot]!)) {
    const start = pos - pivot;
    if (start < 0 || start + old.length > index.length) continue;
    let ok = true;
    for (let i = 0; i < keys.length; i++) {
      index.work.lines++;
      if (fileKeys[start + i] !== keys[i]) {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    const map = keys.map((_, i) => start + i);
    const shift = shiftFor(level, old, index.lines, map);
    if (!shift) continue;
    out.push({ start, map, level, shift });
    if (out.length >= MAX_CANDIDATES) break;
  }
  return out;
}

/**
 * Like findContiguous, but the file may hold up to MAX_GAP extra lines between old-side lines i
 * and i+1 where `gapAllowed[i]` (the patch dropped context there). Greedy nearest extension from the
 * rarest line in both directions.
 */
export function findWithGaps(index: FileIndex, old: readonly string[], level: Level, gapAllowed: readonly boolean[]): Candidate[] {
  if (old.length < 2) return [];
  const keys = old.map((l) => keyAt(level, l));
  const fileKeys = index.keys(level);
  const pivot = pivotOf(index, keys, level);
  const out: Candidate[] = [];
  const seen = new Set<number>();
  for (const pos of index.positions(level, keys[pivot]!)) {
    const map = new Array<number>(keys.length);
    map[pivot] = pos;
    let ok = true;
    for (let i = pivot + 1; i < keys.length && ok; i++) {
      const limit = gapAllowed[i - 1] ? MAX_GAP : 0;
      ok = false;
      for (let q = map[i - 1]! + 1; q <= map[i - 1]! + 1 + limit && q < index.length; q++) {
        index.work.lines++;
        if (fileKeys[q] === keys[i]) {
          map[i] = q;
          ok = true;
          break;
        }
      }
    }
    for (let i = pivot - 1; i >= 0 && ok; i--) {
      const limit = gapAllowed[i] ? MAX_GAP : 0;
      ok = false;
      for (let q = map[i + 1]! - 1; q >= map[i + 1]! - 1 - limit && q >= 0; q--) {
        index.work.lines++;
        if (fileKeys[q] === keys[i]) {
          map[i] = q;
          ok = true;
          break;
        }
      }
    }
    if (!ok || seen.has(map[0]!)) continue;
    seen.add(map[0]!);
    const shift = shiftFor(level, old, index.lines, map);
    if (!shift) continue;
    out.push({ start: map[0]!, map, level, shift });
    if (out.length >= MAX_CANDIDATES) break;
  }
  return out;
}

/**
 * The place that looks most like the old side (most lines equal at the loosest level), for a
 * refusal message. Votes come from hashed line hits, so this stays cheap on big files.
 */
export function nearestPlace(index: FileIndex, old: readonly string[], expected: number | undefined): { start: number; score: number } | undefined {
  if (old.length === 0 || index.length === 0) return undefined;
  const votes = new Map<number, number>();
  old.forEach((line, i) => {
    const key = keyAt('whitespace', line);
    if (key === '') return;
    const hits = index.positions('whitespace', key);
    if (hits.length > 200) return;
    for (const p of hits) votes.set(p - i, (votes.get(p - i) ?? 0) + 1);
  });
  let best: { start: number; score: number } | undefined;
  for (const [start, score] of votes) {
    const dist = expected === undefined ? 0 : Math.abs(start - expected);
    const bestDist = best && expected !== undefined ? Math.abs(best.start - expected) : 0;
    if (!best || score > best.score || (score === best.score && dist < bestDist)) best = { start, score };
  }
  if (!best && expected !== undefined) best = { start: Math.max(0, Math.min(expected, index.length - 1)), score: 0 };
  return best;
}
