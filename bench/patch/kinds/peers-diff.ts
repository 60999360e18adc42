/**
 * Diff-side cases from the peers' suites: indented apply_patch markers, `git diff -U0`, hunks
 * with context on one side only, mixed indentation, and byte-exact line endings.
 */
import { diffHunks, formatUnified, GIT_PATHS, recount, splitLines, findBlock, oldSide, type UHunk } from '../diff-model';
import { applyPatchEnvelope } from './formats';
import { endsWithNewline, hasMarker, hunksCopy, leadingContext, locatableWithoutLineNumbers, singleFile, trailingContext, unifiedFor } from './common';
import type { Kind } from './types';

export const applyPatchIndented: Kind = {
  name: 'apply-patch-indented',
  group: 'must-apply',
  format: 'apply_patch',
  expectation: 'exact',
  description: 'an apply_patch envelope whose `***` marker lines are indented by 1-4 spaces',
  make: ({ pair, rng }) => {
    if (!endsWithNewline(pair) || !locatableWithoutLineNumbers(pair)) return null;
    const pad = ' '.repeat(rng.int(1, 4));
    const text = applyPatchEnvelope(pair.path, pair.oldText, pair.hunks, rng)
      .split('\n')
      .map((l) => (l.startsWith('***') ? pad + l : l))
      .join('\n');
    return singleFile(pair, text, `indent ${pad.length}`);
  },
};

/** jsdiff writes an empty side's start as the line before which it goes; git as the line after which. */
function asGit(h: UHunk): UHunk {
  return {
    ...h,
    oldStart: h.oldLines === 0 ? h.oldStart - 1 : h.oldStart,
    newStart: h.newLines === 0 ? h.newStart - 1 : h.newStart,
  };
}

export const unifiedU0: Kind = {
  name: 'unified-u0',
  group: 'must-apply',
  format: 'unified',
  expectation: 'exact',
  description: '`git diff -U0` (no context at all; sources whose diff removes at least one line, which ties the numbers to the file)',
  make: ({ pair }) => {
    const hunks = diffHunks(pair.oldText, pair.newText, 0).map(asGit);
    if (hunks.length === 0 || !hunks.some((h) => h.lines.some((l) => l[0] === '-'))) return null;
    return singleFile(pair, formatUnified([{ oldPath: pair.path, newPath: pair.path, hunks }], GIT_PATHS, true), `${hunks.length} hunks`);
  },
};

/** A pure insertion between context lines, strictly inside the file. */
function insertionInside(h: UHunk, fileLength: number): boolean {
  const body = h.lines.filter((l) => l[0] !== '\\');
  const lead = leadingContext(h);
  const trail = trailingContext(h);
  const middle = body.slice(lead, body.length - trail);
  return lead > 0 && trail > 0 && middle.length > 0 && middle.every((l) => l[0] === '+') && h.oldStart > 1 && h.oldStart + h.oldLines - 1 < fileLength;
}

export const oneSidedContext: Kind = {
  name: 'one-sided-context',
  group: 'must-not-apply-wrong',
  format: 'unified',
  expectation: 'refuse',
  description:
    "an insertion inside the file whose context after it (or before it) was dropped: git reads that as the file's end (or start), which does not hold",
  make: ({ pair, rng }) => {
    const file = splitLines(pair.oldText);
    const hunks = hunksCopy(pair);
    const candidates = hunks.map((h, i) => [h, i] as const).filter(([h]) => !hasMarker(h) && insertionInside(h, file.length));
    if (candidates.length === 0) return null;
    const [h, i] = rng.pick(candidates);
    const side = rng.bool() ? 'after' : 'before';
    const cut = side === 'after' ? h.lines.slice(0, h.lines.length - trailingContext(h)) : h.lines.slice(leadingContext(h));
    const moved = side === 'before' ? leadingContext(h) : 0;
    const one = recount({ ...h, lines: cut, oldStart: h.oldStart + moved, newStart: h.newStart + moved });
    // The kept context must not also sit at that end of the file (then git's reading would hold).
    const kept = oldSide(one);
    const atEdge =
      side === 'after' ? findBlock(file.slice(file.length - kept.length), kept).length > 0 : findBlock(file.slice(0, kept.length), kept).length > 0;
    if (kept.length === 0 || atEdge) return null;
    hunks[i] = one;
    return { ...singleFile(pair, unifiedFor(pair, hunks), `hunk #${i} without context ${side} it`), expected: null };
  },
};

const OPENER = /[{([:=,]\s*$|=>\s*$/;

export const mixedIndentation: Kind = {
  name: 'mixed-indentation',
  group: 'must-not-apply-wrong',
  format: 'unified',
  expectation: 'exact-or-refuse',
  description:
    "context and removed lines shifted by +2/+4 spaces or a tab; some runs of added lines (those starting beside the line above them, which opens no block) left at the file's indentation, the others shifted",
  make: ({ pair, rng }) => {
    const tabs = (pair.oldText.match(/^\t/gm)?.length ?? 0) > (pair.oldText.match(/^ {2}/gm)?.length ?? 0);
    const pad = tabs ? '\t' : rng.pick(['  ', '    ']);
    const indent = (t: string) => /^[ \t]*/.exec(t)![0];
    const shift = (l: string) => l[0] + (l.slice(1).trim() === '' ? l.slice(1) : pad + l.slice(1));
    let kept = 0;
    const hunks = hunksCopy(pair).map((h) => {
      const lines = h.lines.slice();
      let lastOld: string | undefined;
      for (let i = 0; i < lines.length;) {
        const l = lines[i]!;
        if (l[0] !== '+') {
          if (l[0] !== '\\' && l.slice(1).trim() !== '') lastOld = l.slice(1);
          if (l[0] !== '\\') lines[i] = shift(l);
          i++;
          continue;
        }
        // A run of added lines, written in one frame: the file's (when it starts beside the line above) or the context's.
        let end = i;
        while (end < lines.length && lines[end]![0] === '+') end++;
        const first = lines.slice(i, end).find((x) => x.slice(1).trim() !== '');
        // Beside the line above, which does not open a block: under an opener, a run written for
        // the file looks exactly like a consistently shifted one, and nobody could tell them apart.
        const beside = first !== undefined && lastOld !== undefined && indent(first.slice(1)) === indent(lastOld) && !OPENER.test(lastOld);
        if (beside && rng.bool()) kept++;
        else for (let k = i; k < end; k++) lines[k] = shift(lines[k]!);
        i = end;
      }
      return { ...h, lines };
    });
    if (kept === 0 || !hunks.some((h) => h.lines.some((l) => l[0] !== '+' && l.slice(1).trim() !== ''))) return null;
    return singleFile(pair, unifiedFor(pair, hunks), `shift ${JSON.stringify(pad)}, ${kept} run(s) of added lines already at the file's indentation`);
  },
};

type Eol = 'drop-last-line' | 'cr-last-line' | 'mixed-endings' | 'final-newline';

export const eolBytes: Kind = {
  name: 'eol-bytes',
  group: 'must-apply',
  format: 'unified',
  expectation: 'exact',
  description:
    'byte-exact endings: deleting the last line of a file without final newline, a literal \\r on such a last line, CRLF lines added to a mixed-ending file, adding/dropping the final newline',
  make: ({ pair, rng }) => {
    const variant = rng.pick<Eol>(['drop-last-line', 'cr-last-line', 'mixed-endings', 'final-newline']);
    const [oldText, newText] = eolTexts(pair.oldText, pair.newText, variant, rng);
    if (oldText === newText) return null;
    const hunks = diffHunks(oldText, newText);
    if (hunks.length === 0 || hunks.length > 8) return null;
    return {
      files: { [pair.path]: oldText },
      patch: formatUnified([{ oldPath: pair.path, newPath: pair.path, hunks }], GIT_PATHS, true),
      expected: { [pair.path]: newText },
      variant,
    };
  },
};

function eolTexts(oldText: string, newText: string, variant: Eol, rng: { bool(p?: number): boolean }): [string, string] {
  const bare = (t: string) => t.replace(/\n$/, '');
  switch (variant) {
    case 'drop-last-line': {
      // The old file has no final newline; the new one lost its last line, the one before keeps its newline.
      const lines = splitLines(newText);
      return [bare(oldText), lines.slice(0, -1).join('\n') + '\n'];
    }
    case 'cr-last-line':
      return [bare(oldText) + '\r', bare(newText) + '\r'];
    case 'final-newline':
      return rng.bool() ? [bare(oldText), newText] : [oldText, bare(newText)];
    case 'mixed-endings': {
      // Every line gets CRLF or LF by a coin; lines both versions share keep one ending.
      const endings = new Map<string, string>();
      const ending = (line: string) => {
        if (!endings.has(line)) endings.set(line, rng.bool(0.4) ? '\r\n' : '\n');
        return endings.get(line)!;
      };
      const mix = (t: string) =>
        splitLines(t)
          .map((l) => l + ending(l))
          .join('');
      return [mix(oldText), mix(newText)];
    }
  }
}
