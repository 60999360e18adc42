// The settings that choose the model client: patchpilot.llm.provider (the protocol, and in the CLI
// which key variable is read) and patchpilot.llm.command (a program to run: user settings only).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadCliConfig, resolveSettings, USER_ONLY_REASON } from '../../../src/core/config';
import { AnthropicChatModel, createChatModel, ModelClient, ModelConfigError } from '../../../src/core/llm';

function workspace(settings: Record<string, unknown>): { root: string; done(): void } {
  const root = mkdtempSync(path.join(tmpdir(), 'pp-provider-'));
  mkdirSync(path.join(root, '.vscode'));
  writeFileSync(path.join(root, '.vscode', 'settings.json'), JSON.stringify(settings));
  return { root, done: () => rmSync(root, { recursive: true, force: true }) };
}

describe('model provider settings', () => {
  test('patchpilot.llm.command from a workspace is ignored even when the workspace is trusted; from the user it counts', () => {
    for (const trusted of [false, true]) {
      const r = resolveSettings({
        layers: [
          { scope: 'user', origin: 'user settings', values: { 'patchpilot.llm.model': 'm' } },
          { scope: 'workspace', origin: 'workspace settings', values: { 'patchpilot.llm.command': './evil.sh' } },
        ],
        trusted,
      });
      assert.equal(r.settings.llm.command, undefined, `trusted=${trusted}`);
      assert.deepEqual(
        r.ignored.map((i) => [i.key, i.reason]),
        [['patchpilot.llm.command', USER_ONLY_REASON]],
      );
    }
    const user = resolveSettings({
      layers: [{ scope: 'user', origin: 'user settings', values: { 'patchpilot.llm.command': 'node /opt/model.js' } }],
      trusted: false,
    });
    assert.equal(user.settings.llm.command, 'node /opt/model.js');
    assert.equal(user.sources['patchpilot.llm.command']?.scope, 'user');
  });

  test('CLI: the command from .vscode/settings.json is ignored with --trust-workspace too; --llm-command and PATCHPILOT_LLM_COMMAND count', () => {
    const ws = workspace({ 'patchpilot.llm.command': './evil.sh' });
    try {
      const fromFile = loadCliConfig({ workspace: ws.root, env: {}, flags: {}, trusted: true });
      assert.equal(fromFile.settings.llm.command, undefined);
      const fromEnv = loadCliConfig({ workspace: ws.root, env: { PATCHPILOT_LLM_COMMAND: 'node model.js' }, flags: {}, trusted: true });
      assert.equal(fromEnv.settings.llm.command, 'node model.js');
      const fromFlag = loadCliConfig({ workspace: ws.root, env: {}, flags: { 'patchpilot.llm.command': 'node flag.js' }, trusted: false });
      assert.equal(fromFlag.settings.llm.command, 'node flag.js');
    } finally {
      ws.done();
    }
  });

  test('CLI key: ANTHROPIC_API_KEY only for provider anthropic, OPENAI_API_KEY only otherwise; PATCHPILOT_API_KEY first for both', () => {
    const env = { OPENAI_API_KEY: 'sk-openai', ANTHROPIC_API_KEY: 'sk-ant' };
    const ws = workspace({});
    try {
      const openai = loadCliConfig({ workspace: ws.root, env, flags: {}, trusted: false });
      assert.deepEqual([openai.apiKey, openai.apiKeyOrigin], ['sk-openai', '$OPENAI_API_KEY']);
      const anthropic = loadCliConfig({ workspace: ws.root, env: { ...env, PATCHPILOT_PROVIDER: 'anthropic' }, flags: {}, trusted: false });
      assert.deepEqual([anthropic.apiKey, anthropic.apiKeyOrigin], ['sk-ant', '$ANTHROPIC_API_KEY']);
      const own = loadCliConfig({
        workspace: ws.root,
        env: { ...env, PATCHPILOT_API_KEY: 'sk-own' },
        flags: { 'patchpilot.llm.provider': 'anthropic' },
        trusted: false,
      });
      assert.equal(own.apiKey, 'sk-own');
    } finally {
      ws.done();
    }
  });

  test('an untrusted workspace cannot switch the protocol (and so which key variable is read)', () => {
    const ws = workspace({ 'patchpilot.llm.provider': 'anthropic' });
    try {
      const r = loadCliConfig({ workspace: ws.root, env: { ANTHROPIC_API_KEY: 'sk-ant' }, flags: {}, trusted: false });
      assert.equal(r.settings.llm.provider, undefined);
      assert.equal(r.apiKey, undefined);
    } finally {
      ws.done();
    }
  });

  test('createChatModel: the command wins, then provider anthropic, else the OpenAI-compatible client', () => {
    const program = createChatModel({ model: 'm', provider: 'anthropic', command: { line: 'node model.js', origin: '--llm-command' } });
    assert.ok(program instanceof ModelClient);
    assert.equal(program.config.endpoints.reasoning.label, 'the model program `node model.js`');
    assert.equal(program.config.endpoints.reasoning.apiKey, undefined);
    const deep = `node /${'very-deep-folder/'.repeat(8)}model.js --profile stall`;
    const long = createChatModel({ model: 'm', command: { line: deep, origin: '--llm-command' } }) as ModelClient;
    // A long command keeps its start and its end (the arguments that tell programs apart), whatever the folder depth.
    assert.match(long.config.endpoints.reasoning.label, /^the model program `node \/very-deep-folder\/.*\.\.\..*model\.js --profile stall`$/);
    assert.ok(createChatModel({ model: 'claude-sonnet-4', provider: 'anthropic' }) instanceof AnthropicChatModel);
    assert.ok(createChatModel({ model: 'm', baseUrl: 'http://127.0.0.1:1/v1' }) instanceof ModelClient);
    assert.throws(() => createChatModel({ model: 'm' }), ModelConfigError);
    assert.throws(() => createChatModel({ model: 'm', command: { line: 'node "model.js', origin: '--llm-command' } }), /unterminated double quote/);
    assert.throws(() => createChatModel({ model: 'claude', provider: 'anthropic', thinkingBudget: 500 }), /at least 1024/);
  });
});
