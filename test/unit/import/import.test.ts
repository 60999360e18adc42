// Each source format from its fixture (test/fixtures/import, in the shape the tool writes) -> plan ->
// settings text written over a user's JSONC file -> read back through the one resolver.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readJsoncSettings, resolveSettings, type SettingKey } from '../../../src/core/config';
import {
  applyChangesToSettingsText,
  ImportError,
  mergeIntoSettings,
  PLANNERS,
  renderImportPreview,
  type ImportPlan,
  type ImportSource,
} from '../../../src/core/import';

const FIXTURES = path.resolve(__dirname, '../../fixtures/import');
const USER_FILE = '{\n  // my own settings\n  "patchpilot.policy.allow": ["make *"],\n  "patchpilot.limits.maxSteps": 20,\n}\n';

function planOf(source: ImportSource, name: string): ImportPlan {
  const file = path.join(FIXTURES, name);
  return PLANNERS[source](file, readFileSync(file, 'utf8'));
}

/** Writes the plan over USER_FILE as the CLI does, reads it back the way every run reads it. */
function importInto(plan: ImportPlan, userText = USER_FILE) {
  const dir = mkdtempSync(path.join(tmpdir(), 'pp-import-'));
  try {
    const file = path.join(dir, 'settings.json');
    writeFileSync(file, userText);
    const merged = mergeIntoSettings(plan, readJsoncSettings(file) as Partial<Record<SettingKey, unknown>>);
    const text = applyChangesToSettingsText(userText, merged.changes);
    writeFileSync(file, text);
    const resolved = resolveSettings({ layers: [{ scope: 'user', origin: file, values: readJsoncSettings(file)! }], trusted: true });
    return { text, merged, resolved };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const preview = (plan: ImportPlan) => renderImportPreview(plan, mergeIntoSettings(plan, {}), { settings: 'S', apiKey: 'K', rules: 'R' });
const whats = (plan: ImportPlan) => plan.notImported.map((n) => n.what).join('\n');

describe('import: Roo Code settings export', () => {
  test('the selected profile is the endpoint; command lists, custom instructions; the rest listed as not imported', () => {
    const plan = planOf('roo', 'roo-code-settings.json');
    assert.deepEqual(plan.apiKey, { value: 'sk-roo-fixture-000000000000wxyz', provider: 'custom', from: 'providerProfiles.apiConfigs.work-gateway' });
    assert.match(plan.rules?.text ?? '', /^Prefer small, focused commits\.\nRun the tests/);
    const { text, resolved } = importInto(plan);
    assert.match(text, /^\{\n {2}\/\/ my own settings\n/, "the user's comment stays");
    assert.doesNotMatch(text, /sk-roo/, 'no key in the settings file');
    const s = resolved.settings;
    assert.equal(s.llm.provider, 'custom');
    assert.equal(s.llm.baseUrl, 'https://llm-gateway.example.com/v1');
    assert.equal(s.llm.model, 'qwen3-coder-480b');
    assert.deepEqual(s.policy.allow, ['make *', 'npm test *', 'git log *', 'git diff *'], "the user's allow list kept, Roo's prefixes added");
    assert.deepEqual(s.policy.deny, ['git push', 'rm -rf']);
    assert.equal(s.limits.maxSteps, 20);
    assert.match(whats(plan), /apiConfigs\.claude \(anthropic\)/);
    assert.match(whats(plan), /allowedCommands "\*"/, 'allow-everything is never imported');
    assert.match(whats(plan), /customModes/);
    assert.match(whats(plan), /modelTemperature/);
    const shown = preview(plan);
    assert.doesNotMatch(shown, /sk-roo-fixture/);
    assert.match(shown, /API key \(providerProfiles\.apiConfigs\.work-gateway\): ••••wxyz -> K/);
  });

  test("Roo's MCP file ({ mcpServers }) reads like Cline's", () => {
    const file = path.join(FIXTURES, 'cline_mcp_settings.json');
    const plan = PLANNERS.roo(file, readFileSync(file, 'utf8'));
    assert.deepEqual(Object.keys(plan.settings['patchpilot.mcp.servers'] as object), ['github', 'everything', 'remote-docs']);
  });
});

describe('import: Cline MCP settings', () => {
  test('servers come over without their auto-approved tools; secrets masked in the preview, kept in the file', () => {
    const plan = planOf('cline', 'cline_mcp_settings.json');
    const { resolved, text } = importInto(plan);
    const servers = resolved.settings.mcp.servers;
    assert.deepEqual(Object.keys(servers), ['github', 'everything', 'remote-docs']);
    assert.deepEqual(servers.github!.alwaysAllow, [], 'not pre-approved');
    assert.equal(servers.github!.transport, 'stdio');
    assert.equal(servers.everything!.disabled, true);
    assert.equal(servers['remote-docs']!.transport, 'http');
    assert.doesNotMatch(text, /autoApprove/);
    assert.match(text, /ghp_fixture0000000000000000abcd/, 'the server needs its env to run');
    assert.match(whats(plan), /mcpServers\.github\.autoApprove \(search_repositories, get_file_contents\)/);
    const shown = preview(plan);
    assert.doesNotMatch(shown, /ghp_fixture|fixture-token/);
    assert.match(shown, /GITHUB_PERSONAL_ACCESS_TOKEN=••••abcd/);
  });

  test('a .clinerules file is rules', () => {
    const plan = PLANNERS.cline('/x/.clinerules', '# Project rules\n\nUse pnpm.\n');
    assert.equal(plan.rules?.text, '# Project rules\n\nUse pnpm.');
  });

  test('a server of the same name in the user settings is kept as it is', () => {
    const plan = planOf('cline', 'cline_mcp_settings.json');
    const mine = '{ "patchpilot.mcp.servers": { "github": { "command": "my-github-mcp" } } }';
    const { resolved, merged } = importInto(plan, mine);
    assert.equal((resolved.settings.mcp.servers.github as { command: string }).command, 'my-github-mcp');
    assert.match(merged.kept[0]!.what, /"github"/);
  });
});

describe('import: Continue', () => {
  test('config.yaml: the first chat model, MCP servers, rules; Hub blocks, secret references, autocomplete listed', () => {
    const plan = planOf('continue', 'continue-config.yaml');
    const { resolved } = importInto(plan);
    assert.equal(resolved.settings.llm.provider, 'custom');
    assert.equal(resolved.settings.llm.baseUrl, 'http://127.0.0.1:4891/v1');
    assert.equal(resolved.settings.llm.model, 'scripted-model');
    assert.equal(plan.apiKey?.value, 'sk-continue-fixture-00000001234');
    assert.deepEqual(Object.keys(resolved.settings.mcp.servers), ['Filesystem', 'Tracker']);
    assert.deepEqual((resolved.settings.mcp.servers.Tracker as { env: object }).env, {}, 'a secret reference is not a value');
    assert.equal(plan.rules?.text, 'Always write a test for a new function.\n\n## Style\n\nUse 2-space indentation in TypeScript.');
    const w = whats(plan);
    for (const re of [
      /models\[1\] "Autocomplete"/,
      /uses: anthropic\/claude-sonnet-4/,
      /TRACKER_TOKEN/,
      /rules\[1\]\.globs/,
      /uses: continuedev\/typescript-rules/,
      /^context$/m,
    ])
      assert.match(w, re);
    assert.match(plan.notImported.find((n) => n.what.includes('Autocomplete'))!.why, /no autocomplete/);
  });

  test('legacy config.json: models, systemMessage, experimental MCP servers; a new provider drops the old URL', () => {
    const plan = planOf('continue', 'continue-config.json');
    const { resolved, merged } = importInto(plan, '{ "patchpilot.llm.baseUrl": "http://127.0.0.1:11434/v1" }');
    assert.equal(resolved.settings.llm.provider, 'openai');
    assert.equal(resolved.settings.llm.baseUrl, 'https://api.openai.com/v1', "OpenAI's own endpoint, not the old local one");
    assert.ok(merged.changes.some((c) => c.key === 'patchpilot.llm.baseUrl' && c.after === undefined));
    assert.equal(plan.apiKey?.provider, 'openai');
    assert.equal(plan.rules?.text, 'You are a careful engineer. Explain risky changes.');
    assert.equal((resolved.settings.mcp.servers['mcp-1'] as { command: string }).command, 'uvx');
    assert.match(whats(plan), /tabAutocompleteModel/);
    assert.match(whats(plan), /customCommands/);
  });

  test('an Ollama apiBase without a path gets /v1; a local server gets no key', () => {
    const plan = PLANNERS.continue(
      'c.yaml',
      'models:\n  - name: L\n    provider: ollama\n    model: qwen3\n    apiBase: http://gpu-box:11434\n    apiKey: not-needed-but-set\n',
    );
    assert.equal(plan.settings['patchpilot.llm.baseUrl'], 'http://gpu-box:11434/v1');
    assert.equal(plan.apiKey, undefined);
    assert.match(whats(plan), /API key/);
  });

  test('an unknown provider is listed, nothing set', () => {
    const plan = PLANNERS.continue('c.yaml', 'models:\n  - name: B\n    provider: bedrock\n    model: anthropic.claude-v2\n');
    assert.deepEqual(plan.settings, {});
    assert.match(plan.notImported[0]!.why, /no bedrock provider/);
  });
});

describe('import: bad input', () => {
  const cases: [ImportSource, string, RegExp][] = [
    ['roo', '{ not json', /not JSON/],
    ['roo', '{ "something": 1 }', /not a Roo Code settings export/],
    ['cline', '[]', /expected a JSON object/],
    ['cline', '{ "servers": {} }', /not a Cline MCP settings file/],
    ['continue', 'models: [\n', /not YAML/],
    ['continue', '- a\n- b\n', /expected a mapping/],
  ];
  for (const [source, text, message] of cases) {
    test(`${source}: ${JSON.stringify(text)} -> ImportError`, () => {
      assert.throws(
        () => PLANNERS[source](`/x/in.${source === 'continue' ? 'yaml' : 'json'}`, text),
        (err: unknown) => err instanceof ImportError && message.test(err.message),
      );
    });
  }

  test('an MCP server the setting would refuse is listed with the reason, the others come over', () => {
    const plan = PLANNERS.cline(
      '/x/m.json',
      JSON.stringify({ mcpServers: { ok: { command: 'srv' }, 'bad name!': { command: 'x' }, both: { command: 'a', url: 'http://h' } } }),
    );
    assert.deepEqual(Object.keys(plan.settings['patchpilot.mcp.servers'] as object), ['ok']);
    assert.equal(plan.notImported.length, 2);
  });
});
