/**
 * The marker lines of SEARCH/REPLACE blocks as the peers write them: aider's `<<<<<<< SEARCH` /
 * `=======` / `>>>>>>> REPLACE`, Cline's `------- SEARCH` / `+++++++ REPLACE` (any run of three
 * or more, and a trailing `>` its parser accepts), and Roo Code's block header (`:start_line:`,
 * `:end_line:`, then a `-------` line) between the SEARCH marker and the text.
 */

const SEARCH = /^(?:<{3,}|-{3,}) ?SEARCH>?\s*$/i;
const REPLACE = /^(?:>{3,}|\+{3,}) ?REPLACE>?\s*$/i;
/** Exactly seven `=`: the divider. */
export const DIVIDER = /^={7}\s*$/;
/** A near miss, read as the divider only when no exact one comes. */
export const LOOSE_DIVIDER = /^={5,9}\s*$/;

export function isSearchMarker(s: string): boolean {
  return (s[0] === '<' || s[0] === '-') && SEARCH.test(s);
}

export function isReplaceMarker(s: string): boolean {
  return (s[0] === '>' || s[0] === '+') && REPLACE.test(s);
}

const ROO_LINE = /^:(start|end)_line:\s*(\d+)\s*$/;
/** Roo's separator after its header; without a header only the exact seven dashes count. */
const ROO_SEPARATOR_AFTER_HEADER = /^-{3,}\s*$/;
const ROO_SEPARATOR = /^-{7}\s*$/;

export interface RooHeader {
  /** Index of the first line of the SEARCH text. */
  next: number;
  startLine?: number;
  /** Whether any header line (or the separator) was read, for the warning. */
  read: boolean;
}

/** Reads Roo Code's optional header right after the SEARCH marker at `marker`. */
export function readRooHeader(lines: readonly string[], marker: number): RooHeader {
  let j = marker + 1;
  let startLine: number | undefined;
  let header = false;
  while (j < lines.length) {
    const m = ROO_LINE.exec(lines[j]!);
    if (!m) break;
    if (m[1] === 'start') startLine = Number(m[2]);
    header = true;
    j++;
  }
  const separator = j < lines.length && (header ? ROO_SEPARATOR_AFTER_HEADER : ROO_SEPARATOR).test(lines[j]!);
  if (separator) j++;
  return { next: j, ...(startLine !== undefined && startLine > 0 ? { startLine } : {}), read: header || separator };
}

/**
 * A marker line written as content is escaped with a backslash (Roo's convention): `\=======`,
 * `\<<<<<<< SEARCH`, `\>>>>>>> REPLACE`, `\-------`. Returns the content line.
 */
export function unescapeMarker(line: string): string {
  if (line[0] !== '\\') return line;
  const rest = line.slice(1);
  const marker = isSearchMarker(rest) || isReplaceMarker(rest) || LOOSE_DIVIDER.test(rest) || ROO_SEPARATOR.test(rest);
  return marker ? rest : line;
}
