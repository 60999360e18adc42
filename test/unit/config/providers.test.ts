// The provider catalog the setup flow offers: every provider people bring is there once, local
// servers are on loopback and need no key, public ones speak https, and the wire follows the
// contract of patchpilot.llm.provider (anthropic native, vscode host-only, the rest OpenAI-compatible).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PROVIDERS, providerById, wireOf } from '../../../src/core/config/providers';
import { isLoopbackEndpoint } from '../../../src/host/vscode/config/settingsReader';

describe('provider catalog', () => {
  test('the providers of the setup flow, each once', () => {
    const labels = PROVIDERS.map((p) => p.label).join(' | ');
    for (const name of [
      'OpenAI',
      'Anthropic',
      'Google',
      'DeepSeek',
      'Mistral',
      'Groq',
      'OpenRouter',
      'xAI',
      'Ollama',
      'LM Studio',
      'vLLM',
      'llama.cpp',
      'VS Code',
      'Custom',
    ]) {
      assert.ok(labels.includes(name), `${name} in ${labels}`);
    }
    assert.equal(new Set(PROVIDERS.map((p) => p.id)).size, PROVIDERS.length);
  });

  test('local servers listen on loopback and need no key; cloud providers use https and a key with its variable', () => {
    for (const p of PROVIDERS) {
      if (p.local) {
        assert.ok(isLoopbackEndpoint(p.defaultBaseUrl), `${p.id} on loopback`);
        assert.equal(p.needsKey, false, p.id);
      } else if (p.defaultBaseUrl) {
        assert.equal(new URL(p.defaultBaseUrl).protocol, 'https:', p.id);
        assert.ok(p.needsKey && p.keyEnvVar, `${p.id} needs a key, known as a variable`);
      }
    }
  });

  test('the wire: anthropic native, vscode VS Code models, everything else (unknown and unset too) OpenAI-compatible', () => {
    assert.equal(wireOf('anthropic'), 'anthropic');
    assert.equal(wireOf('vscode'), 'vscode');
    assert.equal(wireOf(' VSCode '), 'vscode');
    for (const other of ['openai', 'ollama', 'custom', 'something-new', '', undefined]) assert.equal(wireOf(other), 'openai', String(other));
    assert.equal(providerById('nope'), undefined);
    assert.equal(providerById('vscode')?.needsKey, false);
  });
});
