import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTwoFilesPatch } from 'diff';
import { applyPatchToTexts } from '../../../../src/core/patch/plan';
import { seededRandom } from '../../../support/seededRandom';

/**
 * Property: for random files that mix CRLF and LF, and a random single-hunk edit written by the
 * real `diff` package (whose hunk lines keep each line's `\r`), the engine writes exactly the
 * bytes the edit intended or refuses (with or without a BOM). With the patch's endings destroyed (every line LF, every
 * line CRLF, as a patch copied through an editor arrives), what the edit intended cannot be known:
 * then a result whose bytes differ from it must never be reported exact.
 */

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'return x;', '}', '', 'let y = 1;', 'if (a) {', 'call(b);', 'end', 'z'];
/** EOL_CASES=20000 for a longer search. */
const CASES = Number(process.env.EOL_CASES ?? 400);

interface Case {
  oldText: string;
  newText: string;
  patch: string;
}

function makeCase(rand: () => number): Case {
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const line = () => `${WORDS[int(0, WORDS.length - 1)]}${rand() < 0.5 ? ` ${int(0, 40)}` : ''}`;
  const eol = () => (rand() < 0.5 ? '\r\n' : '\n');
  const n = int(3, 24);
  const lines = Array.from({ length: n }, () => ({ text: line(), eol: eol() }));
  const oldFinal = rand() < 0.8;
  // A BOM is the first bytes of line 1 to a diff: an edit of that line removes or keeps it.
  if (rand() < 0.2) lines[0]!.text = '\uFEFF' + lines[0]!.text;
  // Mixed for sure: at least one line of each kind among the lines that keep their ending.
  const ended = oldFinal ? n : n - 1;
  const crlfAt = int(0, ended - 1);
  lines[crlfAt]!.eol = '\r\n';
  lines[(crlfAt + int(1, ended - 1)) % ended]!.eol = '\n';
  const at = int(0, n);
  const removed = Math.min(int(0, 3), n - at);
  const addedCount = removed === 0 ? int(1, 3) : int(0, 3);
  const added = Array.from({ length: addedCount }, () => ({ text: `${line()} new`, eol: eol() }));
  const next = [...lines.slice(0, at), ...added, ...lines.slice(at + removed)];
  const touchesEnd = at + removed >= n;
  const newFinal = touchesEnd && rand() < 0.3 ? !oldFinal : oldFinal;
  const text = (ls: { text: string; eol: string }[], final: boolean) => ls.map((l, i) => l.text + (i < ls.length - 1 || final ? l.eol : '')).join('');
  const oldText = text(lines, oldFinal);
  const newText = text(next, newFinal);
  const patch = createTwoFilesPatch('a/f.txt', 'b/f.txt', oldText, newText, '', '', { context: int(0, 3) });
  return { oldText, newText, patch };
}

type Outcome = 'exact' | 'refused' | 'differs-and-says-so' | 'no-change';

function check(c: Case, patch: string, strict: boolean): Outcome {
  const r = applyPatchToTexts(patch, new Map([['f.txt', c.oldText]]));
  const context = `\nold ${JSON.stringify(c.oldText)}\nnew ${JSON.stringify(c.newText)}\npatch ${JSON.stringify(patch)}\n${r.error ?? ''}`;
  if (!r.ok) {
    assert.ok(r.error, `a refusal says why${context}`);
    return 'refused';
  }
  const written = r.files[0]!.newText;
  if (written === c.newText) return 'exact';
  const reportedExact = r.files[0]!.hunks.every((h) => h.confidence === 1 && !h.note);
  assert.ok(!strict, `the diff package's patch carries every ending: the bytes must be the intended ones\ngot ${JSON.stringify(written)}${context}`);
  assert.ok(!reportedExact, `bytes differ from the intended edit but the hunk is reported exact\ngot ${JSON.stringify(written)}${context}`);
  return 'differs-and-says-so';
}

describe('line endings, property: mixed-ending files and single-hunk edits by the diff package', () => {
  const cases: Case[] = [];
  const rand = seededRandom(20_26);
  for (let i = 0; i < CASES; i++) {
    const c = makeCase(rand);
    if (c.oldText !== c.newText) cases.push(c);
  }

  test('as the diff package writes it: byte-identical or refused', () => {
    const seen: Record<string, number> = {};
    for (const c of cases) {
      const o = check(c, c.patch, true);
      seen[o] = (seen[o] ?? 0) + 1;
    }
    // Most edits are unambiguous: the property is not satisfied by refusing everything.
    assert.ok((seen.exact ?? 0) > cases.length * 0.8, JSON.stringify(seen));
  });

  for (const [name, convert] of [
    ['every line LF', (p: string) => p.replace(/\r\n/g, '\n')],
    ['every line CRLF', (p: string) => p.replace(/\r?\n/g, '\r\n')],
  ] as const) {
    test(`endings destroyed (${name}): never reported exact when the bytes differ`, () => {
      const seen: Record<string, number> = {};
      for (const c of cases) {
        const o = check(c, convert(c.patch), false);
        seen[o] = (seen[o] ?? 0) + 1;
      }
      assert.ok((seen.exact ?? 0) > 0 && (seen['differs-and-says-so'] ?? 0) > 0, JSON.stringify(seen));
    });
  }
});
