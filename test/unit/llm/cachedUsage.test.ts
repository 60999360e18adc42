// Cached prompt tokens in each provider's usage shape, and how the run's usage line shows them.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type OpenAI from 'openai';
import { fromWireUsage } from '../../../src/core/llm/wire';
import { progressPrinter, usageLine } from '../../../src/cli/node/eventPrinter';

const wire = (extra: object) => ({ prompt_tokens: 12_345, completion_tokens: 678, total_tokens: 13_023, ...extra }) as OpenAI.CompletionUsage;

describe('cached prompt tokens, as each provider reports them', () => {
  test('OpenAI style: prompt_tokens_details.cached_tokens', () => {
    assert.equal(fromWireUsage(wire({ prompt_tokens_details: { cached_tokens: 9_000 } }))?.cachedTokens, 9_000);
  });
  test('DeepSeek: prompt_cache_hit_tokens (with prompt_cache_miss_tokens beside it)', () => {
    assert.equal(fromWireUsage(wire({ prompt_cache_hit_tokens: 9_000, prompt_cache_miss_tokens: 3_345 }))?.cachedTokens, 9_000);
  });
  test('Moonshot: a top-level cached_tokens', () => {
    assert.equal(fromWireUsage(wire({ cached_tokens: 9_000 }))?.cachedTokens, 9_000);
  });
  test('none reported: no cachedTokens at all (not a made-up 0)', () => {
    assert.equal('cachedTokens' in fromWireUsage(wire({}))!, false);
  });
});

describe('the CLI shows the window in force and the cached tokens', () => {
  test('the run header says the window and where it came from', () => {
    let out = '';
    const printer = progressPrinter({ write: (t: string) => ((out += t), true) } as unknown as NodeJS.WritableStream, { steps: false });
    printer({
      type: 'run/started',
      runId: 'r',
      goal: 'g',
      mode: 'ask',
      model: 'm',
      contextWindow: 32_768,
      contextWindowNote: "context: 32,768 tokens (from the endpoint's /v1/models)",
      git: { isRepo: false, head: null, branch: null, dirty: [] },
    });
    assert.equal(out, "patchpilot: ask mode, model m, context: 32,768 tokens (from the endpoint's /v1/models)\n");
  });

  test('the usage line: cached tokens beside the prompt tokens, only when there are some', () => {
    const reasoning = { model: 'm', requests: 3, promptTokens: 12_345, cachedTokens: 9_000, completionTokens: 678, cost: 0.0123 };
    const fast = { model: 'f', requests: 0, promptTokens: 0, completionTokens: 0 };
    assert.equal(usageLine({ reasoning, fast, totalCost: 0.0123 }), 'tokens: m 12,345 in (9,000 cached) / 678 out (3 requests); cost $0.0123');
    assert.equal(
      usageLine({ reasoning: { ...reasoning, cachedTokens: 0 }, fast }),
      'tokens: m 12,345 in / 678 out (3 requests); cost unknown (no price for the model)',
    );
  });
});
