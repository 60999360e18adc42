// The budget arithmetic (llm/budget.ts) and the meter it guards (llm/usageMeter.ts): what counts,
// when a request is refused before it goes out, when a reply that crossed stops the run, how a
// subagent's meter feeds its parent's, and the sources requests are shown under.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BudgetExceededError, RunBudget, crossed, describeSpent, wouldCross, type BudgetStop } from '../../../src/core/llm/budget';
import { UsageMeter, totalsBySource, type UsageTotals } from '../../../src/core/llm/usageMeter';

const PRICE = { input: 1, output: 2 }; // USD per million tokens
function spent(tokensIn: number, tokensOut: number, cost?: number, requests = 1): UsageTotals {
  return {
    requests,
    promptTokens: tokensIn,
    completionTokens: tokensOut,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    cost,
    unpricedRequests: 0,
    estimatedRequests: 0,
  };
}
const next = (promptTokens: number, price: typeof PRICE | null = PRICE) => ({ role: 'reasoning' as const, promptTokens, price: price ?? undefined });
const usage = (promptTokens: number, completionTokens: number) => ({ promptTokens, completionTokens, estimated: false });

describe('budget arithmetic', () => {
  test('tokens: prompt and completion both count; a request whose prompt would cross is refused, one that lands exactly on the limit is not', () => {
    const l = { maxTokens: 10_000 };
    assert.equal(wouldCross(l, spent(6_000, 1_000), next(3_000)), undefined, '7,000 + 3,000 = 10,000: not over');
    const stop = wouldCross(l, spent(6_000, 1_000), next(3_001))!;
    assert.equal(stop.limit, 'maxTokens');
    assert.equal(stop.when, 'before');
    assert.equal(
      stop.message,
      'the next request (about 3,001 prompt tokens, $0.0030) was not sent: it would cross the token budget of 10,000 (patchpilot.limits.maxTokens); spent 7,000 tokens in 1 request',
    );
  });

  test('cost: the next prompt is priced at the input rate; an unpriced model adds nothing to the cost', () => {
    const l = { maxCostUsd: 0.01 };
    assert.equal(wouldCross(l, spent(0, 0, 0.009), next(1_000))?.limit, undefined, '$0.009 + $0.001 = $0.01');
    assert.equal(wouldCross(l, spent(0, 0, 0.009), next(1_001))?.limit, 'maxCostUsd');
    assert.equal(wouldCross(l, spent(0, 0, 0.009), next(1_000_000, null)), undefined);
  });

  test("the day: earlier runs' spend plus this run's; the message names both", () => {
    const l = { dailyCostUsd: 1, spentTodayUsd: 0.99 };
    const stop = wouldCross(l, spent(0, 0, 0.005), next(10_000))!;
    assert.equal(stop.limit, 'dailyCostUsd');
    assert.match(
      stop.message,
      /the daily budget of \$1\.00 for this workspace \(patchpilot\.limits\.dailyCostUsd\); spent 0 tokens and \$0\.0050 in 1 request \(earlier runs today: \$0\.9900\)$/,
    );
    assert.equal(wouldCross({ dailyCostUsd: 1, spentTodayUsd: 1.5 }, spent(0, 0), next(1, null))?.limit, 'dailyCostUsd', 'already over: nothing more goes out');
  });

  test('after a reply: only a total over the limit stops (its size was not known before)', () => {
    assert.equal(crossed({ maxTokens: 100 }, spent(60, 40)), undefined);
    assert.deepEqual([crossed({ maxTokens: 100 }, spent(60, 41))?.limit, crossed({ maxTokens: 100 }, spent(60, 41))?.when], ['maxTokens', 'after']);
    assert.equal(crossed({ maxCostUsd: 0.5 }, spent(0, 0, 0.51))?.limit, 'maxCostUsd');
    assert.equal(crossed({ dailyCostUsd: 0.5, spentTodayUsd: 0.3 }, spent(0, 0, 0.21))?.limit, 'dailyCostUsd');
    assert.equal(crossed({}, spent(1e9, 1e9, 1e6)), undefined, 'no limits, no stop');
  });

  test('describeSpent says tokens, the cost only when something was priced, and the requests', () => {
    assert.equal(describeSpent(spent(1_234, 66, undefined, 2)), 'spent 1,300 tokens in 2 requests');
    assert.equal(describeSpent(spent(1_000, 0, 1.5, 1)), 'spent 1,000 tokens and $1.50 in 1 request');
  });
});

describe('the guarded meter', () => {
  test('the first stop is reported once; after it every request is refused', () => {
    const stops: BudgetStop[] = [];
    const budget = new RunBudget({ maxTokens: 1_000 }, (s) => stops.push(s));
    const meter = new UsageMeter({ guard: budget });
    meter.admit(next(500));
    meter.record({ role: 'reasoning', model: 'm', usage: usage(500, 600), cost: undefined });
    assert.equal(stops.length, 1, 'the reply crossed: stopped right after');
    assert.equal(stops[0]!.when, 'after');
    assert.throws(() => meter.admit(next(1)), BudgetExceededError);
    meter.record({ role: 'fast', model: 'm', usage: usage(1, 1), cost: undefined });
    assert.equal(stops.length, 1);
  });

  test('a subagent meter forwards each request to its parent at once, tagged with the subagent; the parent budget decides for both', () => {
    const stops: BudgetStop[] = [];
    const parent = new UsageMeter({ guard: new RunBudget({ maxTokens: 3_000 }, (s) => stops.push(s)) });
    const child = new UsageMeter({ forwardTo: parent.withSource('subagent 2') });
    parent.record({ role: 'reasoning', model: 'm', usage: usage(1_000, 0), cost: undefined });
    child.record({ role: 'reasoning', model: 'm', usage: usage(1_000, 0), cost: undefined });
    child.withSource('compaction').record({ role: 'fast', model: 'm', usage: usage(500, 0), cost: undefined });
    assert.equal(child.total().promptTokens, 1_500);
    assert.equal(parent.total().promptTokens, 2_500);
    assert.deepEqual(
      child.requests.map((r) => r.source),
      ['main', 'compaction'],
    );
    assert.deepEqual(
      [...totalsBySource(parent.requests)].map(([s, t]) => [s, t.requests]),
      [
        ['main', 1],
        ['subagent 2', 2],
      ],
    );
    assert.throws(() => child.admit(next(501)), BudgetExceededError, "the child's request is refused by the parent's budget");
    assert.equal(stops[0]?.limit, 'maxTokens');
  });

  test('onRecord hears every request with its source and time', () => {
    const heard: string[] = [];
    const meter = new UsageMeter({ onRecord: (r) => heard.push(`${r.source}:${typeof r.time}`) });
    meter.record({ role: 'fast', model: 'm', usage: usage(1, 1), cost: 0 });
    meter.withSource('compaction').record({ role: 'reasoning', model: 'm', usage: usage(1, 1), cost: 0 });
    assert.deepEqual(heard, ['fast:number', 'compaction:number']);
  });
});
