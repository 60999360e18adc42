// A command's whole output, with bounded memory (issue 30, item 3): past the memory cap it spills to
// a private temporary file, read back once and deleted; past the spill limit its end is kept and the
// text says how much was left out. A real process printing 300k TAP lines with one `not ok` in the
// middle: the summary finds the failure, which a head-and-tail capture used to cut out.
import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { NodeTaskRunner } from '../../../src/cli/node/nodeTaskRunner';
import { CappedOutput } from '../../../src/core/sandbox';
import { summarizeTestOutput } from '../../../src/core/testRuns';
import { tempWorkspace } from '../tools/helpers';

test('within the memory cap: in memory, nothing on disk', () => {
  const out = new CappedOutput(100);
  out.push(Buffer.from('hello '));
  out.push(Buffer.from('world\n'));
  assert.equal(out.spillFile, undefined);
  assert.equal(out.text(), 'hello world\n');
  assert.equal(out.droppedBytes, 0);
});

test('past the memory cap: the whole output from a private temporary file, deleted once read', () => {
  const out = new CappedOutput(1_000);
  const lines = Array.from({ length: 2_000 }, (_, i) => `line ${i}\n`);
  for (const l of lines) out.push(Buffer.from(l));
  const file = out.spillFile!;
  assert.ok(file && existsSync(file), 'spilled');
  assert.equal(statSync(file).mode & 0o077, 0, 'readable by this user only');
  assert.equal(out.text(), lines.join(''));
  assert.equal(out.droppedBytes, 0);
  assert.equal(existsSync(file), false, 'the file is gone');
  assert.equal(existsSync(path.dirname(file)), false, 'its folder too');
  assert.equal(out.text(), lines.join(''), 'read again: the same text');
  assert.throws(() => out.push(Buffer.from('late')), /after it was read/);
});

test('past the spill limit: its first bytes, a note saying what was left out, and its end', () => {
  const out = new CappedOutput(100, 1_000);
  out.push(Buffer.from('START\n'));
  for (let i = 0; i < 100; i++) out.push(Buffer.from(`${'x'.repeat(99)}\n`));
  out.push(Buffer.from('END\n'));
  const text = out.text();
  assert.equal(out.totalBytes, 6 + 10_000 + 4);
  assert.equal(out.droppedBytes, out.totalBytes - 1_000 - 50);
  assert.ok(text.startsWith('START\n'));
  assert.ok(text.endsWith('END\n'));
  assert.match(
    text,
    new RegExp(
      `\\n\\[\\.\\.\\. ${out.droppedBytes} bytes dropped \\.\\.\\.\\]\\n\\[the output passed 0 MiB: its first 0 MiB and its last 50 bytes are kept\\]\\n`,
    ),
  );
});

test('a cancelled start leaves no file behind', () => {
  const out = new CappedOutput(10);
  out.push(Buffer.alloc(100, 'a'));
  const file = out.spillFile!;
  out.discard();
  assert.equal(existsSync(file), false);
});

test('a real process printing 300k TAP lines with one failure in the middle: the summary finds it', async () => {
  const ws = tempWorkspace({
    'tap.js': [
      'const out = [];',
      "out.push('TAP version 13');",
      'for (let i = 1; i <= 300000; i++) {',
      '  out.push(i === 150000 ? `not ok ${i} - adds negative numbers` : `ok ${i} - case ${i}`);',
      '  if (out.length >= 10000) { process.stdout.write(out.join("\\n") + "\\n"); out.length = 0; }',
      '}',
      "out.push('1..300000');",
      "process.stdout.write(out.join('\\n') + '\\n');",
      'process.exitCode = 1;',
    ].join('\n'),
  });
  try {
    const r = await new NodeTaskRunner().run({ command: `${JSON.stringify(process.execPath)} tap.js`, cwd: ws.root, maxOutputBytes: 200_000 });
    assert.equal(r.exitCode, 1);
    assert.equal(r.truncated, false);
    assert.ok(r.output.length > 4_000_000, `whole: ${r.output.length} chars`);
    assert.match(r.output, /^not ok 150000 - adds negative numbers$/m);
    const summary = summarizeTestOutput(r.output);
    assert.equal(summary.failed, 1);
    assert.equal(summary.passed, 299_999);
    assert.deepEqual(
      summary.failures.map((f) => f.name),
      ['adds negative numbers'],
    );
  } finally {
    ws.cleanup();
  }
});
