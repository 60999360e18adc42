import { indentOf } from './normalize';

/**
 * How the indentation of a matched block differs from the patch's old side, so added lines can be
 * shifted the same way ("the model wrote the hunk 4 spaces too shallow").
 */
export type IndentShift =
  | { kind: 'none' }
  /** file indent = add + patch indent */
  | { kind: 'prefix'; add: string }
  /** patch indent = remove + file indent */
  | { kind: 'strip'; remove: string }
  /** indentation measured in columns (tabs count tabWidth), rendered in the file's style */
  | { kind: 'width'; delta: number; tabWidth: number; useTabs: boolean };

const TAB_WIDTHS = [4, 8, 2];

function widthOf(indent: string, tabWidth: number): number {
  let w = 0;
  for (const c of indent) w += c === '\t' ? tabWidth : 1;
  return w;
}

function render(width: number, tabWidth: number, useTabs: boolean): string {
  if (width <= 0) return '';
  return useTabs ? '\t'.repeat(Math.floor(width / tabWidth)) + ' '.repeat(width % tabWidth) : ' '.repeat(width);
}

/**
 * The one shift that maps every non-blank patch line's indentation to its file line's, or null
 * when the indentation changed inconsistently (then the lines do not match at this level).
 */
export function inferShift(pairs: ReadonlyArray<readonly [patch: string, file: string]>): IndentShift | null {
  const ind = pairs.filter(([p, f]) => p.trim() !== '' && f.trim() !== '').map(([p, f]) => [indentOf(p), indentOf(f)] as const);
  if (ind.length === 0 || ind.every(([p, f]) => p === f)) return { kind: 'none' };
  const [p0, f0] = ind[0]!;
  if (f0.length > p0.length && f0.endsWith(p0)) {
    const add = f0.slice(0, f0.length - p0.length);
    if (ind.every(([p, f]) => f === add + p)) return { kind: 'prefix', add };
  }
  if (p0.length > f0.length && p0.endsWith(f0)) {
    const remove = p0.slice(0, p0.length - f0.length);
    if (ind.every(([p, f]) => p === remove + f)) return { kind: 'strip', remove };
  }
  const useTabs = ind.some(([, f]) => f.includes('\t'));
  for (const tabWidth of TAB_WIDTHS) {
    const delta = widthOf(f0, tabWidth) - widthOf(p0, tabWidth);
    if (ind.every(([p, f]) => widthOf(f, tabWidth) - widthOf(p, tabWidth) === delta)) {
      return { kind: 'width', delta, tabWidth, useTabs };
    }
  }
  return null;
}

/** Applies a shift to one added line. Blank lines stay as written (no invented trailing spaces). */
export function reindentLine(text: string, shift: IndentShift): string {
  if (shift.kind === 'none' || text.trim() === '') return text;
  const indent = indentOf(text);
  const rest = text.slice(indent.length);
  switch (shift.kind) {
    case 'prefix':
      return shift.add + text;
    case 'strip':
      if (indent.startsWith(shift.remove)) return text.slice(shift.remove.length);
      return render(widthOf(indent, 4) - widthOf(shift.remove, 4), 4, shift.remove.includes('\t')) + rest;
    case 'width':
      return render(widthOf(indent, shift.tabWidth) + shift.delta, shift.tabWidth, shift.useTabs) + rest;
  }
}

/** Shift derived from a single reference pair (the nearest old line), for loosely matched hunks. */
export function shiftFromPair(patchLine: string, fileLine: string): IndentShift {
  return inferShift([[patchLine, fileLine]]) ?? { kind: 'none' };
}

/** The shift would take more indentation from the line than it has (a line the shift cannot have been applied to). */
export function crushes(text: string, shift: IndentShift): boolean {
  if (text.trim() === '') return false;
  const indent = indentOf(text);
  switch (shift.kind) {
    case 'none':
    case 'prefix':
      return false;
    case 'strip':
      return !indent.startsWith(shift.remove) && widthOf(indent, 4) < widthOf(shift.remove, 4);
    case 'width':
      return widthOf(indent, shift.tabWidth) + shift.delta < 0;
  }
}
