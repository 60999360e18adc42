import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cutOutput } from '../../../src/core/base/outputCut';

const numbered = (n: number, width = 30) => Array.from({ length: n }, (_, i) => `line ${i + 1} `.padEnd(width, '.')).join('\n') + '\n';

describe('cutOutput: whole lines, and the note names exactly what was left out', () => {
  test('short text passes unchanged', () => {
    assert.deepEqual(cutOutput('a\nb\n', 100, { shape: 'headTail' }), { text: 'a\nb\n', cut: false });
  });

  test('head and tail: the note names the left-out lines, and they are exactly those missing', () => {
    const text = numbered(1000);
    const r = cutOutput(text, 5_000, { shape: 'headTail', keptAt: '.patchpilot/outputs/r/1-run_command.txt' });
    assert.ok(r.cut && r.text.length <= 5_000);
    const m =
      /\[\.\.\. lines (\d+)-(\d+) of 1,000 left out here \(([\d,]+) characters\)\. The whole output is kept in (\S+): call read_file with path "\4" and start_line=\1 end_line=\2 to read them\.\]/.exec(
        r.text,
      );
    assert.ok(m, r.text.slice(0, 300));
    const [from, to] = [Number(m[1]), Number(m[2])];
    const all = text.slice(0, -1).split('\n');
    const shown = r.text.split('\n').filter((l) => !l.startsWith('[...'));
    assert.deepEqual(shown, [...all.slice(0, from - 1), ...all.slice(to)], 'head and tail are whole lines, nothing else missing');
    assert.equal(Number(m[3]!.replace(/,/g, '')), all.slice(from - 1, to).join('\n').length + 1);
  });

  test('head only: first lines, then where to continue', () => {
    const r = cutOutput(numbered(500), 3_000, { shape: 'head', otherwise: 'Ask again.' });
    const m = /\[cut: lines 1-(\d+) of 500 shown \([\d,]+ of [\d,]+ characters\)\. Ask again\.\]$/.exec(r.text);
    assert.ok(m, r.text.slice(-200));
    assert.equal(r.text.split('\n').length - 1, Number(m[1]));
  });

  test('one huge line is cut inside and says so', () => {
    const r = cutOutput('x'.repeat(50_000), 2_000, { shape: 'headTail' });
    assert.match(r.text, /\[\.\.\. characters 641-49,040 of 50,000 left out here \(inside line 1\)\./);
    assert.ok(r.text.length <= 2_000);
    const head = cutOutput('y'.repeat(50_000), 2_000, { shape: 'head' });
    assert.match(head.text, /\[cut: line 1 alone is 50,000 characters; only its first [\d,]+ are shown/);
  });
});
