/**
 * The one renderer of a command (or any text that runs) on an approval surface: the chat's card, VS
 * Code's notification, the CLI's prompt and a channel's message all show `renderExact(command)`, so
 * what a person approves is what runs, byte for byte. A surface that collapses whitespace (HTML, a
 * chat app, a one-line notification) cannot hide a tab, a newline, two spaces or a control
 * character, because none reaches it: each is shown as a visible escape. The rendering determines
 * the command exactly (`parseExact` inverts it; test/unit/protocol/exactCommand.test.ts).
 *
 * Plain form: a command of printable characters and single spaces is shown as it is. Escaped form
 * (`escaped: true`, which every surface says in words, `ESCAPED_NOTE`): backslash `\\`, tab `\t`,
 * newline `\n`, carriage return `\r`, other control characters `\xHH`, invisible or look-alike
 * characters (format, bidi, line and paragraph separators, other spaces) `\u{HHHH}`, and each space of
 * a run of two or more, or at either end, `␠` (a literal `␠` is `\u{2420}`).
 */
export interface ExactRendering {
  text: string;
  escaped: boolean;
}

export const ESCAPED_NOTE = 'shown escaped, exactly as it runs: \\n newline, \\t tab, ␠ space, \\\\ backslash, \\x.. and \\u{..} other characters';

const VISIBLE_SPACE = '␠';
/**
 * Characters never shown raw: controls (U+0000-001F, DEL, U+0080-009F), format and bidi controls, surrogates, private
 * use and unassigned code points, line and paragraph separators, every space but U+0020, and the
 * blank-looking ones (combining grapheme joiner, Hangul fillers, braille blank, variation selectors),
 * and the visible-space sign itself.
 */
const NEEDS_ESCAPE =
  // The class lists invisible combining marks (U+034F, variation selectors) on purpose: each alone is a match.
  // eslint-disable-next-line no-misleading-character-class
  /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\u034f\u115f\u1160\u2800\u3164\uffa0\ufe00-\ufe0f\u{e0100}-\u{e01ef}\u2420]/u;
const NAMED: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

export function renderExact(command: string): ExactRendering {
  if (!needsEscaping(command)) return { text: command, escaped: false };
  let out = '';
  const chars = [...command];
  chars.forEach((ch, i) => {
    if (ch === ' ') out += isLoneInnerSpace(chars, i) ? ' ' : VISIBLE_SPACE;
    else if (NAMED[ch]) out += NAMED[ch];
    else if (NEEDS_ESCAPE.test(ch)) out += escapeCodePoint(ch);
    else out += ch;
  });
  return { text: out, escaped: true };
}

/** The command a rendering shows. Throws on text no rendering produces (a stray backslash). */
export function parseExact(rendering: ExactRendering): string {
  if (!rendering.escaped) return rendering.text;
  return rendering.text.replace(/\\(?:x([0-9a-f]{2})|u\{([0-9a-f]{1,6})\}|([\\tnr]))|␠|\\/g, (all, hex?: string, code?: string, named?: string) => {
    if (all === VISIBLE_SPACE) return ' ';
    if (hex) return String.fromCharCode(parseInt(hex, 16));
    if (code) return String.fromCodePoint(parseInt(code, 16));
    if (named) return { '\\': '\\', t: '\t', n: '\n', r: '\r' }[named]!;
    throw new Error(`not an exact rendering: a lone backslash in ${JSON.stringify(rendering.text)}`);
  });
}

/** One line for a plain-text surface: the rendering, and the note in brackets when escaped. */
export function exactLine(command: string): string {
  const r = renderExact(command);
  return r.escaped ? `${r.text}   [${ESCAPED_NOTE}]` : r.text;
}

/** Plain text would hide or mislead: an escape-worthy character, two spaces in a row, a space at either end. */
function needsEscaping(command: string): boolean {
  return NEEDS_ESCAPE.test(command) || command.includes('  ') || command.startsWith(' ') || command.endsWith(' ');
}

/** A space between two non-spaces: shown as a space. */
function isLoneInnerSpace(chars: readonly string[], i: number): boolean {
  return i > 0 && i < chars.length - 1 && chars[i - 1] !== ' ' && chars[i + 1] !== ' ';
}

function escapeCodePoint(ch: string): string {
  const code = ch.codePointAt(0)!;
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
}
