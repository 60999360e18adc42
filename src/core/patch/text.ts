/**
 * A file as lines that remember their own line ending, so an edit can rewrite only what the
 * patch touches and write every other byte back unchanged (CRLF, LF, mixed, BOM, final newline).
 */

export type Eol = '\n' | '\r\n';

export interface FileLine {
  text: string;
  /** The ending that followed this line in the file; '' only for a last line without newline. */
  eol: Eol | '';
}

export interface SplitText {
  lines: FileLine[];
  bom: boolean;
  /** True when the file ends with a line ending (or is empty). */
  finalNewline: boolean;
  /** The most frequent ending, LF on a tie or when the file has none (see addedEndings for when it may be used). */
  dominantEol: Eol;
  crlfCount: number;
  lfCount: number;
}

const BOM = '\uFEFF';

/** `keepBom`: the BOM stays part of the first line's text (for a patch that quotes it there). */
export function splitText(text: string, keepBom = false): SplitText {
  const bom = !keepBom && text.startsWith(BOM);
  const body = bom ? text.slice(1) : text;
  const lines: FileLine[] = [];
  let crlf = 0;
  let lf = 0;
  let pos = 0;
  while (pos < body.length) {
    const nl = body.indexOf('\n', pos);
    if (nl === -1) {
      lines.push({ text: body.slice(pos), eol: '' });
      break;
    }
    if (nl > pos && body.charCodeAt(nl - 1) === 13) {
      lines.push({ text: body.slice(pos, nl - 1), eol: '\r\n' });
      crlf++;
    } else {
      lines.push({ text: body.slice(pos, nl), eol: '\n' });
      lf++;
    }
    pos = nl + 1;
  }
  const last = lines[lines.length - 1];
  return { lines, bom, finalNewline: !last || last.eol !== '', dominantEol: crlf > lf ? '\r\n' : '\n', crlfCount: crlf, lfCount: lf };
}

/**
 * Joins lines back into text. Every line but the last must end with a newline (a line that was
 * the old last line gets the dominant ending when something now follows it); the last line ends
 * with one exactly when `finalNewline`.
 */
export function joinText(lines: readonly FileLine[], bom: boolean, finalNewline: boolean, dominantEol: Eol): string {
  let out = bom ? BOM : '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const isLast = i === lines.length - 1;
    const eol = isLast ? (finalNewline ? line.eol || dominantEol : '') : line.eol || dominantEol;
    out += line.text + eol;
  }
  return out;
}

/** Text of a file that does not exist yet: LF endings, a final newline unless told otherwise. */
export function textFromLines(lines: readonly string[], finalNewline: boolean): string {
  if (lines.length === 0) return '';
  return lines.join('\n') + (finalNewline ? '\n' : '');
}
