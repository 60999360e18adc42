// removeConfined: a restore's removals through real folders only (src/core/fs/confinedWrite.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LinkedFolderError, removeConfined, removeTreeConfined } from '../../../src/core/fs/confinedWrite';

function arena() {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pp-remove-')));
  const root = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  mkdirSync(path.join(root, 'a/b/c'), { recursive: true });
  mkdirSync(outside);
  return { root, outside, done: () => rmSync(base, { recursive: true, force: true }) };
}

test('removes a file, a link (not what it points at) and an empty folder, each only when of the kind asked', () => {
  const a = arena();
  try {
    const file = path.join(a.root, 'a/b/c/f.txt');
    writeFileSync(file, 'x');
    writeFileSync(path.join(a.outside, 'target.txt'), 'kept');
    const link = path.join(a.root, 'a/b/ln');
    symlinkSync(path.join(a.outside, 'target.txt'), link);
    assert.equal(removeConfined(a.root, file, 'folder'), false, 'a file is not a folder');
    assert.equal(removeConfined(a.root, file), true);
    assert.equal(existsSync(file), false);
    assert.equal(removeConfined(a.root, link, 'non-folder'), true);
    assert.throws(() => lstatSync(link));
    assert.ok(existsSync(path.join(a.outside, 'target.txt')), 'the link itself was removed, not its target');
    assert.equal(removeConfined(a.root, path.join(a.root, 'a/b/c'), 'non-folder'), false);
    assert.equal(removeConfined(a.root, path.join(a.root, 'a/b/c')), true);
    assert.throws(() => removeConfined(a.root, path.join(a.root, 'a')), /ENOTEMPTY/, 'a folder only when empty');
  } finally {
    a.done();
  }
});

test('a missing target or folder on the way removes nothing and creates nothing; the root and paths outside are refused', () => {
  const a = arena();
  try {
    assert.equal(removeConfined(a.root, path.join(a.root, 'x/y/z.txt')), false);
    assert.equal(existsSync(path.join(a.root, 'x')), false, 'no folder was created');
    assert.equal(removeConfined(a.root, path.join(a.root, 'a/none.txt')), false);
    assert.throws(() => removeConfined(a.root, a.root), /root itself/);
    assert.throws(() => removeConfined(a.root, path.join(a.outside, 'f')), /outside/);
  } finally {
    a.done();
  }
});

test('a symlinked folder at each depth is refused, and the file it leads to stays', () => {
  for (const folder of ['a', 'a/b', 'a/b/c']) {
    const a = arena();
    try {
      const rest = path.relative(folder, 'a/b/c');
      mkdirSync(path.join(a.outside, rest), { recursive: true });
      writeFileSync(path.join(a.outside, rest, 'f.txt'), 'kept');
      rmSync(path.join(a.root, folder), { recursive: true });
      symlinkSync(a.outside, path.join(a.root, folder));
      assert.throws(() => removeConfined(a.root, path.join(a.root, 'a/b/c/f.txt')), LinkedFolderError, folder);
      assert.ok(existsSync(path.join(a.outside, rest, 'f.txt')), `${folder}: the file outside was removed`);
    } finally {
      a.done();
    }
  }
});

test('removeTreeConfined removes a whole folder; a link inside it goes as a link, and a link at each depth on the way is refused', () => {
  const a = arena();
  try {
    writeFileSync(path.join(a.root, 'a/b/c/f.txt'), 'x');
    writeFileSync(path.join(a.root, 'a/b/g.txt'), 'y');
    writeFileSync(path.join(a.outside, 'kept.txt'), 'kept');
    symlinkSync(a.outside, path.join(a.root, 'a/b/out'));
    assert.equal(removeTreeConfined(a.root, path.join(a.root, 'a/b')), true);
    assert.equal(existsSync(path.join(a.root, 'a/b')), false);
    assert.ok(existsSync(path.join(a.outside, 'kept.txt')), 'the folder a link inside pointed at was not entered');
    assert.equal(removeTreeConfined(a.root, path.join(a.root, 'a/none')), false);
  } finally {
    a.done();
  }
  for (const folder of ['a', 'a/b']) {
    const b = arena();
    try {
      const rest = path.relative(folder, 'a/b/c');
      mkdirSync(path.join(b.outside, rest), { recursive: true });
      writeFileSync(path.join(b.outside, rest, 'f.txt'), 'kept');
      rmSync(path.join(b.root, folder), { recursive: true });
      symlinkSync(b.outside, path.join(b.root, folder));
      assert.throws(() => removeTreeConfined(b.root, path.join(b.root, 'a/b/c')), LinkedFolderError);
      assert.ok(existsSync(path.join(b.outside, rest, 'f.txt')), `a link at ${folder}: nothing outside removed`);
    } finally {
      b.done();
    }
  }
});
