/**
 * `N | text` prefixes a model copied from a numbered file read (Roo Code's `read_file` output,
 * `12 | const x = 1`). They are stripped only when every SEARCH line carries one and the numbers
 * run consecutively: that is a numbered read, not content that happens to start with digits.
 */

const NUMBERED = /^ *(\d{1,7}) ?(?:\||→) ?/;

export interface Stripped {
  search: string[];
  replace: string[];
  /** The number of the first SEARCH line: where the block starts in the file. */
  firstLine: number;
  /** REPLACE lines that had a prefix (the others were written without one). */
  replaceStripped: number;
}

export function stripLineNumbers(search: readonly string[], replace: readonly string[]): Stripped | undefined {
  if (search.length === 0) return undefined;
  const numbers: number[] = [];
  for (const line of search) {
    const m = NUMBERED.exec(line);
    if (!m) return undefined;
    numbers.push(Number(m[1]));
  }
  if (numbers.some((n, i) => i > 0 && n !== numbers[i - 1]! + 1)) return undefined;
  let replaceStripped = 0;
  const strip = (line: string): string => {
    const m = NUMBERED.exec(line);
    if (!m) return line;
    replaceStripped++;
    return line.slice(m[0].length);
  };
  return {
    search: search.map((l) => l.slice(NUMBERED.exec(l)![0].length)),
    replace: replace.map(strip),
    firstLine: numbers[0]!,
    replaceStripped,
  };
}
