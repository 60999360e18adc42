// Very common words: which rows a search scores (searchPlan.ts), on the plan alone and on a real file.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HistoryEngine } from '../../../src/core/history/engine';
import { COMMON_TERM_MIN_ROWS, RECENT_CANDIDATES, documentFrequency, planSearch } from '../../../src/core/history/searchPlan';
import { DAY } from './helpers';
import { tempHistoryWorkspace, type HistoryWorkspace } from '../../support/historyWorkspace';

describe('search plan', () => {
  const dfOf = (table: Record<string, number>) => (t: string) => table[t] ?? 0;

  test('no common word: every matching row is scored', () => {
    assert.deepEqual(planSearch(['parser', 'timezone'], dfOf({ parser: 900, timezone: 40 }), 100_000), { kind: 'all' });
  });

  test('a common word next to others: only rows with the others are scored', () => {
    const plan = planSearch(['the', 'parser', 'timezone'], dfOf({ the: 80_000, parser: 900, timezone: 40 }), 100_000);
    assert.deepEqual(plan, { kind: 'selective', selective: ['parser', 'timezone'] });
  });

  test('only common words (or common words and words in no row): the newest matching rows are scored', () => {
    const recent = { kind: 'recent', newest: RECENT_CANDIDATES };
    assert.deepEqual(planSearch(['the', 'a'], dfOf({ the: 80_000, a: 60_000 }), 100_000), recent);
    assert.deepEqual(planSearch(['the', 'qwertyuiop'], dfOf({ the: 80_000 }), 100_000), recent);
  });

  test('common means more than 10% of the rows and more than the minimum, so small histories stay exact', () => {
    assert.deepEqual(planSearch(['the', 'x'], dfOf({ the: 10_000, x: 5 }), 100_000).kind, 'all', 'exactly 10% is not common');
    assert.deepEqual(planSearch(['the', 'x'], dfOf({ the: 10_001, x: 5 }), 100_000).kind, 'selective');
    assert.deepEqual(planSearch(['the', 'x'], dfOf({ the: COMMON_TERM_MIN_ROWS, x: 5 }), 5_000).kind, 'all', '20% of 5,000 but not above the minimum');
    let lookups = 0;
    planSearch(['the', 'x'], (t) => (lookups++, t === 'the' ? 900 : 1), 900);
    assert.equal(lookups, 0, 'no look-ups when no word can be common');
  });
});

describe('searching with very common words (real file)', () => {
  const NOW = Date.UTC(2025, 5, 1);
  const OLD = 600;
  const NEW = RECENT_CANDIDATES;
  let ws: HistoryWorkspace;
  let engine: HistoryEngine;
  const oldIds = new Set<string>();
  let withCommon = '';
  let withoutCommon = '';

  const observe = (insight: string, result: string, time: number): string => {
    const r = engine.recordObservation({ tool: 'grep', insight, result, isError: false, time });
    assert.ok(r.stored);
    return r.id;
  };

  before(async () => {
    ws = tempHistoryWorkspace();
    engine = await HistoryEngine.open({ path: ws.db, now: () => NOW });
    // Added first: short rows dense in "filler", which exact BM25 ranks above every newer row.
    for (let i = 0; i < OLD; i++) oldIds.add(observe('filler', 'filler filler filler filler', NOW - 10 * DAY));
    for (let i = 0; i < NEW; i++) observe(`note ${i}`, `filler appears once among many other words here ${i}`, NOW);
    withCommon = observe('zeppelin', 'zeppelin filler notes long enough', NOW);
    withoutCommon = observe('zeppelin', 'zeppelin other notes long enough', NOW);
  });
  after(() => {
    engine.close();
    ws.cleanup();
  });

  test('a rare word with a common one: rows with the rare word only, the common word still lifting its rows', () => {
    const hits = engine.search('filler zeppelin', { limit: 50 });
    assert.deepEqual(
      hits.map((h) => h.id),
      [withCommon, withoutCommon],
    );
    assert.ok(hits[0]!.score > hits[1]!.score);
    assert.deepEqual(engine.search('filler zeppelin', { type: 'qa' }), [], 'filters still apply');
  });

  test('document frequencies come from the index, in its folded form (case, Latin diacritics)', () => {
    assert.equal(documentFrequency(engine.db.conn, 'zeppelin'), 2);
    assert.equal(documentFrequency(engine.db.conn, 'filler'), OLD + NEW + 1);
    observe('Café naïve', 'a row whose words carry diacritics', NOW);
    engine.db.commitBatch(); // as every read does first: the term index shows committed rows only
    assert.equal(documentFrequency(engine.db.conn, 'café'), 1);
    assert.equal(documentFrequency(engine.db.conn, 'naïve'), 1);
  });

  test('only common words: the best of the newest matching rows, in score order', () => {
    const exactBest = engine.db.conn.get<{ id: string }>(
      `SELECT o.id AS id FROM observations_fts JOIN observations o ON o.n = observations_fts.docid
       WHERE observations_fts MATCH '"filler"' ORDER BY bm25(matchinfo(observations_fts, 'pcnalx')) DESC LIMIT 1`,
    )!;
    assert.ok(oldIds.has(exactBest.id), 'over the whole table an old row would win');
    for (const query of ['filler', 'filler qwertyuiop']) {
      const hits = engine.search(query, { limit: 20 });
      assert.equal(hits.length, 20, query);
      assert.ok(
        hits.every((h) => !oldIds.has(h.id)),
        `${query}: only the newest ${NEW} matching rows are ranked`,
      );
      for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1]!.score >= hits[i]!.score, 'sorted by score');
    }
  });
});
