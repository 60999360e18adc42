/**
 * Matching keys. A hunk is searched at successively looser levels; each level maps a line to a
 * key and two lines "match" at that level when their keys are equal. File content is never
 * rewritten through these: they exist only to compare.
 */

export type Level = 'exact' | 'trailing-whitespace' | 'unicode' | 'indentation' | 'whitespace';

/** From strictest to loosest. */
export const LEVELS: readonly Level[] = ['exact', 'trailing-whitespace', 'unicode', 'indentation', 'whitespace'];

// Typographic characters models (and word processors) substitute for ASCII.
const UNICODE_MAP: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201A': "'",
  '\u201B': "'",
  '\u2032': "'",
  '\u02BC': "'",
  '\u201C': '"',
  '\u201D': '"',
  '\u201E': '"',
  '\u201F': '"',
  '\u2033': '"',
  '\u00AB': '"',
  '\u00BB': '"',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2013': '-',
  '\u2014': '-',
  '\u2015': '-',
  '\u2212': '-',
  '\u00A0': ' ',
  '\u2002': ' ',
  '\u2003': ' ',
  '\u2004': ' ',
  '\u2005': ' ',
  '\u2006': ' ',
  '\u2007': ' ',
  '\u2008': ' ',
  '\u2009': ' ',
  '\u200A': ' ',
  '\u202F': ' ',
  '\u205F': ' ',
  '\u3000': ' ',
  '\u2026': '...',
  '\u200B': '',
  '\u2060': '',
  '\uFEFF': '',
};
const UNICODE_RE =
  /[\u2018\u2019\u201A\u201B\u2032\u02BC\u201C\u201D\u201E\u201F\u2033\u00AB\u00BB\u2010-\u2015\u2212\u00A0\u2002-\u200B\u202F\u205F\u3000\u2026\u2060\uFEFF]/g;

export function foldUnicode(s: string): string {
  return s.replace(UNICODE_RE, (c) => UNICODE_MAP[c] ?? c);
}

/** Matching form of a line at the unicode level: typography folded, and `--` equal to an em dash. */
function unicodeKey(s: string): string {
  return foldUnicode(s).replace(/-{2,}/g, '-');
}

function trimEnd(s: string): string {
  return s.replace(/[ \t\f\v\r]+$/, '');
}

/** Leading whitespace of a line. */
export function indentOf(s: string): string {
  const m = /^[ \t]*/.exec(s);
  return m ? m[0] : '';
}

/** The key of a line at a level. For 'indentation' the leading whitespace is dropped: the
 * matcher checks separately that the indentation shifted consistently across the hunk. */
export function keyAt(level: Level, s: string): string {
  switch (level) {
    case 'exact':
      return s;
    case 'trailing-whitespace':
      return trimEnd(s);
    case 'unicode':
      return trimEnd(unicodeKey(s));
    case 'indentation':
      return unicodeKey(s).trim();
    case 'whitespace':
      return unicodeKey(s).replace(/\s+/g, ' ').trim();
  }
}

/** Line similarity in 0..1 on whitespace-collapsed keys (Dice coefficient over bigrams). */
export function similarity(a: string, b: string): number {
  const x = keyAt('whitespace', a);
  const y = keyAt('whitespace', b);
  if (x === y) return 1;
  if (x.length < 2 || y.length < 2) return 0;
  const grams = new Map<string, number>();
  for (let i = 0; i < x.length - 1; i++) {
    const g = x.slice(i, i + 2);
    grams.set(g, (grams.get(g) ?? 0) + 1);
  }
  let common = 0;
  for (let i = 0; i < y.length - 1; i++) {
    const g = y.slice(i, i + 2);
    const n = grams.get(g) ?? 0;
    if (n > 0) {
      grams.set(g, n - 1);
      common++;
    }
  }
  return (2 * common) / (x.length - 1 + y.length - 1);
}

/** True for a line that is empty or only whitespace (matches any other blank line at loose levels). */
export function isBlank(s: string): boolean {
  return keyAt('whitespace', s) === '';
}
