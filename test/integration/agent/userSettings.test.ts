// The CLI's user settings file (~/.config/patchpilot/settings.json, JSONC) under the workspace's,
// end to end with the built CLI: denyPaths of both scopes add up in the run's path guard, a user-only
// key in the workspace file counts for nothing, `config path` / `config show` say which files and
// which values are in effect, and a malformed user file is an error naming its line and column.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ScriptedModelServer } from '../../support/scriptedModel';
import { createArena, type Arena } from './attacks/arena';
import { CLI, call, cliEnv, decisionFor, finish, runAgent, turn } from './attacks/agent';

function writeUserSettings(arena: Arena, text: string): string {
  const file = path.join(arena.home, '.config', 'patchpilot', 'settings.json');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

function config(arena: Arena, args: string[], env: NodeJS.ProcessEnv = {}) {
  return spawnSync(process.execPath, [CLI, 'config', ...args, '--workspace', arena.ws], { env: cliEnv(arena, env), encoding: 'utf8' });
}

describe('CLI user settings file (built CLI)', { skip: existsSync(CLI) ? false : 'run npm run build first' }, () => {
  test("the user's denyPaths and the trusted workspace's both apply to the run's path guard", async () => {
    const arena = createArena({
      settings: { 'patchpilot.policy.denyPaths': ['ws-secret/**'] },
      files: { 'user-secret/a.txt': 'USER-DENIED-CONTENT\n', 'ws-secret/b.txt': 'WS-DENIED-CONTENT\n' },
    });
    try {
      writeUserSettings(arena, '{\n  // my own rules, for every workspace\n  "patchpilot.policy.denyPaths": ["user-secret/**"],\n}\n');
      const run = await runAgent(
        arena,
        [turn(call('u', 'read_file', { path: 'user-secret/a.txt' }), call('w', 'read_file', { path: 'ws-secret/b.txt' })), finish()],
        { args: ['--trust-workspace'] },
      );
      assert.doesNotMatch(run.allModelInput, /USER-DENIED-CONTENT|WS-DENIED-CONTENT/, 'neither denied file reached the model');
      for (const [id, subject] of [
        ['u', /user-secret\/a\.txt/],
        ['w', /ws-secret\/b\.txt/],
      ] as const) {
        const row = decisionFor(run, 'path', subject);
        assert.equal(row?.verdict, 'deny', `${id}: ${JSON.stringify(run.policy)}`);
      }
      const shown = config(arena, ['show', '--trust-workspace']);
      assert.equal(shown.status, 0, shown.stderr);
      assert.match(
        shown.stdout,
        /patchpilot\.policy\.denyPaths = \["user-secret\/\*\*","ws-secret\/\*\*"\]\n {4}from user \([^)]*\.config\/patchpilot\/settings\.json\) \+ workspace \([^)]*\.vscode\/settings\.json\)/,
      );
    } finally {
      arena.cleanup();
    }
  });

  test('a user-only key in the workspace file is ignored; the same key in the user file counts', () => {
    const arena = createArena({ settings: { 'patchpilot.mcp.unsandboxedServers': ['from-the-repo'] } });
    try {
      let shown = config(arena, ['show', '--trust-workspace', '--json']);
      assert.equal(shown.status, 0, shown.stderr);
      let out = JSON.parse(shown.stdout) as { settings: { key: string; value: unknown }[]; ignored: { key: string; reason: string }[] };
      assert.equal(
        out.settings.find((s) => s.key === 'patchpilot.mcp.unsandboxedServers'),
        undefined,
      );
      assert.match(out.ignored.find((i) => i.key === 'patchpilot.mcp.unsandboxedServers')?.reason ?? '', /only your user settings/);
      writeUserSettings(
        arena,
        '{ "patchpilot.mcp.unsandboxedServers": ["mine"], "patchpilot.mcp.servers": { "mine": { "command": "srv", "env": { "TOKEN": "tok-0000000000009876" } } } }',
      );
      shown = config(arena, ['show', '--json']);
      out = JSON.parse(shown.stdout);
      assert.deepEqual(out.settings.find((s) => s.key === 'patchpilot.mcp.unsandboxedServers')?.value, ['mine']);
      assert.doesNotMatch(shown.stdout, /tok-0000/, 'an MCP token is never printed');
      assert.match(shown.stdout, /"TOKEN": "••••9876"/);
    } finally {
      arena.cleanup();
    }
  });

  test('a malformed user file stops the run with its path, line and column; nothing runs, the file is left as it was', async () => {
    const arena = createArena();
    const server = await ScriptedModelServer.start([finish()]);
    try {
      const text = '{\n  "patchpilot.llm.model": "x"\n  "patchpilot.limits.maxSteps": 3,\n}\n';
      const file = writeUserSettings(arena, text);
      const run = spawnSync(process.execPath, [CLI, 'run', '--goal', 'g', '--workspace', arena.ws, '--base-url', server.baseUrl, '--model', 'm'], {
        env: cliEnv(arena),
        encoding: 'utf8',
      });
      assert.equal(run.status, 2, run.stderr);
      assert.ok(run.stderr.includes(`${file}:3:3: CommaExpected`), run.stderr);
      assert.equal(server.chatRequests.length, 0, 'no model request');
      assert.equal(readFileSync(file, 'utf8'), text, 'the file is left as it was');
      const shown = config(arena, ['show']);
      assert.equal(shown.status, 2);
      assert.ok(shown.stderr.includes(`${file}:3:3: CommaExpected`), shown.stderr);
    } finally {
      await server.close();
      arena.cleanup();
    }
  });

  test('config path: $XDG_CONFIG_HOME/patchpilot/settings.json, else ~/.config/patchpilot/settings.json', () => {
    const arena = createArena();
    try {
      const home = config(arena, ['path']);
      assert.equal(home.status, 0, home.stderr);
      // The arena's user file exists (it raises a limit a workspace may not raise).
      assert.match(home.stdout, new RegExp(`^user +${arena.home}/\\.config/patchpilot/settings\\.json$`, 'm'));
      assert.match(home.stdout, new RegExp(`^workspace +${arena.ws}/\\.vscode/settings\\.json$`, 'm'));
      const xdg = path.join(arena.base, 'xdg');
      const viaXdg = config(arena, ['path'], { XDG_CONFIG_HOME: xdg });
      assert.match(viaXdg.stdout, new RegExp(`^user +${xdg}/patchpilot/settings\\.json \\(missing\\)$`, 'm'));
    } finally {
      arena.cleanup();
    }
  });
});
