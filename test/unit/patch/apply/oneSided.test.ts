import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyPatchToTexts } from '../../../../src/core/patch/plan';

/**
 * Hunks whose added lines have context on one side only: git anchors them to that end of the
 * file; anywhere else the place of the added lines is uncertain and the hunk is refused.
 */

const cfg = ['[core]', 'name = demo', 'debug = false', '', '[server]', 'port = 8080', 'host = localhost', ''].join('\n');

function run(text: string, patchBody: string[], path = 'app.ini') {
  const patch = [`--- a/${path}`, `+++ b/${path}`, ...patchBody, ''].join('\n');
  return applyPatchToTexts(patch, new Map([[path, text]]));
}

describe('unified hunks with context on one side only', () => {
  test('context only before the added lines, at the end of the file: applied there', () => {
    const r = run(cfg, ['@@ -6,2 +6,3 @@', ' port = 8080', ' host = localhost', '+tls = on']);
    assert.equal(r.ok, true, r.error);
    assert.equal(r.files[0]!.newText, cfg + 'tls = on\n');
  });

  test('the end-of-file anchor picks the copy at the end when the context occurs twice', () => {
    const text = 'x = 1\ny = 2\nmiddle\nx = 1\ny = 2\n';
    const r = run(text, ['@@', ' x = 1', ' y = 2', '+z = 3']);
    assert.equal(r.ok, true, r.error);
    assert.equal(r.files[0]!.newText, text + 'z = 3\n');
  });

  test('context only before the added lines, in the middle of the file: refused, naming the line that follows', () => {
    for (const header of ['@@ -2,2 +2,3 @@', '@@']) {
      const r = run(cfg, [header, ' name = demo', ' debug = false', '+verbose = true']);
      assert.equal(r.ok, false, header);
      assert.match(r.error!, /context only before them.*end of the file.*matches at line 2.*goes on after line 3 with an empty line/s);
      assert.match(r.error!, /add the unchanged lines that follow the insertion as context/);
    }
  });

  test('context only after the added lines: applied at the start of the file, refused elsewhere', () => {
    const top = run(cfg, ['@@ -1,2 +1,3 @@', '+; generated', ' [core]', ' name = demo']);
    assert.equal(top.ok, true, top.error);
    assert.equal(top.files[0]!.newText, '; generated\n' + cfg);
    const mid = run(cfg, ['@@ -5,2 +5,3 @@', '+; web', ' [server]', ' port = 8080']);
    assert.equal(mid.ok, false);
    assert.match(mid.error!, /context only after them.*start of the file.*matches at line 5, after an empty line/s);
  });

  test('removed lines at the open edge fix the place: applied in the middle', () => {
    const r = run(cfg, ['@@ -2,2 +2,2 @@', ' name = demo', '-debug = false', '+debug = true']);
    assert.equal(r.ok, true, r.error);
    assert.equal(r.files[0]!.newText, cfg.replace('debug = false', 'debug = true'));
  });

  test("an empty file's diff (`@@ -0,0 +1 @@`) on a file that has lines is refused (git: the file was empty)", () => {
    const r = run('bbb\n', ['@@ -0,0 +1 @@', '+aaa'], 'file');
    assert.equal(r.ok, false);
    assert.match(r.error!, /says the file was empty, but it has 1 line/);
  });
});

describe('other formats keep their own semantics', () => {
  test('apply_patch places a chunk with leading context only where the context is (Codex)', () => {
    const patch = ['*** Begin Patch', '*** Update File: app.ini', '@@', ' name = demo', ' debug = false', '+verbose = true', '*** End Patch', ''].join('\n');
    const r = applyPatchToTexts(patch, new Map([['app.ini', cfg]]));
    assert.equal(r.ok, true, r.error);
    assert.equal(r.files[0]!.newText, cfg.replace('debug = false\n', 'debug = false\nverbose = true\n'));
  });

  test('a SEARCH/REPLACE block that only appends after its SEARCH text applies in place', () => {
    const patch = ['app.ini', '<<<<<<< SEARCH', 'debug = false', '=======', 'debug = false', 'verbose = true', '>>>>>>> REPLACE', ''].join('\n');
    const r = applyPatchToTexts(patch, new Map([['app.ini', cfg]]));
    assert.equal(r.ok, true, r.error);
    assert.equal(r.files[0]!.newText, cfg.replace('debug = false\n', 'debug = false\nverbose = true\n'));
  });
});
