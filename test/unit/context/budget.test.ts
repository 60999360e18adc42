import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatTokens, promptBudgetFor } from '../../../src/core/context/budget';
import { PromptCounter, TokenCalibration } from '../../../src/core/context/tokenCounter';
import { resolveSettings } from '../../../src/core/config/resolve';
import { estimatePromptTokens } from '../../../src/core/llm/contextWindows';
import type { ModelMessage } from '../../../src/core/llm/types';

const settings = (context: { maxTokens?: number; maxTokensByModel?: Record<string, number> } = {}) => ({ context: { maxTokensByModel: {}, ...context } });

test('the budget: per model (same name rules as the window table), else maxTokens, else 75% of the window', () => {
  const known = { tokens: 128_000, known: true };
  assert.equal(promptBudgetFor(settings(), 'gpt-4o', known).tokens, 96_000);
  assert.equal(promptBudgetFor(settings({ maxTokens: 8_000 }), 'gpt-4o', known).tokens, 8_000);
  const both = settings({ maxTokens: 8_000, maxTokensByModel: { 'llama3.1': 6_000 } });
  assert.deepEqual(promptBudgetFor(both, 'llama3.1:8b', { tokens: 8_192, known: false }), {
    tokens: 6_000,
    source: 'patchpilot.context.maxTokensByModel (llama3.1:8b)',
  });
  assert.equal(promptBudgetFor(both, 'openrouter/gpt-4o', known).tokens, 8_000);
  // Over a known window the server would refuse the request: capped.
  assert.equal(promptBudgetFor(settings({ maxTokens: 500_000 }), 'gpt-4o', known).tokens, 121_600);
  // An unknown model's window is a guess: the user's number stands.
  assert.equal(promptBudgetFor(settings({ maxTokens: 50_000 }), 'my-local', { tokens: 8_192, known: false }).tokens, 50_000);
});

test('the default budget leaves the reply what the model can write (its output limit), at least 10% and at most 25% of the window', () => {
  assert.equal(promptBudgetFor(settings(), 'gpt-4o', { tokens: 128_000, known: true, maxOutputTokens: 16_384 }).tokens, 128_000 - 16_384);
  assert.equal(promptBudgetFor(settings(), 'tiny-out', { tokens: 128_000, known: true, maxOutputTokens: 1_024 }).tokens, 128_000 - 12_800);
  assert.equal(promptBudgetFor(settings(), 'reasoner', { tokens: 128_000, known: true, maxOutputTokens: 128_000 }).tokens, 96_000);
  assert.match(
    promptBudgetFor(settings(), 'gpt-4o', { tokens: 128_000, known: true, maxOutputTokens: 16_384 }).source,
    /less 16384 tokens for the reply \(its output limit is 16384\)/,
  );
});

test('settings: the context keys validate, with errors that name the key and the value', () => {
  const ok = resolveSettings({
    trusted: true,
    layers: [
      {
        scope: 'user',
        origin: 'user settings',
        values: {
          'patchpilot.context.maxTokens': 8000,
          patchpilot: { context: { maxTokensByModel: { 'gpt-4o': 60000 } }, llm: { contextWindows: { 'my-model': 32768 } } },
        },
      },
    ],
  });
  assert.equal(ok.settings.context.maxTokens, 8000);
  assert.deepEqual(ok.settings.context.maxTokensByModel, { 'gpt-4o': 60000 });
  assert.deepEqual(ok.settings.llm.contextWindows, { 'my-model': 32768 });
  for (const [key, value, pattern] of [
    ['patchpilot.context.maxTokens', -5, /positive integer/],
    ['patchpilot.context.maxTokensByModel', { 'gpt-4o': 'lots' }, /"gpt-4o" has "lots"/],
    ['patchpilot.context.maxTokensByModel', [1, 2], /object of model names/],
    ['patchpilot.llm.contextWindows', { '': 5 }, /object of model names/],
  ] as const) {
    assert.throws(
      () => resolveSettings({ trusted: true, layers: [{ scope: 'workspace', origin: '.vscode/settings.json', values: { [key]: value } }] }),
      (err: Error) => err.message.includes(key) && pattern.test(err.message),
      key,
    );
  }
});

test('formatTokens reads like the event line', () => {
  assert.deepEqual([41_234, 6_150, 8_000, 950].map(formatTokens), ['41k', '6.2k', '8k', '950']);
});

const msgs = (n: number, size = 400): ModelMessage[] => [
  { role: 'system', content: 's'.repeat(size) },
  ...Array.from({ length: n }, (_, i) => ({ role: 'user' as const, content: `${i}`.repeat(size) })),
];

test('counting: the last reported usage plus the calibrated estimate of what was added since', () => {
  const calibration = new TokenCalibration();
  const counter = new PromptCounter('m', calibration);
  const first = msgs(3);
  const estimate = estimatePromptTokens(first);
  // Before any report: the estimate with the wide margin.
  assert.equal(counter.count(first, [], 0), Math.ceil(estimate * 1.15));
  // The server says this request was 1.5 times our estimate.
  counter.observe(estimate, 0, { promptTokens: Math.round(estimate * 1.5), completionTokens: 10, estimated: false });
  assert.ok(Math.abs(calibration.ratio('m') - 1.5) < 0.01);
  const more = msgs(5);
  const added = estimatePromptTokens(more) - estimate;
  assert.equal(counter.count(more, [], 0), Math.round(estimate * 1.5) + Math.ceil(added * calibration.ratio('m') * 1.15) + 16);
  // After a rewrite the report describes nothing: the whole is estimated, calibrated.
  assert.equal(counter.count(more, [], 1), Math.ceil(estimatePromptTokens(more) * calibration.ratio('m') * 1.05));
});

test('calibration: per model, clamped, and not learned from estimated usage or tiny requests', () => {
  const c = new TokenCalibration();
  c.record('a', 1_000, 1_200);
  c.record('a', 1_000, 1_000);
  assert.ok(Math.abs(c.ratio('a') - 1.1) < 1e-9);
  assert.equal(c.ratio('b'), 1);
  c.record('b', 1_000, 1_000_000);
  assert.equal(c.ratio('b'), 4);
  // A ratio under 1 is learned, but it never scales an estimate down.
  c.record('e', 1_000, 500);
  assert.equal(c.ratio('e'), 0.5);
  assert.equal(c.scale('e', 1_000), Math.ceil(1_000 * 1.05));
  c.record('c', 10, 100);
  assert.equal(c.isCalibrated('c'), false);
  const counter = new PromptCounter('d', c);
  counter.observe(2_000, 0, { promptTokens: 9_000, completionTokens: 1, estimated: true });
  assert.equal(c.isCalibrated('d'), false);
});

test('the estimate counts what chars/4 undercounts: quotes, backslashes and newlines twice, wide scripts a token a character', async () => {
  const { estimateTokens } = await import('../../../src/core/llm/contextWindows');
  assert.equal(estimateTokens('abcd'.repeat(100)), 100);
  assert.equal(estimateTokens('"\\\n\t'.repeat(100)), 200);
  assert.equal(estimateTokens('日本語のテキスト'), 8);
  assert.equal(estimateTokens('café'), 2);
});
