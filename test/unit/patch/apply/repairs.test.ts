import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyParsedPatch } from '../../../../src/core/patch/plan';
import { applyPatchToTexts } from '../../../../src/core/patch/plan';
import { filesOf, hunk, modify, patch } from './helpers';

/**
 * A repair (a recovered `+`, trimmed stale context) must never be the explanation for a line that
 * contradicts the file, and a line right next to an insertion must match whatever the fuzz.
 */

function outcome(src: string, body: string[], extra: Parameters<typeof hunk>[1] = {}) {
  return applyParsedPatch(patch(modify('f', [hunk(body, extra)])), filesOf({ f: src }));
}

const counts = (oldStart: number, oldCount: number, newCount: number) => ({ oldStart, oldCount, newStart: oldStart, newCount });

describe('a context line that is not in the file is not a missing +', () => {
  test('the counts tally it as context: refused', () => {
    const r = outcome('line2\nline2\nline5\n', [' line2', ' line3', '+line4', ' line5'], counts(1, 3, 4));
    assert.equal(r.ok, false);
    assert.match(r.error!, /not found in the file/);
  });

  test('no counts at all: refused (nothing tells a lost + from a wrong context line)', () => {
    for (const body of [
      [' def run():', '     setup()', '     validate()', '     go()'],
      [' <ul>', '   <li>one</li>', '   <li>two</li>', '+  <li>three</li>', ' </ul>'],
    ]) {
      const src = body[0]!.startsWith(' def') ? 'def run():\n    setup()\n    go()\n' : '<ul>\n  <li>one</li>\n</ul>\n';
      assert.equal(outcome(src, body).ok, false, body.join('|'));
    }
  });

  test('the counts say one old line too many: recovered', () => {
    const r = outcome('def run():\n    setup()\n    go()\n', [' def run():', '     setup()', '     validate()', '     go()'], counts(1, 3, 4));
    assert.equal(r.ok, true, r.error);
    assert.equal(r.files[0]!.newText, 'def run():\n    setup()\n    validate()\n    go()\n');
  });

  test('an unprefixed line the counts tally as context is refused; without counts it is an added line', () => {
    const src = 'a = 1\nc = 3\n';
    assert.equal(outcome(src, [' a = 1', '?b = 2', ' c = 3'], counts(1, 3, 3)).ok, false);
    const r = outcome(src, [' a = 1', '?b = 2', ' c = 3']);
    assert.equal(r.ok, true, r.error);
    assert.equal(r.files[0]!.newText, 'a = 1\nb = 2\nc = 3\n');
  });
});

describe('trimmed stale context never sits next to an insertion', () => {
  const src = 'const a = 1;\nconst b = 2;\nconst c = 3;\nconst d = 4;\nconst e = 5;\n';

  test('a look-alike first line directly above the added lines: refused', () => {
    assert.equal(outcome(src, [' const a = 100;', '+const z = 0;', ' const b = 2;', ' const c = 3;']).ok, false);
  });

  test('a look-alike last line directly below the added lines: refused', () => {
    assert.equal(outcome(src, [' const b = 2;', ' const c = 3;', '+const z = 0;', ' const d = 40;']).ok, false);
  });

  test('only removed lines between the look-alike and the added line: refused', () => {
    assert.equal(outcome(src, [' const a = 100;', '-const b = 2;', '+const b = 20;', ' const c = 3;', ' const d = 4;']).ok, false);
  });

  test('a matching context line between them: trimmed and applied', () => {
    const r = outcome(src, [' const a = 100;', ' const b = 2;', '+const z = 0;', ' const c = 3;', ' const d = 44;']);
    assert.equal(r.ok, true, r.error);
    assert.equal(r.files[0]!.newText, src.replace('const b = 2;\n', 'const b = 2;\nconst z = 0;\n'));
  });

  test('the same through a real diff text', () => {
    const diff = ['--- a/f.js', '+++ b/f.js', '@@ -2,3 +2,4 @@', ' const b = 2;', ' const c = 3;', '+const cc = 3.5;', ' const d = 44;', ''].join('\n');
    assert.equal(applyPatchToTexts(diff, new Map([['f.js', src]])).ok, false);
  });
});
