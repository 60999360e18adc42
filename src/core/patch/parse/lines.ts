/**
 * Line-level helpers shared by the three format parsers. Lines are kept in one array whose
 * index + 1 is the line number in the ORIGINAL text, so every hunk and error can point back
 * at the line the model wrote, whatever prose or fences surround the patch.
 */

/** Splits patch text into lines without endings; strips a BOM and the `\r` of CRLF endings. */
export function splitLines(text: string): string[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  // A text with only old-Mac `\r` endings: split on those instead.
  const separator = body.includes('\n') || !body.includes('\r') ? '\n' : '\r';
  const lines = body.split(separator);
  if (separator === '\n') {
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (line.endsWith('\r')) lines[i] = line.slice(0, -1);
    }
  }
  // "a\nb\n" is two lines, not three.
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
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
