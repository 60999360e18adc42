import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LineWork } from '../../../../src/core/patch/fileIndex';
import { planPatch } from '../../../../src/core/patch/plan';
import { diffHunks, formatUnified } from '../../../../bench/patch/diff-model';
import { editLargeFile, generateLargeFile } from '../../../../bench/patch/perf';
import { Rng } from '../../../../bench/patch/rng';
import { gitDiff } from './gitDiff';

/**
 * The engine's cost grows with patch + file, not hunks x lines: four times the hunks on four times
 * the lines must cost about four times as much work, not sixteen. The work is counted, not timed:
 * the file lines the engine looks at (keyed, scanned, hashed, compared; LineWork in
 * src/core/patch/fileIndex.ts), so a busy machine cannot decide. A scan of the file per hunk would
 * land at 16x. The timing of the same cases is a benchmark: `npm run bench:patch` (bench/patch/large.ts).
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

/** The file lines looked at while placing the patch, which must apply exactly. */
function linesLookedAt(oldText: string, newText: string, patch: string): number {
  const work = new LineWork();
  const r = planPatch(patch, new Map([['big.js', oldText]]), {}, { work });
  assert.equal(r.ok, true, r.error);
  assert.equal(r.files[0]!.newText, newText);
  assert.ok(r.files[0]!.hunks.every((h) => h.confidence === 1));
  return work.lines;
}

describe('patch engine cost grows with patch + file', () => {
  const small = sized(25_000, 125);
  const large = sized(100_000, 500);
  for (const kind of ['plain', 'git'] as const) {
    test(`${kind} patch: 4x hunks on a 4x file looks at about 4x the lines, far less than 16x`, () => {
      const a = linesLookedAt(small.oldText, small.newText, small[kind]);
      const b = linesLookedAt(large.oldText, large.newText, large[kind]);
      assert.ok(large[kind].includes('@@ function') === (kind === 'git'), 'git writes a heading on each hunk');
      assert.ok(a >= 25_000, `the file is looked at at least once (${a} lines)`);
      assert.ok(b / a < 6, `125 hunks / 25k lines: ${a} lines looked at; 500 hunks / 100k lines: ${b}`);
    });
  }
});
