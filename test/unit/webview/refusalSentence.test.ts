// A refused patch in one sentence, made from the patch engine's real report (the engine run here on a
// real file), and a fallback for reports of other shapes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refusalSentence } from '../../../webview-ui/chat/refusalSentence';

const REPORT = `The patch was not applied (it applies all or nothing). 1 problem(s):

greet.js hunk #1 (@@ -1,1 +1,1 @@, patch line 3): not found in the file.
  searched for the old side (context and removed lines):
    | module.exports = () => 'goodbye';
  nearest candidate at line 12 (0 of 1 lines equal, ignoring whitespace); it differs:
    line 12: patch "text = text.trim();"
            file  "text = text.trimEnd();"`;

test('the candidate pair becomes: the patch expects X at line N of FILE; the file has Y', () => {
  assert.equal(refusalSentence(REPORT), 'The patch expects `text = text.trim();` at line 12 of greet.js; the file has `text = text.trimEnd();`.');
});

test('without a candidate: the hunk and its reason; without either: the first line that says something', () => {
  assert.equal(refusalSentence('a/b.js hunk #2 (@@ -3,2 +3,2 @@, patch line 9): the file does not exist.'), 'Hunk 2 of a/b.js: the file does not exist.');
  assert.equal(refusalSentence('The patch was not applied (it applies all or nothing).\nno file header found'), 'no file header found');
  assert.equal(refusalSentence(''), 'The patch does not fit the file.');
});
