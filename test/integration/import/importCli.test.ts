// `patchpilot import` with the built CLI: the preview (keys masked), --dry-run writes nothing, no
// terminal and no --yes refuses, a malformed user file is never overwritten, and the proof the
// feature exists for: a Continue user's config.yaml imported, then `patchpilot run` reaches the
// imported endpoint (the scripted model server) with the imported model and finishes.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { CLI, cliEnv, events, runCli, skipWithoutBuild } from '../agent/support';
import { ScriptedModelServer } from '../../support/scriptedModel';
import { gitInit, tempWorkspace } from '../../unit/tools/helpers';

const FIXTURES = path.resolve(__dirname, '../../fixtures/import');

interface Sandbox {
  base: string;
  home: string;
  userFile: string;
  env: NodeJS.ProcessEnv;
  done(): void;
}

/** A HOME of its own (the user settings file lives there) and no inherited XDG_CONFIG_HOME. */
function sandbox(): Sandbox {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'pp-import-cli-')));
  const home = path.join(base, 'home');
  mkdirSync(home);
  const env = cliEnv({ HOME: home });
  delete env.XDG_CONFIG_HOME;
  delete env.PATCHPILOT_API_KEY;
  return { base, home, userFile: path.join(home, '.config', 'patchpilot', 'settings.json'), env, done: () => rmSync(base, { recursive: true, force: true }) };
}

const importCli = (s: Sandbox, args: string[], cwd = s.base) =>
  spawnSync(process.execPath, [CLI, 'import', ...args], { env: s.env, cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

describe('patchpilot import (built CLI)', { skip: skipWithoutBuild }, () => {
  test('--dry-run prints the preview with the key masked and writes nothing', () => {
    const s = sandbox();
    try {
      const r = importCli(s, ['--from', 'roo', path.join(FIXTURES, 'roo-code-settings.json'), '--dry-run']);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /^Import from Roo Code: /);
      assert.match(r.stdout, /patchpilot\.llm\.baseUrl: \(unset\) -> "https:\/\/llm-gateway\.example\.com\/v1"/);
      assert.match(
        r.stdout,
        /API key \(providerProfiles\.apiConfigs\.work-gateway\): ••••wxyz -> not written: the CLI reads keys from the environment; set PATCHPILOT_API_KEY/,
      );
      assert.match(r.stdout, /Not imported:\n {2}- /);
      assert.doesNotMatch(r.stdout + r.stderr, /sk-roo-fixture|sk-ant-fixture/);
      assert.match(r.stderr, /dry run, nothing written/);
      assert.equal(existsSync(s.userFile), false);
      assert.equal(existsSync(path.join(s.base, '.patchpilot')), false, 'no rules file either');
    } finally {
      s.done();
    }
  });

  test('without a terminal and without --yes it refuses; with --yes it writes the settings and the rules file', () => {
    const s = sandbox();
    try {
      const file = path.join(FIXTURES, 'cline_mcp_settings.json');
      const refused = importCli(s, ['--from', 'cline', file]);
      assert.equal(refused.status, 1);
      assert.match(refused.stderr, /refusing to write without --yes/);
      assert.equal(existsSync(s.userFile), false);
      const ok = importCli(s, ['--from', 'roo', path.join(FIXTURES, 'roo-code-settings.json'), '--yes']);
      assert.equal(ok.status, 0, ok.stderr);
      const written = readFileSync(s.userFile, 'utf8');
      assert.match(written, /"patchpilot\.llm\.model": "qwen3-coder-480b"/);
      assert.doesNotMatch(written, /sk-roo-fixture/);
      assert.match(readFileSync(path.join(s.base, '.patchpilot/rules/imported-roo.md'), 'utf8'), /Run the tests before you finish\./);
      // Importing the same file again adds nothing.
      const again = importCli(s, ['--from', 'roo', path.join(FIXTURES, 'roo-code-settings.json'), '--yes']);
      assert.match(again.stdout, /No settings to write/);
      assert.equal(readFileSync(s.userFile, 'utf8'), written);
    } finally {
      s.done();
    }
  });

  test('a malformed user settings file is named with line and column and left untouched', () => {
    const s = sandbox();
    try {
      mkdirSync(path.dirname(s.userFile), { recursive: true });
      const broken = '{\n  "patchpilot.llm.model": "x",\n  oops\n}\n';
      writeFileSync(s.userFile, broken);
      const r = importCli(s, ['--from', 'cline', path.join(FIXTURES, 'cline_mcp_settings.json'), '--yes']);
      assert.equal(r.status, 2);
      assert.ok(r.stderr.includes(`${s.userFile}:3:3: InvalidSymbol`), r.stderr);
      assert.equal(readFileSync(s.userFile, 'utf8'), broken);
    } finally {
      s.done();
    }
  });

  test('bad input: unknown --from, missing file, wrong shape', () => {
    const s = sandbox();
    try {
      assert.equal(importCli(s, ['--from', 'cursor', 'x.json']).status, 2);
      const missing = importCli(s, ['--from', 'roo', path.join(s.base, 'nope.json')]);
      assert.equal(missing.status, 1);
      assert.match(missing.stderr, /cannot read .*nope\.json/);
      const wrong = importCli(s, ['--from', 'continue', path.join(FIXTURES, 'roo-code-settings.json')]);
      assert.equal(wrong.status, 1);
      assert.match(wrong.stderr, /not a Continue configuration/);
      const listless = importCli(s, ['--from', 'continue', path.join(FIXTURES, 'cline_mcp_settings.json'), '--dry-run']);
      assert.equal(listless.status, 0, listless.stderr);
      assert.match(listless.stdout, /- mcpServers: Continue lists its servers/);
    } finally {
      s.done();
    }
  });

  test("a Continue user's config.yaml imported, then patchpilot run reaches the imported endpoint and finishes", async () => {
    const s = sandbox();
    const server = await ScriptedModelServer.start([
      { reply: { toolCalls: [{ name: 'finish', arguments: { summary: 'Reached through the imported endpoint.' } }] } },
    ]);
    const ws = tempWorkspace({ 'README.md': '# demo\n' });
    try {
      gitInit(ws.root);
      // The user's own file, with their model server's address (the scripted server stands in for it).
      const config = path.join(s.base, 'config.yaml');
      writeFileSync(config, readFileSync(path.join(FIXTURES, 'continue-config.yaml'), 'utf8').replace('http://127.0.0.1:4891/v1', server.baseUrl));
      const imported = importCli(s, ['--from', 'continue', config, '--yes', '--workspace', ws.root]);
      assert.equal(imported.status, 0, imported.stderr);
      process.stdout.write(`$ patchpilot import --from continue config.yaml --yes --workspace WS\n${imported.stdout}${imported.stderr}`);
      assert.doesNotMatch(imported.stdout, /sk-continue-fixture/);

      // The key the preview told the user to set; no --base-url, no --model: both come from the import.
      const run = await runCli(['--goal', 'say hello', '--workspace', ws.root, '--approve', 'auto-edit', '--json', '--no-detect-tests'], {
        env: { ...s.env, PATCHPILOT_API_KEY: 'sk-continue-fixture-00000001234' },
      });
      process.stdout.write(`$ PATCHPILOT_API_KEY=... patchpilot run --goal 'say hello' --workspace WS --approve auto-edit --json\n${run.stdout}${run.stderr}`);
      assert.equal(run.code, 0, run.stderr);
      const end = events(run.stdout).at(-1);
      assert.equal(end?.type, 'result');
      assert.equal(end?.status, 'finished');
      const [request] = server.chatRequests;
      assert.equal(request?.body?.model, 'scripted-model', 'the imported model');
      assert.equal(request?.headers.authorization, 'Bearer sk-continue-fixture-00000001234');
      const system = JSON.stringify(request?.body?.messages?.[0] ?? '');
      assert.match(system, /Always write a test for a new function\./, 'the imported rules reached the prompt');
    } finally {
      await server.close();
      ws.cleanup();
      s.done();
    }
  });
});
