import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { abortableSleep, backoffDelay, defaultRetryPolicy, parseRetryAfter } from '../../../src/core/llm/retryPolicy';

const headers = (h: Record<string, string>) => new Headers(h);
const NOW = Date.parse('2026-01-01T00:00:00Z');

describe('parseRetryAfter', () => {
  const cases: [string, Record<string, string>, number | undefined][] = [
    ['delta seconds', { 'retry-after': '3' }, 3000],
    ['fractional seconds round up to whole ms', { 'retry-after': '1.5' }, 1500],
    ['zero', { 'retry-after': '0' }, 0],
    ['HTTP date in the future', { 'retry-after': 'Thu, 01 Jan 2026 00:00:10 GMT' }, 10_000],
    ['HTTP date in the past clamps to 0', { 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }, 0],
    ['retry-after-ms wins over retry-after', { 'retry-after-ms': '250', 'retry-after': '9' }, 250],
    ['garbage retry-after-ms falls back to retry-after', { 'retry-after-ms': 'soon', 'retry-after': '2' }, 2000],
    ['negative seconds are not a wait', { 'retry-after': '-5' }, undefined],
    ['free text is not a date', { 'retry-after': 'in a while' }, undefined],
    ['absent', {}, undefined],
  ];
  for (const [name, h, expected] of cases) {
    test(name, () => assert.equal(parseRetryAfter(headers(h), NOW), expected));
  }
  test('no headers object at all', () => assert.equal(parseRetryAfter(undefined), undefined));
});

describe('backoffDelay (equal jitter)', () => {
  const policy = { baseDelayMs: 1000, maxDelayMs: 20_000 };

  test('stays within [step/2, step], step = base * 2^(n-1), capped', () => {
    for (let retry = 1; retry <= 10; retry++) {
      const step = Math.min(20_000, 1000 * 2 ** (retry - 1));
      assert.equal(
        backoffDelay(retry, policy, undefined, () => 0),
        step / 2,
      );
      assert.equal(
        backoffDelay(retry, policy, undefined, () => 0.999999),
        Math.floor(step / 2 + 0.999999 * (step / 2)),
      );
    }
    assert.equal(
      backoffDelay(30, policy, undefined, () => 0.5),
      15_000,
    );
  });

  test('three retries of a 5xx with the default policy wait at least 3.5 s together, never "0 s"', () => {
    const waits = [1, 2, 3].map((n) => backoffDelay(n, defaultRetryPolicy, undefined, () => 0));
    assert.deepEqual(waits, [500, 1000, 2000]);
    assert.ok(waits.reduce((a, b) => a + b) >= 3500);
  });

  test('spreads over the range (random source drives it)', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 50; i++) seen.add(backoffDelay(3, policy));
    assert.ok(seen.size > 10);
    for (const d of seen) assert.ok(d >= 2000 && d <= 4000);
  });

  test("the server's Retry-After is a floor, with at most 10% (and 1 s) jitter on top", () => {
    assert.equal(
      backoffDelay(1, policy, 1000, () => 0),
      1000,
    );
    assert.equal(
      backoffDelay(1, policy, 1000, () => 0.999),
      1099,
    );
    assert.equal(
      backoffDelay(1, policy, 60_000, () => 0.999),
      60_999,
    );
    assert.equal(
      backoffDelay(1, policy, 0, () => 0.9),
      0,
    );
  });

  test('defaults: 4 attempts within 60 s', () => {
    assert.equal(defaultRetryPolicy.maxAttempts, 4);
    assert.equal(defaultRetryPolicy.maxRetryTimeMs, 60_000);
  });
});

describe('abortableSleep', () => {
  test('resolves after the delay', async () => {
    await abortableSleep(5, undefined, () => new Error('x'));
  });

  test('rejects at once when aborted during the sleep', async () => {
    const ac = new AbortController();
    const pending = abortableSleep(60_000, ac.signal, () => new Error('cancelled'));
    setImmediate(() => ac.abort());
    await assert.rejects(pending, /cancelled/);
  });

  test('rejects without sleeping when already aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(
      abortableSleep(60_000, ac.signal, () => new Error('cancelled')),
      /cancelled/,
    );
  });
});
