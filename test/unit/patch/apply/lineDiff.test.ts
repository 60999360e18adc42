import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyPatch, formatPatch } from 'diff';
import { diffHunks } from '../../../../src/core/patch/lineDiff';
import { seededRandom } from '../../../support/seededRandom';

describe('fast line diff (reverse patches)', () => {
  test('random edits: jsdiff applies our hunks back to the exact target bytes', () => {
    const rand = seededRandom(42);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
    for (let c = 0; c < 1500; c++) {
      const n = Math.floor(rand() * 30);
      const a = Array.from({ length: n }, () => pick(['x', 'y', 'z', '', '}', 'w\r', 'long line ' + Math.floor(rand() * 5)]));
      const b = a.slice();
      for (let e = Math.floor(rand() * 5); e > 0; e--) {
        const at = Math.floor(rand() * (b.length + 1));
        if (rand() < 0.4) b.splice(at, 1 + Math.floor(rand() * 3));
        else b.splice(at, 0, ...Array.from({ length: 1 + Math.floor(rand() * 3) }, () => pick(['x', 'new', '', '}', 'q\r'])));
      }
      const join = (xs: string[]) => (xs.length === 0 ? '' : xs.join('\n') + (rand() < 0.3 ? '' : '\n'));
      const oldText = join(a);
      const newText = join(b);
      const text = formatPatch({ oldFileName: 'a/f', newFileName: 'b/f', oldHeader: undefined, newHeader: undefined, hunks: diffHunks(oldText, newText) });
      assert.equal(applyPatch(oldText, text), newText, `case ${c}: ${JSON.stringify(oldText)} -> ${JSON.stringify(newText)}\n${text}`);
    }
  });

  test('identical texts give no hunks', () => {
    assert.deepEqual(diffHunks('a\nb\n', 'a\nb\n'), []);
  });
});
