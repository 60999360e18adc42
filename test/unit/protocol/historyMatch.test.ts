// The history panel's word matching: what is highlighted is what the unicode61 index matched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { matchRanges, queryTerms, snippetAround } from '../../../src/protocol/historyMatch';

const marked = (text: string, q: string, prefix = false) => matchRanges(text, queryTerms(q, prefix)).map(([a, b]) => text.slice(a, b));

test('words are matched whole, folded for case and accents, as unicode61 does', () => {
  assert.deepEqual(marked('The Café parser; CAFE, cafeteria', 'cafe'), ['Café', 'CAFE']);
  assert.deepEqual(marked('snake_case and snake', 'snake'), ['snake', 'snake'], 'underscore separates words');
  assert.deepEqual(marked('x', ''), []);
});

test('the word being typed matches as a prefix; a trailing space ends it', () => {
  assert.deepEqual(queryTerms('date pars', true), [
    { text: 'date', prefix: false },
    { text: 'pars', prefix: true },
  ]);
  assert.deepEqual(
    queryTerms('date pars ', true).map((t) => t.prefix),
    [false, false],
  );
  assert.deepEqual(marked('parser parse spar', 'pars', true), ['parser', 'parse']);
});

test('markup and query syntax in the query are only words', () => {
  assert.deepEqual(
    queryTerms('<img src=x onerror=alert(1)>').map((t) => t.text),
    ['img', 'src', 'x', 'onerror', 'alert', '1'],
  );
  assert.deepEqual(
    queryTerms('"a" OR NEAR(b)').map((t) => t.text),
    ['a', 'or', 'near', 'b'],
  );
});

test('a snippet is cut around the first match, on one line, with its ranges', () => {
  const text = `${'lorem '.repeat(100)}the zanzibar\nline ${'ipsum '.repeat(100)}`;
  const s = snippetAround(text, queryTerms('zanzibar'), 120);
  assert.ok(s.text.startsWith('…') && s.text.endsWith('…'));
  assert.ok(s.text.length <= 122);
  assert.ok(!s.text.includes('\n'));
  assert.deepEqual(
    s.ranges.map(([a, b]) => s.text.slice(a, b)),
    ['zanzibar'],
  );
  assert.equal(snippetAround('short text', queryTerms('none')).text, 'short text');
});
