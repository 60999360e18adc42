import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyPatch } from 'diff';
import { applyParsedPatch } from '../../../../src/core/patch/plan';
import { splitText } from '../../../../src/core/patch/text';
import type { Hunk, HunkLine } from '../../../../src/core/patch/types';
import { filesOf, modify, patch } from './helpers';
import { seededRandom } from '../../../support/seededRandom';

describe('reverse patch property: apply, then the reverse patch restores the exact original', () => {
  test('random files (CRLF, mixed, BOM, no final newline) and random edits', () => {
    const rand = seededRandom(99);
    let checked = 0;
    for (let c = 0; c < 800; c++) {
      const n = 1 + Math.floor(rand() * 25);
      const eolMode = Math.floor(rand() * 3);
      let text = rand() < 0.2 ? '\uFEFF' : '';
      for (let i = 0; i < n; i++) {
        const eol = eolMode === 0 ? '\n' : eolMode === 1 ? '\r\n' : rand() < 0.5 ? '\n' : '\r\n';
        text += `line ${i} ${Math.floor(rand() * 1000)}` + (i < n - 1 || rand() < 0.6 ? eol : '');
      }
      const lines = splitText(text).lines.map((l) => l.text);
      // Non-overlapping edits, each with up to 2 context lines on each side.
      const hunks: Hunk[] = [];
      let pos = 0;
      while (pos < lines.length && hunks.length < 4) {
        const start = pos + Math.floor(rand() * 4);
        if (start >= lines.length) break;
        const del = Math.min(Math.floor(rand() * 3), lines.length - start);
        const pre = Math.min(2, start - pos);
        const post = Math.min(2, lines.length - start - del);
        const body: HunkLine[] = [];
        for (let q = start - pre; q < start; q++) body.push({ kind: 'context', text: lines[q]! });
        for (let q = start; q < start + del; q++) body.push({ kind: 'remove', text: lines[q]! });
        for (let k = Math.floor(rand() * 3); k > 0; k--) body.push({ kind: 'add', text: `new ${c}.${k}` });
        for (let q = start + del; q < start + del + post; q++) body.push({ kind: 'context', text: lines[q]! });
        const end = start + del + post;
        const h: Hunk = { index: hunks.length, anchors: [], lines: body, patchLine: 1, oldStart: start - pre + 1 };
        if (end === lines.length && rand() < 0.3) h[rand() < 0.5 ? 'newNoNewlineAtEnd' : 'oldNoNewlineAtEnd'] = true;
        if (body.some((l) => l.kind !== 'context')) hunks.push(h);
        pos = end + 1;
      }
      if (hunks.length === 0) continue;
      const r = applyParsedPatch(patch(modify('f.txt', hunks)), filesOf({ 'f.txt': text }));
      if (!r.ok) continue; // ambiguous random content is allowed to refuse
      const after = r.files[0]!.newText!;
      if (after === text) continue;
      const back = applyPatch(after, r.reversePatch);
      assert.equal(back, text, `case ${c}\n${JSON.stringify(text)}\n${JSON.stringify(after)}\n${r.reversePatch}`);
      checked++;
    }
    assert.ok(checked > 300, `only ${checked} cases checked`);
  });
});
