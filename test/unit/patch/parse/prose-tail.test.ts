import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { body, hasWarning, parseOk, text } from './helpers';

describe('prose written right after a hunk, without a fence', () => {
  test('unified, counts off by one: text after a blank line is prose, not context', () => {
    const p = parseOk(
      text(
        '--- a/app.js',
        '+++ b/app.js',
        '@@ -10,6 +10,7 @@',
        '   const port = 3000;',
        '',
        '   server.listen(port);',
        '+  log(port);',
        ' }',
        '',
        'This logs the port.',
      ),
    );
    assert.deepEqual(body(p.files[0]!.hunks[0]), ['   const port = 3000;', ' ', '   server.listen(port);', '+  log(port);', ' }']);
    assert.ok(hasWarning(p, 'line 10: text after a blank line at the end of hunk 0 of app.js read as prose'));
  });

  test('unified, bare @@: the same', () => {
    const p = parseOk(text('--- a/f', '+++ b/f', '@@', '-a', '+b', '', 'Done! Let me know', 'if it works.'));
    assert.deepEqual(body(p.files[0]!.hunks[0]), ['-a', '+b']);
  });

  test('an unprefixed line directly after the body (no blank line) stays for the matcher', () => {
    const p = parseOk(text('--- a/f', '+++ b/f', '@@', ' def f():', '-    return 1', '+    return 2', 'def g():'));
    assert.deepEqual(body(p.files[0]!.hunks[0]), [' def f():', '-    return 1', '+    return 2', '~ def g():']);
  });

  test('new file whose lines all had their +: trailing prose is dropped', () => {
    const p = parseOk(text('--- /dev/null', '+++ b/n.py', '@@', '+x = 1', '+y = 2', '', 'This adds n.py.'));
    assert.deepEqual(body(p.files[0]!.hunks[0]), ['+x = 1', '+y = 2']);
  });

  test('new file that already lost some +: unprefixed tail is kept as content', () => {
    const p = parseOk(text('--- /dev/null', '+++ b/n.py', '@@', '+x = 1', 'y = 2', '', 'z = 3'));
    assert.deepEqual(body(p.files[0]!.hunks[0]), ['+x = 1', '~+y = 2', '+', '~+z = 3']);
  });

  test('apply_patch without End Patch followed by prose', () => {
    const p = parseOk(text('*** Begin Patch', '*** Update File: a.txt', '@@', ' k', '-a', '+b', '', 'That swaps a for b.'));
    assert.deepEqual(body(p.files[0]!.hunks[0]), [' k', '-a', '+b']);
    assert.ok(hasWarning(p, 'read as prose'));
  });

  test('apply_patch Add File without End Patch followed by prose', () => {
    const p = parseOk(text('*** Begin Patch', '*** Add File: a.txt', '+one', '+two', '', 'This creates a.txt.'));
    assert.deepEqual(body(p.files[0]!.hunks[0]), ['+one', '+two']);
  });
});
