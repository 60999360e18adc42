/**
 * SEARCH/REPLACE as the peers' tools accept it and models therefore write it: fence tags
 * instead of ```, the file name in a fence of its own, Roo Code's block header and numbered
 * lines, Cline's long markers with the last one cut off, and blocks that build on each other.
 */
import { newSide, oldSide, splitLines, type UHunk } from '../diff-model';
import type { Rng } from '../rng';
import { endsWithNewline, locatableWithoutLineNumbers, singleFile, unifiedFor } from './common';
import type { Kind } from './types';

const block = (search: string[], replace: string[], open = '<<<<<<< SEARCH', close = '>>>>>>> REPLACE') =>
  [open, ...search, '=======', ...replace, close].join('\n');

/** Only unique hunk texts make a fair must-apply case: a block carries no line number. */
const fair = (pair: Parameters<Kind['make']>[0]['pair']) => endsWithNewline(pair) && locatableWithoutLineNumbers(pair);

const TAGS: Array<[string, string]> = [
  ['<source>', '</source>'],
  ['<code lang="js">', '</code>'],
  ['<pre>', '</pre>'],
  ['<source>javascript', '</source>'],
];

export const srFenceTags: Kind = {
  name: 'sr-fence-tags',
  group: 'must-apply',
  format: 'search_replace',
  expectation: 'exact',
  description:
    'blocks in `<source>`/`<code>`/`<pre>` tags instead of fences (path before the tag or first inside it), half with a reversed `git diff` quoted in the prose',
  make: ({ pair, rng }) => {
    if (!fair(pair)) return null;
    const [open, close] = rng.pick(TAGS);
    const inside = rng.bool();
    const blocks = pair.hunks.map((h) => [...(inside ? [open, pair.path] : [pair.path, open]), block(oldSide(h), newSide(h)), close].join('\n'));
    const quoted = rng.bool();
    const prose = quoted
      ? ['My first attempt was this diff, which did not apply:', '', unifiedFor(pair, reversed(pair.hunks)), 'Here are the edits instead:', '']
      : ['Here are the edits:', ''];
    return singleFile(
      pair,
      [...prose, blocks.join('\n\n'), '', 'That should do it.', ''].join('\n'),
      `${open}${inside ? ' path inside' : ''}${quoted ? ', quoted diff' : ''}`,
    );
  },
};

/** The hunks of new -> old: applying them to the old text must fail or corrupt it. */
function reversed(hunks: UHunk[]): UHunk[] {
  return hunks.map((h) => ({
    oldStart: h.newStart,
    oldLines: h.newLines,
    newStart: h.oldStart,
    newLines: h.oldLines,
    lines: h.lines.filter((l) => l[0] !== '\\').map((l) => (l[0] === '+' ? '-' + l.slice(1) : l[0] === '-' ? '+' + l.slice(1) : l)),
  }));
}

export const srFilenameFence: Kind = {
  name: 'sr-filename-fence',
  group: 'must-apply',
  format: 'search_replace',
  expectation: 'exact',
  description: 'the file name alone in a fence of its own, then the block in the next fence',
  make: ({ pair, rng }) => {
    if (!fair(pair)) return null;
    const lang = rng.pick(['', 'text', 'js']);
    const blocks = pair.hunks.map((h) => ['```' + lang, pair.path, '```', '', '```js', block(oldSide(h), newSide(h)), '```'].join('\n'));
    return singleFile(pair, blocks.join('\n\n') + '\n', `name fence '${lang}'`);
  },
};

export const srRoo: Kind = {
  name: 'sr-roo-headers',
  group: 'must-apply',
  format: 'search_replace',
  expectation: 'exact',
  description: 'Roo Code blocks: `:start_line:`/`:end_line:` and `-------` after the SEARCH marker; half with `N | ` prefixes copied from a numbered read',
  make: ({ pair, rng }) => {
    if (!fair(pair)) return null;
    const numbered = rng.bool();
    const width = String(splitLines(pair.oldText).length).length;
    const number = (lines: string[], first: number) => lines.map((l, k) => `${String(first + k).padStart(width)} | ${l}`);
    const blocks = pair.hunks.map((h) => {
      const search = oldSide(h);
      const header = [`:start_line:${h.oldStart}`, `:end_line:${h.oldStart + search.length - 1}`, '-------'];
      const body = numbered ? number(search, h.oldStart) : search;
      const replace = numbered && rng.bool() ? number(newSide(h), h.oldStart) : newSide(h);
      return ['<<<<<<< SEARCH', ...header, ...body, '=======', ...replace, '>>>>>>> REPLACE'].join('\n');
    });
    return singleFile(pair, [pair.path, ...blocks].join('\n') + '\n', numbered ? 'numbered lines' : 'header only');
  },
};

export const srCline: Kind = {
  name: 'sr-cline-markers',
  group: 'must-apply',
  format: 'search_replace',
  expectation: 'exact',
  description:
    "Cline markers with 8-12 dashes/pluses (`-------- SEARCH`, `+++++++++ REPLACE`), and the last block's closing marker cut off at the end of the message (where its end is certain)",
  make: ({ pair, rng }) => {
    if (!fair(pair)) return null;
    const last = pair.hunks[pair.hunks.length - 1]!;
    const cut = cutIsCertain(oldSide(last), newSide(last));
    const blocks = pair.hunks.map((h, i) => {
      const open = '-'.repeat(rng.int(8, 12)) + ' SEARCH';
      const close = cut && i === pair.hunks.length - 1 ? null : '+'.repeat(rng.int(7, 12)) + ' REPLACE';
      return [open, ...oldSide(h), '=======', ...newSide(h), ...(close ? [close] : [])].join('\n');
    });
    // A message may end without a newline, unless its last line is blank (then nothing would show it).
    const lastBlank = newSide(last).at(-1)?.trim() === '';
    return singleFile(
      pair,
      [pair.path, ...blocks].join('\n') + (lastBlank || rng.bool() ? '\n' : ''),
      cut ? 'last marker cut off' : 'all markers (the cut would be uncertain)',
    );
  },
};

/**
 * Where a cut-off replacement ends is certain only when nothing in it could be the end of the
 * message instead: no fence line, and it ends with exactly the blank lines its SEARCH ends with.
 */
function cutIsCertain(search: string[], replace: string[]): boolean {
  const blankTail = (xs: string[]) => {
    let n = 0;
    while (n < xs.length && xs[xs.length - 1 - n]!.trim() === '') n++;
    return n;
  };
  return !replace.some((l) => /^(?:```|~~~|\s*<\/?(?:source|code|pre)\b)/.test(l)) && blankTail(search) === blankTail(replace);
}

const FOLLOW_UP = '// follow-up edit';

export const srSequential: Kind = {
  name: 'sr-sequential',
  group: 'must-apply',
  format: 'search_replace',
  expectation: 'exact',
  description: 'the blocks of the change, then one whose SEARCH is a line an earlier REPLACE wrote (aider/Cline apply blocks in order)',
  make: ({ pair, rng }) => {
    if (!fair(pair)) return null;
    const written = sequentialTarget(pair.oldText, pair.newText, pair.hunks, rng);
    if (!written) return null;
    const { line, expected } = written;
    const follow = indentOf(line) + FOLLOW_UP;
    const blocks = [...pair.hunks.map((h) => block(oldSide(h), newSide(h))), block([line], [line, follow])];
    return {
      files: { [pair.path]: pair.oldText },
      patch: [pair.path, ...blocks].join('\n') + '\n',
      expected: { [pair.path]: expected(follow) },
      variant: `follow-up after ${JSON.stringify(line.trim().slice(0, 40))}`,
    };
  },
};

/** An added line that occurs once in the new text and nowhere in the old one. */
function sequentialTarget(oldText: string, newText: string, hunks: UHunk[], rng: Rng): { line: string; expected: (follow: string) => string } | null {
  const newLines = splitLines(newText);
  const oldSet = new Set(splitLines(oldText));
  const candidates = hunks
    .flatMap((h) => h.lines.filter((l) => l[0] === '+').map((l) => l.slice(1)))
    .filter((l) => l.trim().length >= 4 && !oldSet.has(l) && newLines.filter((x) => x === l).length === 1);
  if (candidates.length === 0) return null;
  const line = rng.pick(candidates);
  const at = newLines.indexOf(line);
  return { line, expected: (follow) => [...newLines.slice(0, at + 1), follow, ...newLines.slice(at + 1)].join('\n') + '\n' };
}

function indentOf(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}
