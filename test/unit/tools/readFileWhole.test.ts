// read_file never lies about what it returned: generated files of random line lengths, read with a
// small result cap; every label names exactly the lines in the reply, and following each
// "start_line=N" from the first read rebuilds the file byte for byte.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { readFileTool } from '../../../src/core/tools/readFile';
import { tempWorkspace } from './helpers';
import { fakeToolContext } from '../../support/fakes';

const tools = new ToolRegistry([readFileTool]);

/** A small deterministic generator, so a failing seed can be replayed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function generatedFile(seed: number): string {
  const rand = rng(seed);
  const lines = Array.from({ length: 50 + Math.floor(rand() * 900) }, (_, i) => {
    const kind = rand();
    const len = kind < 0.15 ? 0 : kind < 0.9 ? Math.floor(rand() * 120) : 200 + Math.floor(rand() * 1200);
    return `${i}:` + 'abcdefghij xyz'.repeat(Math.ceil(len / 14)).slice(0, len);
  });
  return lines.join('\n') + (rand() < 0.7 ? '\n' : '');
}

/** The reply's label, its numbered rows and the start_line it says to continue from. */
function parseRead(output: string): { from: number; to: number; total: number; lines: string[]; next?: number; finalNewline: boolean } {
  const [header, ...rest] = output.split('\n');
  const whole = /^\S+ \((\d+) lines(.*)\)$/.exec(header!);
  const part = /^\S+ \(lines (\d+)-(\d+) of (\d+)(.*)\)$/.exec(header!);
  assert.ok(whole || part, `label: ${header}`);
  const from = part ? Number(part[1]) : 1;
  const to = part ? Number(part[2]) : Number(whole![1]);
  const total = part ? Number(part[3]) : Number(whole![1]);
  const finalNewline = !(part?.[4] ?? whole![2] ?? '').includes('no newline at the end');
  const note = rest.length && rest[rest.length - 1]!.startsWith('[read_file stopped') ? rest.pop() : undefined;
  const next = note ? Number(/start_line=(\d+)/.exec(note)![1]) : undefined;
  const lines = rest.map((row, i) => {
    const m = /^ *(\d+)\t(.*)$/s.exec(row);
    assert.ok(m, `row ${i}: ${row.slice(0, 40)}`);
    assert.equal(Number(m[1]), from + i, 'rows are numbered from the label on');
    return m[2]!;
  });
  assert.equal(lines.length, to - from + 1, `label ${header} names exactly the ${lines.length} rows returned`);
  return { from, to, total, lines, next, finalNewline };
}

describe('read_file returns whole lines and says exactly which', () => {
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    test(`seed ${seed}: continuing from each start_line rebuilds the file byte for byte`, async () => {
      const text = generatedFile(seed);
      const ws = tempWorkspace({ 'gen.txt': text });
      try {
        const cap = 3_000 + seed * 700;
        const ctx = fakeToolContext(ws.root, { state: { changedFiles: new Set(), resultChars: () => cap } });
        const got: string[] = [];
        let start: number | undefined = 1;
        let finalNewline = true;
        for (let calls = 0; start !== undefined; calls++) {
          assert.ok(calls < 1000);
          const r = await tools.invoke('read_file', start === 1 ? { path: 'gen.txt' } : { path: 'gen.txt', start_line: start }, ctx);
          assert.equal(r.ok, true, r.output);
          assert.ok(r.output.length <= cap, `a reply (${r.output.length}) stays within the cap ${cap}`);
          const read = parseRead(r.output);
          assert.equal(read.from, start);
          got.push(...read.lines);
          finalNewline = read.finalNewline;
          if (read.next !== undefined) assert.equal(read.next, read.to + 1, 'continue right after the last line shown');
          else assert.equal(read.to, read.total, 'no note only when the file is done');
          start = read.next;
        }
        assert.equal(got.join('\n') + (finalNewline ? '\n' : ''), readFileSync(path.join(ws.root, 'gen.txt'), 'utf8'));
      } finally {
        ws.cleanup();
      }
    });
  }

  test('a range the cap stops early says which lines are left of the range', async () => {
    const ws = tempWorkspace({ 'a.txt': Array.from({ length: 600 }, (_, i) => `line ${i + 1} `.padEnd(60, '.')).join('\n') + '\n' });
    try {
      const ctx = fakeToolContext(ws.root, { state: { changedFiles: new Set(), resultChars: () => 6_000 } });
      const r = await tools.invoke('read_file', { path: 'a.txt', start_line: 100, end_line: 400 }, ctx);
      const read = parseRead(r.output);
      assert.equal(read.from, 100);
      assert.ok(read.to < 400);
      assert.match(r.output, new RegExp(`lines ${read.to + 1}-400 are not shown: call read_file with start_line=${read.to + 1} end_line=400`));
    } finally {
      ws.cleanup();
    }
  });

  test('the 573-line file of issue 30: one whole read, no middle left out', async () => {
    const text = Array.from({ length: 573 }, (_, i) => `    const value${i} = compute(${i}); // ${'x'.repeat(i % 50)}`).join('\n') + '\n';
    const ws = tempWorkspace({ 'big.ts': text });
    try {
      const ctx = fakeToolContext(ws.root, { state: { changedFiles: new Set(), resultChars: () => 16_000 } });
      const r = await tools.invoke('read_file', { path: 'big.ts' }, ctx);
      const read = parseRead(r.output);
      assert.equal(read.from, 1);
      assert.deepEqual(read.lines, text.split('\n').slice(0, read.to));
      assert.equal(read.next, read.to + 1);
      assert.doesNotMatch(r.output, /omitted/);
    } finally {
      ws.cleanup();
    }
  });

  test('CRLF files and a missing final newline are named in the label', async () => {
    const ws = tempWorkspace({ 'w.txt': 'a\r\nb\r\nc' });
    try {
      const r = await tools.invoke('read_file', { path: 'w.txt' }, fakeToolContext(ws.root));
      assert.equal(r.output, 'w.txt (3 lines; CRLF line endings, no newline at the end of the file)\n1\ta\n2\tb\n3\tc');
    } finally {
      ws.cleanup();
    }
  });
});
