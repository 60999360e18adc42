// Which workspace files a local MCP server's launch names (and so are approved by content and
// protected), table-driven over the ways a launch names code: script, binary, package folder,
// `node .`, python -m, --opt=value, a shell string, env values, PATH, cwd, links; what it leaves
// out (folders as data, outputs, outside files); the change descriptions; the protected globs.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { resolveSettings } from '../../../src/core/config';
import { loadCliConfig } from '../../../src/core/config/cliConfig';
import { ABSENT, describeFileChanges, FileHasher, launchFiles } from '../../../src/core/policy/launch';
import { mcpProtectedGlobs } from '../../../src/core/mcp/protectedFiles';
import { createProtectedMatcher } from '../../../src/core/policy/path/protectedPaths';
import type { McpServerConfig } from '../../../src/core/mcp';
import { tempWorkspace } from '../tools/helpers';

const stdio = (command: string, args: string[], extra: Partial<{ env: Record<string, string>; cwd: string }> = {}): McpServerConfig => ({
  transport: 'stdio',
  command,
  args,
  env: extra.env ?? {},
  alwaysAllow: [],
  disabled: false,
  ...(extra.cwd ? { cwd: extra.cwd } : {}),
});

const FILES = {
  'tools/mcp-srv.mjs': 'server',
  'srv.py': 'print()',
  'bin/server': '#!/bin/sh\n',
  'cfg.json': '{}',
  'pkg/package.json': JSON.stringify({ main: 'lib/main.js', bin: { srv: 'bin/cli.js' } }),
  'pkg/lib/main.js': 'main',
  'pkg/bin/cli.js': 'cli',
  'package.json': JSON.stringify({ main: 'dist/index.js' }),
  'dist/index.js': 'root main',
  'src/app/__main__.py': 'x',
  'plain/index.js': 'plain index',
  'hook.cjs': 'hook',
  'server.pid': '123',
  'data.db': 'db',
  'sub/run.js': 'sub',
  'imp/srv.mjs':
    "import { x } from './lib.mjs';\nconst later = await import('./dyn.js');\nimport fs from 'node:fs';\nawait import('./plugin.mjs').catch(() => undefined);\n",
  'imp/lib.mjs': "export const x = require('../util.cjs');\n",
  'imp/dyn.js': 'dyn',
  'util.cjs': 'util',
  'py/main.py': 'from helpers import go\nimport os\n',
  'py/helpers.py': 'def go(): pass\n',
};

describe('launchFiles: the workspace files a launch names', () => {
  const ws = tempWorkspace(FILES);
  chmodSync(path.join(ws.root, 'bin/server'), 0o755);
  symlinkSync('tools/mcp-srv.mjs', path.join(ws.root, 'srv-link.mjs'));
  const named = (c: McpServerConfig) => Object.keys(launchFiles(ws.root, c));

  const cases: [string, McpServerConfig, string[]][] = [
    ['a script', stdio('node', ['tools/mcp-srv.mjs']), ['tools/mcp-srv.mjs']],
    ['python', stdio('python3', ['srv.py']), ['srv.py']],
    ['the command itself', stdio('./bin/server', []), ['bin/server']],
    ['an absolute command inside', stdio(path.join(ws.root, 'bin/server'), ['--stdio']), ['bin/server']],
    ['a config option', stdio('node', ['tools/mcp-srv.mjs', '--config', 'cfg.json']), ['cfg.json', 'tools/mcp-srv.mjs']],
    ['--opt=value', stdio('node', ['tools/mcp-srv.mjs', '--config=cfg.json']), ['cfg.json', 'tools/mcp-srv.mjs']],
    ['a package folder', stdio('node', ['pkg']), ['pkg/bin/cli.js', 'pkg/lib/main.js', 'pkg/package.json']],
    ['node .', stdio('node', ['.']), ['dist/index.js', 'package.json']],
    ['a folder without package.json', stdio('node', ['plain']), ['plain/index.js', 'plain/package.json']],
    // node tries the bare name first: it is recorded as absent too.
    ['an extensionless script', stdio('node', ['sub/run']), ['sub/run', 'sub/run.js']],
    ['python -m', stdio('python3', ['-m', 'src.app']), ['src/app/__main__.py']],
    ['a shell string', stdio('sh', ['-c', 'node tools/mcp-srv.mjs --x']), ['tools/mcp-srv.mjs']],
    ['a preloaded hook in env', stdio('node', ['tools/mcp-srv.mjs'], { env: { NODE_OPTIONS: '--require ./hook.cjs' } }), ['hook.cjs', 'tools/mcp-srv.mjs']],
    ['a command on a PATH folder inside', stdio('server', [], { env: { PATH: `${path.join(ws.root, 'bin')}:/usr/bin` } }), ['bin/server']],
    ['relative to cwd', stdio('node', ['run.js'], { cwd: 'sub' }), ['sub/run.js']],
    ['a link and its target', stdio('node', ['srv-link.mjs']), ['srv-link.mjs', 'tools/mcp-srv.mjs']],
    [
      'the local modules a script imports, transitively',
      stdio('node', ['imp/srv.mjs']),
      ['imp/dyn.js', 'imp/lib.mjs', 'imp/plugin.mjs', 'imp/srv.mjs', 'util.cjs'],
    ],
    ['python sibling modules', stdio('python3', ['py/main.py']), ['py/helpers.py', 'py/main.py']],
    ['a config file not there yet', stdio('node', ['tools/mcp-srv.mjs', '--config', 'later.yaml']), ['later.yaml', 'tools/mcp-srv.mjs']],
    // Left out: the workspace as a filesystem server's data folder, outputs, packages npx fetches, outside files.
    ['a data folder', stdio('npx', ['-y', '@modelcontextprotocol/server-filesystem', '.']), []],
    ['outputs', stdio('node', ['tools/mcp-srv.mjs', '--pid-file', 'server.pid', '--db', 'data.db', '--log', 'new.log']), ['tools/mcp-srv.mjs']],
    ['outside the workspace', stdio(process.execPath, ['/etc/hostname', '--port', '3000']), []],
  ];
  for (const [what, config, expected] of cases) test(what, () => assert.deepEqual(named(config), expected));

  test('content hashes; absent names recorded as absent; remote servers name nothing', () => {
    const files = launchFiles(ws.root, stdio('node', ['tools/mcp-srv.mjs', '--config', 'later.yaml']));
    assert.match(files['tools/mcp-srv.mjs']!, /^sha256:[0-9a-f]{64}$/);
    assert.equal(files['later.yaml'], ABSENT);
    assert.deepEqual(launchFiles(ws.root, { transport: 'http', url: 'http://h/mcp', headers: {}, alwaysAllow: [], disabled: false } as McpServerConfig), {});
  });

  test('a changed, added or removed file is named; the same bytes are no change', () => {
    const config = stdio('node', ['tools/mcp-srv.mjs', '--config', 'later.yaml']);
    const before = launchFiles(ws.root, config);
    assert.deepEqual(describeFileChanges(before, launchFiles(ws.root, config)), []);
    writeFileSync(path.join(ws.root, 'tools/mcp-srv.mjs'), 'server, modified');
    writeFileSync(path.join(ws.root, 'later.yaml'), 'plugins: [x]');
    assert.deepEqual(describeFileChanges(before, launchFiles(ws.root, config)), ['later.yaml (added)', 'tools/mcp-srv.mjs (changed)']);
    rmSync(path.join(ws.root, 'later.yaml'));
    rmSync(path.join(ws.root, 'tools/mcp-srv.mjs'));
    assert.deepEqual(describeFileChanges(before, launchFiles(ws.root, config)), ['tools/mcp-srv.mjs (removed)']);
    assert.deepEqual(describeFileChanges(undefined, before), [
      'later.yaml (not part of the earlier approval)',
      'tools/mcp-srv.mjs (not part of the earlier approval)',
    ]);
    writeFileSync(path.join(ws.root, 'tools/mcp-srv.mjs'), 'server');
  });

  test('a module the script imports, created later, is an added file (a long-lived check sees it too)', () => {
    const config = stdio('node', ['imp/srv.mjs']);
    const hasher = new FileHasher();
    const before = launchFiles(ws.root, config, hasher);
    assert.equal(before['imp/plugin.mjs'], ABSENT);
    writeFileSync(path.join(ws.root, 'imp/plugin.mjs'), 'evil');
    assert.deepEqual(describeFileChanges(before, launchFiles(ws.root, config, hasher)), ['imp/plugin.mjs (added)']);
    rmSync(path.join(ws.root, 'imp/plugin.mjs'));
  });

  test('the named files are protected paths with their own reason, special characters escaped', () => {
    writeFileSync(path.join(ws.root, 'odd [1]*.mjs'), 'x');
    const globs = mcpProtectedGlobs(ws.root, { local: stdio('node', ['odd [1]*.mjs', '--config', 'cfg.json']) });
    const m = createProtectedMatcher(globs);
    assert.match(m.match('odd [1]*.mjs')?.why ?? '', /MCP server "local" runs it/);
    assert.ok(m.match('cfg.json'));
    assert.ok(m.match('CFG.JSON'), 'case folded like the other protected paths');
    assert.equal(m.match('odd 1x.mjs'), undefined, 'the glob is exact');
    assert.equal(m.match('sub/cfg.json'), undefined, 'and anchored');
  });

  test('after', () => ws.cleanup());
});

describe('patchpilot.mcp.unsandboxedServers: user settings only', () => {
  test('ignored from a workspace, trusted or not; taken from user settings', () => {
    for (const trusted of [true, false]) {
      const r = resolveSettings({ layers: [{ scope: 'workspace', origin: 'ws', values: { 'patchpilot.mcp.unsandboxedServers': ['files'] } }], trusted });
      assert.deepEqual(r.settings.mcp.unsandboxedServers, []);
      assert.match(r.ignored[0]!.reason, /only your user settings .* may set it/);
    }
    const user = resolveSettings({ layers: [{ scope: 'user', origin: 'user', values: { 'patchpilot.mcp.unsandboxedServers': ['files'] } }], trusted: false });
    assert.deepEqual(user.settings.mcp.unsandboxedServers, ['files']);
  });

  test('the CLI reads it from $PATCHPILOT_MCP_UNSANDBOXED (comma-separated), never from .vscode/settings.json', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'pp-unsandboxed-'));
    try {
      const settings = path.join(root, '.vscode');
      mkdirSync(settings);
      writeFileSync(path.join(settings, 'settings.json'), JSON.stringify({ 'patchpilot.mcp.unsandboxedServers': ['planted'] }));
      const c = loadCliConfig({ workspace: root, env: { PATCHPILOT_MCP_UNSANDBOXED: 'files, git' }, flags: {}, trusted: true });
      assert.deepEqual(c.settings.mcp.unsandboxedServers, ['files', 'git']);
      assert.equal(c.ignored[0]!.key, 'patchpilot.mcp.unsandboxedServers');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
