import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { checkPath, createIgnoreFilter, isCaseInsensitive, type PathOperation } from '../../../../src/core/policy/path';
import { makeFixture, type Fixture } from './fixture';

let fx: Fixture;
before(() => {
  fx = makeFixture();
  fx.file('src/a.ts', 'export {}');
  fx.file('package.json', '{}');
  fx.file('.vscode/settings.json', '{}');
  fx.file('.git/config', '[core]');
  fx.file('.git/hooks/pre-commit.sample');
  fx.file('.env', 'SECRET=1');
  fx.file('docs/mcp.json', '{}');
  fx.file('deep/x/y.txt');
  const ws = fx.ws;
  symlinkSync(fx.outside, path.join(ws, 'out-dir')); // directory link leading out
  symlinkSync(path.join(fx.outside, 'id_rsa'), path.join(ws, 'key')); // file link leading out
  symlinkSync('../outside/aws', path.join(ws, 'aws')); // relative link leading out (~/.aws)
  symlinkSync(path.join(fx.outside, 'not-yet'), path.join(ws, 'dangling')); // dangling link leading out
  symlinkSync('deep', path.join(ws, 'chain1')); // chain: chain1 -> deep, deep/up -> ../out-dir
  symlinkSync('../out-dir', path.join(ws, 'deep', 'up'));
  symlinkSync('src', path.join(ws, 'src-link')); // link staying inside
  symlinkSync('.vscode', path.join(ws, 'cfg')); // symlinked parent of a protected file
  symlinkSync('.env', path.join(ws, 'innocent.txt')); // link to a protected file
  symlinkSync('loop2', path.join(ws, 'loop1'));
  symlinkSync('loop1', path.join(ws, 'loop2'));
  linkSync(path.join(fx.outside, 'id_rsa'), path.join(ws, 'hardlink')); // hard link to a file outside
});
after(() => fx.cleanup());

const check = (p: string, operation: PathOperation = 'read', extra: Record<string, unknown> = {}) =>
  checkPath({ workspaceRoot: fx.ws, path: p, operation, ...extra });

describe('confinement to the workspace, on real paths', () => {
  const denied: [string, PathOperation, string][] = [
    ['../../.ssh/id_rsa', 'read', 'deny:outside-workspace'],
    ['../outside/id_rsa', 'read', 'deny:outside-workspace'],
    ['/etc/passwd', 'read', 'deny:outside-workspace'],
    ['/etc/hosts', 'write', 'deny:outside-workspace'],
    ['~/.aws/credentials', 'read', 'deny:outside-workspace'],
    ['src/../../outside/id_rsa', 'read', 'deny:outside-workspace'],
    ['key', 'read', 'deny:symlink-escape'],
    ['key', 'write', 'deny:symlink-escape'],
    ['out-dir/id_rsa', 'read', 'deny:symlink-escape'],
    ['out-dir/new-file', 'create', 'deny:symlink-escape'],
    ['out-dir', 'list', 'deny:symlink-escape'],
    ['aws/credentials', 'read', 'deny:symlink-escape'],
    ['aws', 'search', 'deny:symlink-escape'],
    ['dangling', 'create', 'deny:symlink-escape'],
    ['chain1/up/id_rsa', 'read', 'deny:symlink-escape'],
    ['deep/up/aws/credentials', 'read', 'deny:symlink-escape'],
    ['out-dir/../ws/src/a.ts', 'read', 'allow:workspace-read'], // kernel semantics: out-dir/.. is "base"
    ['loop1', 'read', 'deny:symlink-loop'],
    ['', 'read', 'deny:invalid-path'],
    ['src/a\0.ts', 'read', 'deny:invalid-path'],
  ];
  for (const [p, op, rule] of denied) {
    test(`${op} ${JSON.stringify(p)} -> ${rule}`, async () => {
      const d = await check(p, op);
      assert.equal(d.rule, rule, d.reason);
      assert.equal(d.verdict, rule.startsWith('allow') ? 'allow' : 'deny');
    });
  }
  test('relative, absolute and symlinked-inside paths are allowed with their real path', async () => {
    const a = await check('src/a.ts');
    assert.deepEqual([a.verdict, a.realPath, a.relativePath, a.exists], ['allow', path.join(fx.ws, 'src/a.ts'), 'src/a.ts', true]);
    const abs = await check(path.join(fx.ws, 'src/a.ts'), 'write');
    assert.equal(abs.verdict, 'allow');
    const viaLink = await check('src-link/a.ts', 'write');
    assert.equal(viaLink.verdict, 'allow');
    assert.equal(viaLink.relativePath, 'src/a.ts');
    const fresh = await check('new/dir/file.ts', 'create');
    assert.deepEqual([fresh.verdict, fresh.exists, fresh.relativePath], ['allow', false, 'new/dir/file.ts']);
    const dotdot = await check('src/../package.json', 'write');
    assert.equal(dotdot.relativePath, 'package.json');
  });
  test('a workspace root given through a symlink still works', async () => {
    symlinkSync(fx.ws, path.join(fx.base, 'ws-link'));
    const d = await checkPath({ workspaceRoot: path.join(fx.base, 'ws-link'), path: 'src/a.ts', operation: 'read' });
    assert.equal(d.verdict, 'allow');
    const abs = await checkPath({ workspaceRoot: path.join(fx.base, 'ws-link'), path: path.join(fx.base, 'ws-link', 'src/a.ts'), operation: 'write' });
    assert.equal(abs.verdict, 'allow');
  });
  test('hard links: a write asks (the other name may be outside), read and delete do not', async () => {
    const w = await check('hardlink', 'write');
    assert.deepEqual([w.verdict, w.rule], ['ask', 'ask:hard-link']);
    assert.match(w.reason, /2 hard links/);
    assert.equal((await check('hardlink', 'create')).verdict, 'ask');
    assert.equal((await check('hardlink', 'read')).verdict, 'allow');
    assert.equal((await check('hardlink', 'delete')).verdict, 'allow');
  });
  test('special files and directories', async () => {
    execFileSync('mkfifo', [path.join(fx.ws, 'pipe')]);
    assert.equal((await check('pipe', 'read')).rule, 'deny:special-file');
    assert.equal((await check('src', 'write')).rule, 'deny:is-directory');
    assert.equal((await check('.', 'delete')).rule, 'deny:workspace-root');
    assert.equal((await check('src', 'list')).verdict, 'allow');
  });
  test('the case probe sees this file system as case-sensitive', async () => {
    assert.equal(await isCaseInsensitive(fx.ws), false);
  });
});

describe('protected paths always ask before a change', () => {
  const asks: [string, PathOperation][] = [
    ['.vscode/settings.json', 'write'],
    ['.vscode/tasks.json', 'create'],
    ['.vscode/launch.json', 'create'],
    ['.vscode/mcp.json', 'create'],
    ['.vscode/extensions.json', 'delete'],
    ['.git/config', 'write'],
    ['.git/hooks/pre-commit', 'create'],
    ['.git/hooks/pre-commit.sample', 'delete'],
    ['vendor/lib/.git/config', 'create'],
    ['.gitmodules', 'create'],
    ['.patchpilot/config.json', 'create'],
    ['.patchpilot/history.sqlite', 'write'],
    ['.patchpilotignore', 'create'],
    ['.mcp.json', 'create'],
    ['mcp.json', 'create'],
    ['.cursor/mcp.json', 'create'],
    ['.claude/settings.json', 'create'],
    ['.env', 'write'],
    ['.env.local', 'create'],
    ['config/.env.production', 'create'],
    ['.envrc', 'create'],
    ['.github/workflows/ci.yml', 'create'],
    ['.husky/pre-commit', 'create'],
    ['.npmrc', 'create'],
    ['team.code-workspace', 'create'],
    ['.devcontainer/devcontainer.json', 'create'],
    ['.gitignore', 'create'],
    // case and Windows alias variants (CVE-2025-59944)
    ['.VSCode/settings.json', 'create'],
    ['.vscode/SETTINGS.JSON', 'write'],
    ['.GIT/config', 'create'],
    ['.Git/Hooks/post-checkout', 'create'],
    ['.ENV', 'create'],
    ['.vscode./settings.json', 'create'],
    ['.vscode /tasks.json', 'create'],
    ['.git::$INDEX_ALLOCATION/config', 'create'],
    ['.MCP.JSON', 'create'],
    ['.GitHub/Workflows/x.yml', 'create'],
    // through links: symlinked parent, link to a protected file
    ['cfg/settings.json', 'write'],
    ['cfg/tasks.json', 'create'],
    ['innocent.txt', 'write'],
    // a directory that holds protected files
    ['.git', 'delete'],
    ['.vscode', 'delete'],
  ];
  for (const [p, op] of asks) {
    test(`${op} ${p} -> ask`, async () => {
      const d = await check(p, op);
      assert.equal(d.verdict, 'ask', `${d.rule}: ${d.reason}`);
      assert.match(d.rule, /^protected:/);
    });
  }
  test('deleting a folder that contains a protected path asks', async () => {
    fx.file('vendor2/pkg/.git/HEAD');
    const d = await check('vendor2', 'delete');
    assert.equal(d.verdict, 'ask');
    assert.match(d.reason, /vendor2\/pkg\/\.git/);
  });
  test('reads of protected paths and ordinary changes are not asked', async () => {
    for (const p of ['.vscode/settings.json', '.git/config', '.env']) assert.equal((await check(p, 'read')).verdict, 'allow', p);
    for (const p of ['src/a.ts', 'package.json', 'docs/mcp.json', '.github/README.md', 'src/env.ts', 'git/config', 'vscode/settings.json']) {
      assert.equal((await check(p, 'write')).verdict, 'allow', p);
    }
  });
  test('settings: extra protected globs ask, denyPaths deny (trust filtering: test/unit/config)', async () => {
    const settings = { protectedPaths: ['Makefile'], denyPaths: ['secrets/**'] };
    assert.equal((await check('makefile', 'write', { settings })).rule, 'protected:Makefile');
    assert.equal((await check('secrets/db.txt', 'read', { settings })).rule, 'deny:denyPaths');
    assert.equal((await check('SECRETS/db.txt', 'read', { settings })).rule, 'deny:denyPaths');
    // Settings only ever add strictness: a protected default cannot be removed.
    assert.equal((await check('.git/config', 'write', { settings: { protectedPaths: ['!.git'], denyPaths: [] } })).verdict, 'ask');
  });
});

describe('.patchpilotignore blocks reads, edits, grep and glob', () => {
  let isIgnored: (p: string, d?: boolean) => boolean;
  before(() => {
    writeFileSync(
      path.join(fx.ws, '.patchpilotignore'),
      ['# secrets', '.env', 'private/', '*.pem', '!public.pem', '/build', 'logs/**/*.log', '!logs/keep/**'].join('\n'),
    );
    fx.file('private/notes.md');
    fx.file('certs/server.pem');
    fx.file('certs/public.pem');
    fx.file('build/out.js');
    fx.file('src/build/keep.ts');
    fx.file('logs/a/b/x.log');
    fx.file('logs/keep/y.log');
    mkdirSync(path.join(fx.ws, 'sub'), { recursive: true });
    fx.file('sub/.env');
    symlinkSync('private/notes.md', path.join(fx.ws, 'alias.md'));
    isIgnored = createIgnoreFilter(fx.ws).isIgnored;
  });
  const blocked: [string, PathOperation][] = [
    ['.env', 'read'],
    ['.env', 'search'],
    ['.ENV', 'read'],
    ['sub/.env', 'read'],
    ['private', 'list'],
    ['private/notes.md', 'read'],
    ['private/notes.md', 'write'],
    ['private/new.md', 'create'],
    ['certs/server.pem', 'search'],
    ['build/out.js', 'read'],
    ['logs/a/b/x.log', 'read'],
    ['alias.md', 'read'], // a link to an ignored file
    ['innocent.txt', 'read'], // a link to .env
  ];
  for (const [p, op] of blocked) {
    test(`${op} ${p} -> deny`, async () => {
      const d = await check(p, op, { isIgnored });
      assert.equal(d.rule, 'deny:patchpilotignore', d.reason);
    });
  }
  test('negations and anchors are honoured', async () => {
    for (const p of ['certs/public.pem', 'src/build/keep.ts', 'logs/keep/y.log', 'src/a.ts']) {
      assert.equal((await check(p, 'read', { isIgnored })).verdict, 'allow', p);
    }
  });
  test('the ignore file itself cannot be changed without approval', async () => {
    const d = await check('.patchpilotignore', 'write', { isIgnored });
    assert.deepEqual([d.verdict, d.rule], ['ask', 'protected:.patchpilotignore']);
  });
});
