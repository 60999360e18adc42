/** Whitespace defects: indentation drift, trailing whitespace, line-ending mismatches. */
import type { UHunk } from '../diff-model';
import { hunksCopy, singleFile, toCrlf, unifiedFor } from './common';
import type { Kind } from './types';

type Shift = '+2' | '-2' | '+tab' | '-tab';

function shiftLine(text: string, shift: Shift): string {
  if (text.trim() === '') return text; // models leave blank lines blank
  switch (shift) {
    case '+2':
      return '  ' + text;
    case '-2':
      return text.slice(2);
    case '+tab':
      return '\t' + text;
    case '-tab':
      return text.slice(1);
  }
}

function shiftAllowed(hunks: UHunk[], shift: Shift): boolean {
  const body = hunks.flatMap((h) => h.lines.filter((l) => l[0] !== '\\').map((l) => l.slice(1)));
  const nonBlank = body.filter((t) => t.trim() !== '');
  if (shift === '-2') return nonBlank.every((t) => t.startsWith('  '));
  if (shift === '-tab') return nonBlank.every((t) => t.startsWith('\t'));
  return true;
}

export const indentationDrift: Kind = {
  name: 'indentation-drift',
  group: 'must-apply',
  format: 'unified',
  expectation: 'exact',
  description: "every hunk line (old and new side) shifted by +2/-2 spaces or a tab; expected: the change at the file's own indentation",
  make: ({ pair, rng }) => {
    const tabs = (pair.oldText.match(/^\t/gm)?.length ?? 0) > (pair.oldText.match(/^ {2}/gm)?.length ?? 0);
    const hunks = hunksCopy(pair);
    // Each hunk's old side needs a non-blank line, or there is no indentation to drift.
    if (hunks.some((h) => !h.lines.some((l) => (l[0] === ' ' || l[0] === '-') && l.slice(1).trim() !== ''))) return null;
    const options = (tabs ? (['+tab', '-tab'] as const) : (['+2', '-2'] as const)).filter((s) => shiftAllowed(hunks, s));
    const shift = rng.pick(options);
    const shifted = hunks.map((h) => ({
      ...h,
      lines: h.lines.map((l) => (l[0] === '\\' ? l : l[0] + shiftLine(l.slice(1), shift))),
    }));
    return singleFile(pair, unifiedFor(pair, shifted), `shift ${shift}`);
  },
};

const TRAILING = [' ', '  ', '\t', ' \t', '   '];

export const trailingWhitespace: Kind = {
  name: 'trailing-whitespace',
  group: 'must-apply',
  format: 'unified',
  expectation: 'exact',
  description: 'trailing whitespace added to (or, where the file has it, removed from) context and removed lines',
  make: ({ pair, rng }) => {
    const hunks = hunksCopy(pair);
    const isOld = (l: string): boolean => l[0] === ' ' || l[0] === '-';
    const fileHasTrailing = hunks.some((h) => h.lines.some((l) => isOld(l) && /[ \t]$/.test(l.slice(1))));
    if (fileHasTrailing) {
      const stripped = hunks.map((h) => ({ ...h, lines: h.lines.map((l) => (isOld(l) ? l[0] + l.slice(1).replace(/[ \t]+$/, '') : l)) }));
      return singleFile(pair, unifiedFor(pair, stripped), 'removed');
    }
    const slots: Array<{ lines: string[]; j: number }> = [];
    for (const h of hunks) h.lines.forEach((l, j) => isOld(l) && slots.push({ lines: h.lines, j }));
    if (slots.length === 0) return null;
    const chosen = slots.filter(() => rng.bool(0.4));
    if (chosen.length === 0) chosen.push(rng.pick(slots));
    for (const { lines, j } of chosen) lines[j] += rng.pick(TRAILING);
    return singleFile(pair, unifiedFor(pair, hunks), `added on ${chosen.length} lines`);
  },
};

export const crlfPatchLfFile: Kind = {
  name: 'crlf-patch-lf-file',
  group: 'must-apply',
  format: 'unified',
  expectation: 'exact',
  description: 'the patch text has CRLF line endings, the file LF; expected keeps LF',
  make: ({ pair }) => singleFile(pair, toCrlf(unifiedFor(pair))),
};

export const lfPatchCrlfFile: Kind = {
  name: 'lf-patch-crlf-file',
  group: 'must-apply',
  format: 'unified',
  expectation: 'exact',
  description: 'the file has CRLF line endings, the patch LF; expected keeps CRLF',
  make: ({ pair }) => ({
    files: { [pair.path]: toCrlf(pair.oldText) },
    patch: unifiedFor(pair),
    expected: { [pair.path]: toCrlf(pair.newText) },
  }),
};
