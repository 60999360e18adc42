import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { classifyWriteTarget, protectedReason } from '../../../../src/core/policy/command';
import { decodeAnsiC, literalWord } from '../../../../src/core/policy/command/words';

let base: string;
let ws: string;
let home: string;
before(() => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pp-redirects-')));
  ws = path.join(base, 'ws');
  home = path.join(base, 'home');
  mkdirSync(path.join(ws, 'sub'), { recursive: true });
  mkdirSync(home);
  symlinkSync(home, path.join(ws, 'sub', 'out'));
});
after(() => rmSync(base, { recursive: true, force: true }));

const classify = (target: string, cwd = ws) =>
  classifyWriteTarget(literalWord(target), [cwd], { workspaceRoot: ws, homeDir: home }, 'test').map((f) => `${f.verdict} ${f.rule}`);

describe('write target classification', () => {
  test('inside the workspace: nothing to object to', () => {
    assert.deepEqual(classify('out.txt'), []);
    assert.deepEqual(classify('sub/x/y.txt'), []);
    assert.deepEqual(classify('../ws/out.txt', path.join(ws, 'sub')), []);
  });

  test('harmless devices are fine; disks and other devices are system paths', () => {
    for (const t of ['/dev/null', '/dev/stdout', '/dev/stderr']) assert.deepEqual(classify(t), []);
    assert.deepEqual(classify('/dev/sda'), ['deny deny:write-system-path']);
  });

  test('outside: home, temp, system, relative escapes, a symlinked parent', () => {
    assert.deepEqual(classify('~/.bashrc'), ['deny deny:write-outside-workspace']);
    assert.deepEqual(classify('/etc/hosts'), ['deny deny:write-system-path']);
    assert.deepEqual(classify('../escape'), ['deny deny:write-outside-workspace']);
    assert.deepEqual(classify('sub/out/.profile'), ['deny deny:write-outside-workspace']);
    assert.deepEqual(classify('sub/out/new/dir/file'), ['deny deny:write-outside-workspace']);
  });

  test('protected paths ask, in any letter case', () => {
    assert.deepEqual(classify('.git/hooks/pre-commit'), ['ask protected:.git/']);
    assert.deepEqual(classify('.VSCODE/settings.json'), ['ask protected:.vscode/']);
    assert.deepEqual(classify('.env.production'), ['ask protected:.env']);
    assert.equal(protectedReason(ws, path.join(ws, 'src', 'index.ts')), undefined);
    assert.match(protectedReason(ws, path.join(ws, '.cursor', 'mcp.json')) ?? '', /editor|MCP/);
  });

  test('unknown targets ask', () => {
    const f = classifyWriteTarget({ value: '$OUT', raw: '$OUT', dynamic: true, glob: false }, [ws], { workspaceRoot: ws, homeDir: home }, 't');
    assert.equal(f[0]?.rule, 'ask:write-target-unknown');
  });

  test('several possible working directories: the strictest one counts', () => {
    const f = classifyWriteTarget(literalWord('../x'), [ws, path.join(ws, 'sub')], { workspaceRoot: ws, homeDir: home }, 't');
    assert.deepEqual(
      f.map((x) => x.verdict),
      ['deny'],
    );
  });
});

describe('ANSI-C quoting', () => {
  test('hex, octal, unicode and control escapes decode like bash', () => {
    assert.equal(decodeAnsiC('\\x72\\x6d'), 'rm');
    assert.equal(decodeAnsiC('\\162\\155'), 'rm');
    assert.equal(decodeAnsiC('\\u0072m'), 'rm');
    assert.equal(decodeAnsiC('a\\tb\\n'), 'a\tb\n');
    assert.equal(decodeAnsiC("it\\'s"), "it's");
  });
});
