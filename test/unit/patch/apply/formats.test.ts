import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyPatchToTexts } from '../../../../src/core/patch';

/** Patch text through the real parser: the three formats models send. */
const files = () => new Map([['src/app.py', 'import os\n\ndef main():\n    print("hi")\n    return 0\n']]);
const want = 'import os\n\ndef main():\n    print("hello")\n    return 0\n';

describe('patch text in every accepted format', () => {
  test('unified diff inside prose and a fence', () => {
    const r = applyPatchToTexts(
      'Sure:\n```diff\n--- a/src/app.py\n+++ b/src/app.py\n@@ -3,3 +3,3 @@ def main():\n def main():\n-    print("hi")\n+    print("hello")\n     return 0\n```\n',
      files(),
    );
    assert.equal(r.ok, true, r.error);
    assert.equal(r.format, 'unified');
    assert.equal(r.files[0]!.newText, want);
  });

  test('apply_patch envelope with an anchor', () => {
    const r = applyPatchToTexts(
      '*** Begin Patch\n*** Update File: src/app.py\n@@ def main():\n-    print("hi")\n+    print("hello")\n*** End Patch\n',
      files(),
    );
    assert.equal(r.ok, true, r.error);
    assert.equal(r.files[0]!.newText, want);
  });

  test('SEARCH/REPLACE block', () => {
    const r = applyPatchToTexts('src/app.py\n```python\n<<<<<<< SEARCH\n    print("hi")\n=======\n    print("hello")\n>>>>>>> REPLACE\n```\n', files());
    assert.equal(r.ok, true, r.error);
    assert.equal(r.files[0]!.newText, want);
  });

  test('unparseable text is refused with the parser reason, never thrown', () => {
    const r = applyPatchToTexts('just words', files());
    assert.equal(r.ok, false);
    assert.match(r.error!, /could not parse the patch/);
  });
});
