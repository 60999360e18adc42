import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyPatchToTexts } from '../../../../src/core/patch/plan';
import { diffHunks, formatUnified } from '../../../../bench/patch/diff-model';
import { editLargeFile, generateLargeFile } from '../../../../bench/patch/perf';
import { Rng } from '../../../../bench/patch/rng';
import { gitDiff } from './gitDiff';

/**
 * The engine's cost grows with patch + file, not hunks x lines: four times the hunks on four times
 * the lines must cost about four times as much, not sixteen. Timed as the best of a few runs, so a
 * busy machine does not decide; the ratio bound leaves room for noise and for GC, and a product
 * (a scan of the file per hunk) lands far above it.
 */

interface Sized {
  oldText: string;
  newText: string;
  /** A jsdiff patch (no headings) and git's (an `@@ ... @@ function ...` heading on every hunk). */
  plain: string;
  git: string;
}

function sized(lines: number, hunks: number): Sized {
  const rng = Rng.forLabel(7, `scaling-${lines}`);
  const old = generateLargeFile(rng, lines);
  const oldText = old.join('\n') + '\n';
  const newText = editLargeFile(rng, old, hunks).join('\n') + '\n';
  const plain = formatUnified([{ oldPath: 'big.js', newPath: 'big.js', hunks: diffHunks(oldText, newText) }]);
  return { oldText, newText, plain, git: gitDiff(oldText, newText, 3, 'big.js') };
}

function bestMs(oldText: string, newText: string, patch: string): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    const r = applyPatchToTexts(patch, new Map([['big.js', oldText]]));
    best = Math.min(best, performance.now() - t);
    assert.equal(r.ok, true, r.error);
    assert.equal(r.files[0]!.newText, newText);
    assert.ok(r.files[0]!.hunks.every((h) => h.confidence === 1));
  }
  return best;
}

describe('patch engine cost grows with patch + file', () => {
  const small = sized(25_000, 125);
  const large = sized(100_000, 500);
  for (const kind of ['plain', 'git'] as const) {
    test(`${kind} patch: 4x hunks on a 4x file costs far less than 16x`, () => {
      const a = bestMs(small.oldText, small.newText, small[kind]);
      const b = bestMs(large.oldText, large.newText, large[kind]);
      assert.ok(large[kind].includes('@@ function') === (kind === 'git'), 'git writes a heading on each hunk');
      assert.ok(b / Math.max(a, 1) < 8, `125 hunks / 25k lines: ${a.toFixed(0)} ms; 500 hunks / 100k lines: ${b.toFixed(0)} ms`);
    });
  }
});
