import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, DEFAULT_SETTINGS, describeOrigin, loadCliConfig, resolveSettings, type SettingKey } from '../../../src/core/config';

function workspaceWithSettings(text?: string): { root: string; done(): void } {
  const root = mkdtempSync(path.join(tmpdir(), 'pp-config-'));
  if (text !== undefined) {
    mkdirSync(path.join(root, '.vscode'));
    writeFileSync(path.join(root, '.vscode', 'settings.json'), text);
  }
  return { root, done: () => rmSync(root, { recursive: true, force: true }) };
}

describe('settings: defaults and validation', () => {
  test('no settings anywhere gives the documented defaults', () => {
    const { settings, apiKey } = resolveSettings({ layers: [], trusted: true });
    assert.equal(settings.approval.mode, 'ask');
    assert.equal(settings.limits.maxSteps, 50);
    assert.equal(settings.limits.maxConsecutiveFailures, 3);
    assert.equal(settings.git.autoCommit, false);
    assert.deepEqual(settings.tests.commands, []);
    assert.equal(settings.tests.afterEdit, false);
    assert.equal(settings.llm.baseUrl, undefined);
    assert.equal(apiKey, undefined);
    assert.equal(settings.history.path, DEFAULT_SETTINGS.history.path);
  });

  test('tests.afterEdit defaults to on when test commands exist, and an explicit false wins', () => {
    const on = resolveSettings({ layers: [{ scope: 'user', origin: 'user', values: { 'patchpilot.tests.commands': ['npm test'] } }], trusted: true });
    assert.equal(on.settings.tests.afterEdit, true);
    const off = resolveSettings({
      layers: [{ scope: 'user', origin: 'user', values: { 'patchpilot.tests.commands': ['npm test'], 'patchpilot.tests.afterEdit': false } }],
      trusted: true,
    });
    assert.equal(off.settings.tests.afterEdit, false);
  });

  test('every invalid value is reported at once, naming the key and where it came from', () => {
    assert.throws(
      () =>
        resolveSettings({
          layers: [
            {
              scope: 'workspace',
              origin: '/ws/.vscode/settings.json',
              values: {
                'patchpilot.limits.maxSteps': 'fifty',
                'patchpilot.approval.mode': 'yolo',
                'patchpilot.tests.commands': 'npm test',
                'patchpilot.llm.baseUrl': 'ftp://host/v1',
              },
            },
          ],
          trusted: true,
        }),
      (err: unknown) => {
        assert.ok(err instanceof ConfigError);
        assert.equal(err.problems.length, 4);
        assert.match(err.message, /patchpilot\.limits\.maxSteps \(from \/ws\/\.vscode\/settings\.json\): expected a positive integer, got "fifty"/);
        assert.match(err.message, /patchpilot\.approval\.mode .*expected one of ask, auto-edit, auto, plan, got "yolo"/);
        assert.match(err.message, /patchpilot\.tests\.commands .*array of non-empty strings/);
        assert.match(err.message, /patchpilot\.llm\.baseUrl .*http\(s\) URL/);
        return true;
      },
    );
  });

  test('a base URL carrying credentials is refused', () => {
    assert.throws(
      () =>
        resolveSettings({
          layers: [{ scope: 'flag', origin: 'command line', values: { 'patchpilot.llm.baseUrl': 'http://u:p@127.0.0.1/v1' } }],
          trusted: true,
        }),
      /must not carry credentials/,
    );
  });

  test('negative, zero and fractional limits are refused', () => {
    for (const bad of [0, -1, 2.5]) {
      assert.throws(
        () => resolveSettings({ layers: [{ scope: 'user', origin: 'u', values: { 'patchpilot.limits.maxConsecutiveFailures': bad } }], trusted: true }),
        /maxConsecutiveFailures/,
      );
    }
  });

  test("unknown patchpilot keys are warnings, other extensions' keys are ignored silently", () => {
    const r = resolveSettings({ layers: [{ scope: 'user', origin: 'u', values: { 'patchpilot.limit.maxSteps': 3, 'editor.fontSize': 12 } }], trusted: true });
    assert.deepEqual(r.warnings, ['unknown setting patchpilot.limit.maxSteps in u']);
  });
});

describe('settings: CLI layers (settings.json, env, flags) and workspace trust', () => {
  const jsonc = `{
    // the team's model
    "patchpilot.llm.model": "team-model",
    "patchpilot.llm.baseUrl": "http://127.0.0.1:9999/v1",
    "patchpilot.tests.commands": ["npm test",],
    "patchpilot": { "limits": { "maxSteps": 12 } },
    "patchpilot.policy.allow": ["make"],
    "patchpilot.policy.deny": ["curl *"],
  }`;

  test('reads JSONC (comments, trailing commas, nested objects) from .vscode/settings.json when trusted', () => {
    const ws = workspaceWithSettings(jsonc);
    try {
      const r = loadCliConfig({ workspace: ws.root, env: {}, flags: {}, trusted: true });
      assert.equal(r.settings.llm.model, 'team-model');
      assert.equal(r.settings.llm.baseUrl, 'http://127.0.0.1:9999/v1');
      assert.deepEqual(r.settings.tests.commands, ['npm test']);
      assert.equal(r.settings.limits.maxSteps, 12);
      assert.deepEqual(r.settings.policy.allow, ['make']);
      assert.equal(r.sources['patchpilot.llm.model']?.scope, 'workspace');
    } finally {
      ws.done();
    }
  });

  test('env overrides the file, flags override env; PATCHPILOT_API_KEY wins over OPENAI_API_KEY', () => {
    const ws = workspaceWithSettings(jsonc);
    try {
      const env = { PATCHPILOT_MODEL: 'env-model', PATCHPILOT_FAST_MODEL: 'env-fast', PATCHPILOT_API_KEY: 'pp-key', OPENAI_API_KEY: 'oa-key' };
      const r = loadCliConfig({ workspace: ws.root, env, flags: { 'patchpilot.llm.model': 'flag-model' }, trusted: true });
      assert.equal(r.settings.llm.model, 'flag-model');
      assert.equal(r.settings.llm.fastModel, 'env-fast');
      assert.equal(r.apiKey, 'pp-key');
      assert.equal(loadCliConfig({ workspace: ws.root, env: { OPENAI_API_KEY: 'oa-key' }, flags: {}, trusted: true }).apiKey, 'oa-key');
    } finally {
      ws.done();
    }
  });

  test('each value says where it came from in the words the user typed it (flag, env variable, settings file); the key names its variable', () => {
    const ws = workspaceWithSettings(jsonc);
    try {
      const env = { PATCHPILOT_MODEL: 'env-model', OPENAI_API_KEY: 'oa-key' };
      const r = loadCliConfig({ workspace: ws.root, env, flags: { 'patchpilot.llm.baseUrl': 'http://127.0.0.1:1/v1' }, trusted: true });
      const origin = (key: SettingKey) => describeOrigin(key, r.sources[key]);
      assert.equal(origin('patchpilot.llm.baseUrl'), '--base-url');
      assert.equal(origin('patchpilot.llm.model'), '$PATCHPILOT_MODEL');
      assert.equal(origin('patchpilot.limits.maxSteps'), `patchpilot.limits.maxSteps in ${path.join(ws.root, '.vscode', 'settings.json')}`);
      assert.equal(origin('patchpilot.llm.fastModel'), 'patchpilot.llm.fastModel (not set)');
      assert.equal(r.apiKeyOrigin, '$OPENAI_API_KEY');
      assert.match(r.apiKeyHelp!, /PATCHPILOT_API_KEY/);
      const noKey = loadCliConfig({ workspace: ws.root, env: {}, flags: {}, trusted: true });
      assert.equal(noKey.apiKeyOrigin, undefined, 'no key, no origin');
    } finally {
      ws.done();
    }
  });

  test('untrusted workspace: its base URL, test commands and allowlist are ignored (and reported); the key never goes to its URL', () => {
    const ws = workspaceWithSettings(jsonc);
    try {
      const r = loadCliConfig({ workspace: ws.root, env: { OPENAI_API_KEY: 'secret' }, flags: {}, trusted: false });
      assert.equal(r.settings.llm.baseUrl, undefined, 'repo-set base URL must be ignored');
      assert.deepEqual(r.settings.tests.commands, []);
      assert.deepEqual(r.settings.policy.allow, []);
      assert.deepEqual(r.settings.policy.deny, ['curl *'], 'a workspace deny only tightens: kept');
      assert.equal(r.settings.llm.model, undefined, 'the model is where requests go: the user chooses it');
      assert.deepEqual(r.ignored.map((i) => i.key).sort(), [
        'patchpilot.llm.baseUrl',
        'patchpilot.llm.model',
        'patchpilot.policy.allow',
        'patchpilot.tests.commands',
      ]);
      // The user's own base URL (env) is still honoured with the key.
      const own = loadCliConfig({
        workspace: ws.root,
        env: { OPENAI_API_KEY: 'secret', PATCHPILOT_BASE_URL: 'http://127.0.0.1:1234/v1' },
        flags: {},
        trusted: false,
      });
      assert.equal(own.settings.llm.baseUrl, 'http://127.0.0.1:1234/v1');
      assert.equal(own.apiKey, 'secret');
    } finally {
      ws.done();
    }
  });

  test('the key guard holds even if a workspace base URL slipped through the filter', () => {
    // A host adapter that mislabels scopes must not leak the key: the guard looks at the final source.
    const r = resolveSettings({
      layers: [{ scope: 'workspace', origin: 'ws', values: { 'patchpilot.llm.baseUrl': 'http://127.0.0.1:1/v1' } }],
      trusted: true,
      apiKey: 'k',
    });
    assert.equal(r.apiKey, 'k', 'trusted: the user accepted the workspace URL');
    const untrusted = resolveSettings({
      layers: [{ scope: 'workspace', origin: 'ws', values: { 'patchpilot.llm.baseUrl': 'http://127.0.0.1:1/v1' } }],
      trusted: false,
      apiKey: 'k',
    });
    assert.equal(untrusted.settings.llm.baseUrl, undefined);
  });

  test('a broken settings.json is a ConfigError naming the file, line and column; a missing one is fine', () => {
    const ws = workspaceWithSettings('{\n  "patchpilot.llm.model": "x",\n  "patchpilot.limits.maxSteps": ,\n}');
    try {
      assert.throws(
        () => loadCliConfig({ workspace: ws.root, env: {}, flags: {}, trusted: true }),
        (err: unknown) => {
          assert.ok(err instanceof ConfigError);
          assert.match(err.message, /settings\.json:3:33: ValueExpected/, 'line and column (1-based) of the missing value');
          return true;
        },
      );
    } finally {
      ws.done();
    }
    const none = workspaceWithSettings();
    try {
      assert.equal(loadCliConfig({ workspace: none.root, env: {}, flags: {}, trusted: false }).settings.limits.maxSteps, 50);
    } finally {
      none.done();
    }
  });

  test('policy lists add up across scopes; other values: the strongest scope wins', () => {
    const r = resolveSettings({
      layers: [
        { scope: 'user', origin: 'user', values: { 'patchpilot.policy.deny': ['curl *'], 'patchpilot.limits.maxSteps': 10 } },
        { scope: 'workspace', origin: 'ws', values: { 'patchpilot.policy.deny': ['wget *', 'curl *'], 'patchpilot.limits.maxSteps': 20 } },
      ],
      trusted: true,
    });
    assert.deepEqual(r.settings.policy.deny, ['curl *', 'wget *']);
    assert.equal(r.settings.limits.maxSteps, 20);
  });

  test("untrusted workspace: its path and network opt-ins are ignored, the user's kept (the one trust filter)", () => {
    const layers = (trustedWs: boolean) =>
      resolveSettings({
        layers: [
          { scope: 'user', origin: 'user', values: { 'patchpilot.policy.fetchAllowHosts': ['dev.test'], 'patchpilot.policy.protectedPaths': ['Makefile'] } },
          {
            scope: 'workspace',
            origin: 'ws',
            values: {
              'patchpilot.policy.fetchAllowHosts': ['10.0.0.0/8'],
              'patchpilot.policy.allowPrivateNetwork': true,
              'patchpilot.policy.denyPaths': ['src/**'],
              'patchpilot.policy.protectedPaths': ['x'],
            },
          },
        ],
        trusted: trustedWs,
      });
    const untrusted = layers(false);
    assert.deepEqual(untrusted.settings.policy.fetchAllowHosts, ['dev.test']);
    assert.equal(untrusted.settings.policy.allowPrivateNetwork, false);
    assert.deepEqual(untrusted.settings.policy.denyPaths, []);
    assert.deepEqual(untrusted.settings.policy.protectedPaths, ['Makefile']);
    const trusted = layers(true);
    assert.deepEqual(trusted.settings.policy.fetchAllowHosts, ['dev.test', '10.0.0.0/8']);
    assert.equal(trusted.settings.policy.allowPrivateNetwork, true);
  });

  test('a settings.json that is not an object is refused clearly', () => {
    const ws = workspaceWithSettings('["patchpilot.llm.model"]');
    try {
      assert.throws(() => loadCliConfig({ workspace: ws.root, env: {}, flags: {}, trusted: true }), /expected a JSON object/);
    } finally {
      ws.done();
    }
  });
});

describe('settings: an empty text is unset; the provider picks the endpoint and the key variable', () => {
  test('"" from the Settings UI, a flag or a variable leaves the value unset (the weaker layer stands)', () => {
    const r = resolveSettings({
      layers: [
        {
          scope: 'user',
          origin: 'user settings',
          values: { 'patchpilot.llm.model': 'user-model', 'patchpilot.llm.baseUrl': '', 'patchpilot.llm.fastModel': '  ' },
        },
        { scope: 'workspace', origin: 'workspace settings', values: { 'patchpilot.llm.model': '', 'patchpilot.llm.provider': '' } },
      ],
      trusted: true,
    });
    assert.equal(r.settings.llm.model, 'user-model');
    assert.equal(r.settings.llm.baseUrl, undefined);
    assert.equal(r.settings.llm.fastModel, undefined);
    assert.equal(r.settings.llm.provider, undefined);
    const ws = workspaceWithSettings('{"patchpilot.llm.model": "", "patchpilot.webSearch.url": ""}');
    try {
      const cli = loadCliConfig({
        workspace: ws.root,
        env: { PATCHPILOT_MODEL: '' },
        flags: { 'patchpilot.llm.baseUrl': '', 'patchpilot.llm.model': '' },
        trusted: true,
      });
      assert.equal(cli.settings.llm.model, undefined);
      assert.equal(cli.settings.llm.baseUrl, undefined);
      assert.equal(cli.settings.webSearch.url, undefined);
    } finally {
      ws.done();
    }
  });

  test('a provider without a base URL answers at its default endpoint; a typed URL wins', () => {
    const layer = (values: Record<string, unknown>) => [{ scope: 'user' as const, origin: 'user settings', values }];
    const ollama = resolveSettings({ layers: layer({ 'patchpilot.llm.provider': 'ollama' }), trusted: true });
    assert.equal(ollama.settings.llm.baseUrl, 'http://127.0.0.1:11434/v1');
    assert.equal(ollama.sources['patchpilot.llm.baseUrl']?.scope, 'user');
    const typed = resolveSettings({ layers: layer({ 'patchpilot.llm.provider': 'ollama', 'patchpilot.llm.baseUrl': 'http://127.0.0.1:9/v1' }), trusted: true });
    assert.equal(typed.settings.llm.baseUrl, 'http://127.0.0.1:9/v1');
    assert.equal(resolveSettings({ layers: layer({ 'patchpilot.llm.provider': 'vscode' }), trusted: true }).settings.llm.baseUrl, undefined);
  });

  test('an untrusted workspace cannot choose the provider (it decides which key goes where)', () => {
    const r = resolveSettings({
      layers: [{ scope: 'workspace', origin: 'ws', values: { 'patchpilot.llm.provider': 'openrouter' } }],
      trusted: false,
      apiKey: 'k',
    });
    assert.equal(r.settings.llm.provider, undefined);
    assert.equal(r.settings.llm.baseUrl, undefined);
    assert.deepEqual(
      r.ignored.map((i) => i.key),
      ['patchpilot.llm.provider'],
    );
  });

  test("the CLI reads the provider's own key variable, and no other provider's", () => {
    const ws = workspaceWithSettings();
    try {
      const env = { OPENAI_API_KEY: 'oa', DEEPSEEK_API_KEY: 'ds' };
      const deepseek = loadCliConfig({ workspace: ws.root, env: { ...env, PATCHPILOT_PROVIDER: 'deepseek' }, flags: {}, trusted: true });
      assert.equal(deepseek.apiKey, 'ds');
      assert.equal(deepseek.apiKeyOrigin, '$DEEPSEEK_API_KEY');
      assert.equal(deepseek.settings.llm.baseUrl, 'https://api.deepseek.com/v1');
      const local = loadCliConfig({ workspace: ws.root, env, flags: { 'patchpilot.llm.provider': 'ollama' }, trusted: true });
      assert.equal(local.apiKey, undefined, 'a cloud key never goes to a local server chosen by provider');
      const none = loadCliConfig({ workspace: ws.root, env, flags: {}, trusted: true });
      assert.equal(none.apiKey, 'oa', 'without a provider, OPENAI_API_KEY as before');
      const own = loadCliConfig({
        workspace: ws.root,
        env: { ...env, PATCHPILOT_API_KEY: 'pp' },
        flags: { 'patchpilot.llm.provider': 'deepseek' },
        trusted: true,
      });
      assert.equal(own.apiKey, 'pp');
    } finally {
      ws.done();
    }
  });
});

describe('settings: user-only keys (patchpilot.sandbox.allowUnixSockets)', () => {
  test('a workspace never sets it, trusted or not; the user does (the CLI: its user settings file)', () => {
    const ws = workspaceWithSettings('{ "patchpilot.sandbox.allowUnixSockets": ["/var/run/docker.sock"] }');
    const config = mkdtempSync(path.join(tmpdir(), 'pp-config-user-'));
    try {
      for (const trusted of [false, true]) {
        const r = loadCliConfig({ workspace: ws.root, env: { XDG_CONFIG_HOME: config }, flags: {}, trusted });
        assert.deepEqual(r.settings.sandbox.allowUnixSockets, []);
        assert.deepEqual(
          r.ignored.map((i) => [i.key, i.userOnly]),
          [['patchpilot.sandbox.allowUnixSockets', true]],
        );
        assert.match(r.ignored[0]!.reason, /only your user settings/);
      }
      mkdirSync(path.join(config, 'patchpilot'));
      writeFileSync(path.join(config, 'patchpilot', 'settings.json'), '{ // mine\n "patchpilot.sandbox.allowUnixSockets": ["/run/user/1000/podman.sock"], }');
      const r = loadCliConfig({ workspace: ws.root, env: { XDG_CONFIG_HOME: config }, flags: {}, trusted: true });
      assert.deepEqual(r.settings.sandbox.allowUnixSockets, ['/run/user/1000/podman.sock']);
      assert.equal(r.sources['patchpilot.sandbox.allowUnixSockets']?.scope, 'user');
      // Without XDG_CONFIG_HOME the file is ~/.config/patchpilot/settings.json.
      mkdirSync(path.join(config, 'home', '.config'), { recursive: true });
      renameSync(path.join(config, 'patchpilot'), path.join(config, 'home', '.config', 'patchpilot'));
      const home = loadCliConfig({ workspace: ws.root, env: { HOME: path.join(config, 'home') }, flags: {}, trusted: false });
      assert.deepEqual(home.settings.sandbox.allowUnixSockets, ['/run/user/1000/podman.sock']);
    } finally {
      ws.done();
      rmSync(config, { recursive: true, force: true });
    }
  });

  test('only absolute paths are accepted', () => {
    assert.throws(
      () =>
        resolveSettings({
          layers: [{ scope: 'user', origin: 'user settings', values: { 'patchpilot.sandbox.allowUnixSockets': ['docker.sock'] } }],
          trusted: true,
        }),
      /allowUnixSockets \(from user settings\): expected an array of absolute paths/,
    );
  });
});
