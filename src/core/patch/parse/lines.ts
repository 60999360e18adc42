/**
 * Line-level helpers shared by the three format parsers. Lines are kept in one array whose
 * index + 1 is the line number in the ORIGINAL text, so every hunk and error can point back
 * at the line the model wrote, whatever prose or fences surround the patch.
 */

/**
 * Patch text as lines without endings (a BOM and the `\r` of CRLF endings stripped), and which
 * lines ended in CRLF when the text mixes endings. A text that is CRLF throughout was only
 * transported that way, so its endings say nothing; in a mixed text (a git diff of a CRLF file:
 * LF headers, CRLF body lines) each body line's ending is part of what the patch says.
 */
export interface PatchLines {
  lines: string[];
  /** 0-based indexes of lines that ended in `\r\n`; empty unless the text mixes endings. */
  cr: ReadonlySet<number>;
  /** Every line that has an ending ends in `\r\n` (and at least one does). */
  crlfThroughout: boolean;
}

export function splitPatchText(text: string): PatchLines {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  // A text with only old-Mac `\r` endings: split on those instead.
  const separator = body.includes('\n') || !body.includes('\r') ? '\n' : '\r';
  const lines = body.split(separator);
  const cr = new Set<number>();
  let lf = 0;
  if (separator === '\n') {
    // The last piece has no ending of its own.
    for (let i = 0; i < lines.length - 1; i++) {
      const line = lines[i]!;
      if (line.endsWith('\r')) {
        lines[i] = line.slice(0, -1);
        cr.add(i);
      } else lf++;
    }
    const last = lines[lines.length - 1]!;
    if (last.endsWith('\r')) lines[lines.length - 1] = last.slice(0, -1);
  }
  // "a\nb\n" is two lines, not three.
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return { lines, cr: cr.size > 0 && lf > 0 ? cr : NO_CR, crlfThroughout: cr.size > 0 && lf === 0 };
}

const NO_CR: ReadonlySet<number> = new Set();

/** Splits patch text into lines without endings; strips a BOM and the `\r` of CRLF endings. */
export function splitLines(text: string): string[] {
  return splitPatchText(text).lines;
}

/**
 * The ending a hunk line's patch line had, when the patch mixes endings (see PatchLines);
 * undefined when the patch's endings are uniform and so carry no meaning.
 */
export function eolAt(cr: ReadonlySet<number>, index: number): '\r\n' | '\n' | undefined {
  if (cr.size === 0) return undefined;
  return cr.has(index) ? '\r\n' : '\n';
}

/** A Markdown code fence at column 0 (```diff, ```, ~~~). Indented fences would be hunk text. */
export function isFence(line: string): boolean {
  return line.startsWith('```') || line.startsWith('~~~');
}

/** The info string after a fence's backticks (`diff`, `python src/app.py`), trimmed. */
export function fenceInfo(line: string): string {
  const marker = line[0]!;
  let i = 0;
  while (i < line.length && line[i] === marker) i++;
  return line.slice(i).trim();
}

/**
 * The HTML-ish tags some peers (aider's alternative fences) put around a block instead of ```:
 * `<source>`, `<source>python`, `<code lang="ts">`, `</code>`. Only a line that is nothing but
 * the tag counts.
 */
const TAG_OPEN = /^\s*<(?:source|code|pre|codeblock|sourcecode)(?:\s[^>]*)?>\s*(\S*)\s*$/i;
const TAG_CLOSE = /^\s*<\/(?:source|code|pre|codeblock|sourcecode)>\s*$/i;

/** A ``` fence or a fence tag (see TAG_OPEN). */
export function isFenceLike(line: string): boolean {
  return isFence(line) || TAG_OPEN.test(line) || TAG_CLOSE.test(line);
}

/** The info after a fence's backticks or after an opening tag (`python`, a path); '' for a closer. */
export function fenceLikeInfo(line: string): string {
  if (isFence(line)) return fenceInfo(line);
  const open = TAG_OPEN.exec(line);
  if (!open) return '';
  const attr = /\b(?:file|path|title|filename)=["']([^"']+)["']/i.exec(line);
  return attr ? attr[1]! : (open[1] ?? '');
}

/** What `mask` puts in place of lines another format claimed: a fence to every parser. */
export const CLAIMED_LINE = '```\u0000claimed';

/** Counts the lines a parser skipped, for one warning at the end. */
export class SkippedLines {
  prose = 0;
  fences = 0;

  note(line: string): void {
    if (line === CLAIMED_LINE || isBlank(line)) return;
    if (isFence(line)) this.fences++;
    else this.prose++;
  }

  /** `where`: 'outside the diff' and the like. Undefined when nothing was skipped. */
  warning(where: string): string | undefined {
    const parts: string[] = [];
    if (this.prose > 0) parts.push(`${this.prose} line(s) of prose`);
    if (this.fences > 0) parts.push(`${this.fences} \`\`\` fence line(s)`);
    return parts.length === 0 ? undefined : `ignored ${parts.join(' and ')} ${where}`;
  }
}

export function isBlank(line: string): boolean {
  return line.trim() === '';
}

/** `line N: message`, the shape of every warning, so the log points at the patch text. */
export function at(lineNumber: number, message: string): string {
  return `line ${lineNumber}: ${message}`;
}

/** Shortens a patch line for quoting inside a message. */
export function quote(line: string | undefined): string {
  if (line === undefined) return 'the end of the text';
  const shown = line.length > 60 ? `${line.slice(0, 57)}...` : line;
  return shown === '' ? 'an empty line' : `\`${shown}\``;
}
