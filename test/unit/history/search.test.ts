// Full-text search: BM25 order on a known corpus, the time filter, and hostile query text.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HistoryEngine } from '../../../src/core/history/engine';
import { bm25FromMatchinfo } from '../../../src/core/history/bm25';
import { toMatchExpression } from '../../../src/core/history/search';
import { DAY } from './helpers';
import { tempHistoryWorkspace, type HistoryWorkspace } from '../../support/historyWorkspace';

const NOW = Date.UTC(2025, 5, 1);
let ws: HistoryWorkspace;
let engine: HistoryEngine;

function observe(insight: string, result: string, ageDays = 0): string {
  const r = engine.recordObservation({ tool: 'read_file', insight, result, isError: false, time: NOW - ageDays * DAY });
  assert.ok(r.stored);
  return r.id;
}

before(async () => {
  ws = tempHistoryWorkspace();
  engine = await HistoryEngine.open({ path: ws.db, now: () => NOW });
});
after(() => {
  engine.close();
  ws.cleanup();
});

describe('BM25 ranking', () => {
  test('more occurrences, a rarer term and a shorter field rank higher', () => {
    const filler = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor';
    const many = observe('tokenizer notes', 'tokenizer tokenizer tokenizer splits words at spaces');
    const once = observe('tokenizer notes', 'the tokenizer splits words at spaces and more');
    const long = observe('misc', `tokenizer ${filler} ${filler} ${filler} ${filler}`);
    for (let i = 0; i < 20; i++) observe(`unrelated ${i}`, `common words appear everywhere here ${i}`);
    const both = observe('deadlock in the tokenizer', 'common words and the tokenizer deadlock');

    const hits = engine.search('tokenizer');
    assert.deepEqual(
      hits
        .slice(0, 4)
        .map((h) => h.id)
        .filter((id) => id !== both),
      [many, once, long],
    );
    for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1]!.score >= hits[i]!.score, 'sorted by score');

    // "deadlock" is rare, "common" is everywhere: the row with the rare term wins.
    const rare = engine.search('common deadlock');
    assert.equal(rare[0]!.id, both);
  });

  test('the score formula matches a hand computation', () => {
    // p=1 phrase, c=1 column, n=10 rows, avg length 5, this row's length 10, tf=2, df=3
    const ints = new Uint32Array([1, 1, 10, 5, 10, 2, 6, 3]);
    const k1 = 1.2;
    const b = 0.75;
    const idf = Math.log(1 + (10 - 3 + 0.5) / (3 + 0.5));
    const expected = idf * ((2 * (k1 + 1)) / (2 + k1 * (1 - b + (b * 10) / 5)));
    assert.ok(Math.abs(bm25FromMatchinfo(new Uint8Array(ints.buffer), [1]) - expected) < 1e-12);
  });

  test('Q&A summaries are searched too, and can be filtered by type', () => {
    engine.recordQaSummary(null, 'how do we build the webview bundle?', 'esbuild with a second entry point', NOW);
    const hits = engine.search('webview bundle');
    assert.equal(hits[0]!.type, 'qa');
    assert.equal(engine.search('webview', { type: 'observation' }).length, 0);
  });
});

describe('time filter', () => {
  test('days keeps only recent hits', () => {
    const recent = observe('zebra migration seen', 'zebra herds move north in june every year', 1);
    const old = observe('zebra archive', 'zebra notes from a long time ago, still useful', 40);
    assert.deepEqual(new Set(engine.search('zebra').map((h) => h.id)), new Set([recent, old]));
    assert.deepEqual(
      engine.search('zebra', { days: 7 }).map((h) => h.id),
      [recent],
    );
    assert.deepEqual(
      engine.search('zebra', { days: 0 }).map((h) => h.id),
      [],
    );
  });
});

describe('query sanitising', () => {
  test('operators, quotes, stars and parentheses become plain quoted terms', () => {
    assert.equal(toMatchExpression('foo" OR ('), '"foo" OR "or"');
    assert.equal(toMatchExpression('a* -b NEAR/2 c'), '"a" OR "b" OR "near" OR "2" OR "c"');
    assert.equal(toMatchExpression('"" () * - ^'), undefined);
    assert.equal(toMatchExpression('Café naïve'), '"café" OR "naïve"');
  });

  test('hostile queries never throw and still find the words', () => {
    const id = observe('sanitiser target', 'findme appears in this observation text only');
    const queries = [
      'foo" OR (',
      'findme" OR (',
      '((((findme',
      'findme*',
      '*',
      '"',
      'NEAR(findme',
      'findme AND NOT',
      '-findme',
      'col:findme',
      '\u0000findme\u0000',
      "'; DROP TABLE observations; --",
      '^findme',
      'x'.repeat(5000),
    ];
    for (const q of queries) assert.doesNotThrow(() => engine.search(q), q);
    for (const q of queries.filter((q) => q.includes('findme')))
      assert.ok(
        engine.search(q).some((h) => h.id === id),
        q,
      );
    assert.deepEqual(engine.search('   '), []);
    assert.ok(engine.stats().rows.observations > 0, 'table still there');
  });
});
