/**
 * Reads an `@@` line without trusting it: `@@ -a,b +c,d @@ heading`, `@@ -a +c @@` (count 1),
 * `@@ @@`, bare `@@`, a missing closing `@@`, or apply_patch's `@@ def foo():` anchor text.
 * Hand-written scanning, no regex over the whole line, so any input stays linear.
 */
export interface HunkHeader {
  oldStart?: number;
  oldCount?: number;
  newStart?: number;
  newCount?: number;
  /** Heading after the closing `@@`, or the anchor text of an `@@ text` line; trimmed; '' when none. */
  anchor: string;
  /** No line numbers at all (`@@`, `@@ @@`, `@@ anchor`). */
  bare: boolean;
  /** Numbers were given but the closing `@@` was missing. */
  unclosed: boolean;
  /** `@@@`: a combined (merge) diff header. */
  combined: boolean;
}

function readRange(token: string, sign: '-' | '+'): { start: number; count: number } | undefined {
  if (token[0] !== sign) return undefined;
  const m = /^[-+](\d{1,9})(?:,(\d{1,9}))?$/.exec(token);
  if (!m) return undefined;
  return { start: Number(m[1]), count: m[2] === undefined ? 1 : Number(m[2]) };
}

export function isHunkHeaderLine(line: string): boolean {
  return line.startsWith('@@');
}

export function parseHunkHeader(line: string): HunkHeader {
  const header: HunkHeader = { anchor: '', bare: true, unclosed: false, combined: line.startsWith('@@@') };
  if (header.combined) return header;
  const close = line.indexOf('@@', 2);
  const middle = close >= 0 ? line.slice(2, close) : line.slice(2);
  const after = close >= 0 ? line.slice(close + 2) : '';

  // Numeric tokens at the start of the middle part; the rest (if any) is anchor text.
  let pos = 0;
  let sawNumbers = false;
  for (const sign of ['-', '+'] as const) {
    while (pos < middle.length && (middle[pos] === ' ' || middle[pos] === '\t')) pos++;
    let end = pos;
    while (end < middle.length && middle[end] !== ' ' && middle[end] !== '\t') end++;
    const range = readRange(middle.slice(pos, end), sign);
    if (!range) continue;
    if (sign === '-') {
      header.oldStart = range.start;
      header.oldCount = range.count;
    } else {
      header.newStart = range.start;
      header.newCount = range.count;
    }
    sawNumbers = true;
    pos = end;
  }
  const leftover = middle.slice(pos).trim();
  header.bare = !sawNumbers;
  if (sawNumbers) {
    header.unclosed = close < 0;
    header.anchor = close >= 0 ? after.trim() : leftover;
  } else {
    // `@@ def foo():` (apply_patch anchor) or `@@ text @@ more`: everything is anchor text.
    header.anchor = close >= 0 ? `${leftover} ${after.trim()}`.trim() : leftover;
  }
  return header;
}
