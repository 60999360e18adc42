import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { readFileTool } from '../../../src/core/tools/readFile';
import { listDirTool } from '../../../src/core/tools/listDir';
import { globTool } from '../../../src/core/tools/glob';
import { fileGlob } from '../../../src/core/tools/globPattern';
import { tempWorkspace, gitInit } from './helpers';
import { fakeToolContext } from '../../support/fakes';

const tools = new ToolRegistry([readFileTool, listDirTool, globTool]);

describe('read_file', () => {
  test('numbers lines, reads ranges, and says how to continue', async () => {
    const ws = tempWorkspace({ 'a.txt': 'one\ntwo\nthree\nfour\n' });
    try {
      const ctx = fakeToolContext(ws.root);
      const all = await tools.invoke('read_file', { path: 'a.txt' }, ctx);
      assert.equal(all.ok, true);
      assert.equal(all.output, 'a.txt (4 lines)\n1\tone\n2\ttwo\n3\tthree\n4\tfour');
      const range = await tools.invoke('read_file', JSON.stringify({ path: './a.txt', start_line: 2, end_line: 3 }), ctx);
      assert.equal(range.output, 'a.txt (lines 2-3 of 4)\n2\ttwo\n3\tthree');
      const past = await tools.invoke('read_file', { path: 'a.txt', start_line: 9 }, ctx);
      assert.equal(past.ok, false);
      assert.match(past.output, /has 4 lines; start_line 9 is past the end/);
    } finally {
      ws.cleanup();
    }
  });

  test('caps a long file at 2000 lines and points at the next line', async () => {
    const ws = tempWorkspace({ 'big.txt': Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`).join('\n') });
    try {
      const r = await tools.invoke('read_file', { path: 'big.txt' }, fakeToolContext(ws.root));
      assert.match(r.output, /^big\.txt \(lines 1-2000 of 2500; no newline at the end of the file\)/);
      assert.match(r.output, /call read_file with start_line=2001 to continue/);
    } finally {
      ws.cleanup();
    }
  });

  test('binary files, directories, missing files and empty files get clear answers', async () => {
    const ws = tempWorkspace({ 'img.png': '\x89PNG\r\n\x1a\n\0\0\0', 'empty.txt': '', 'dir/x.txt': 'x' });
    try {
      const ctx = fakeToolContext(ws.root);
      assert.match((await tools.invoke('read_file', { path: 'img.png' }, ctx)).output, /binary file/);
      assert.match((await tools.invoke('read_file', { path: 'dir' }, ctx)).output, /is a directory; use list_dir/);
      assert.match((await tools.invoke('read_file', { path: 'nope.txt' }, ctx)).output, /no such file/);
      assert.match((await tools.invoke('read_file', { path: 'empty.txt' }, ctx)).output, /empty file/);
    } finally {
      ws.cleanup();
    }
  });

  test('refuses paths outside the workspace, also through a symlink, and .patchpilotignore files', async () => {
    const outside = tempWorkspace({ 'secret.txt': 'TOKEN' });
    const ws = tempWorkspace({ '.env': 'KEY=1', '.patchpilotignore': '.env\nprivate/\n', 'private/notes.md': 'n', 'ok.txt': 'fine' });
    try {
      symlinkSync(outside.root, path.join(ws.root, 'link'));
      symlinkSync(path.join(ws.root, '.env'), path.join(ws.root, 'env-alias'));
      const ctx = fakeToolContext(ws.root);
      for (const p of ['../x', '/etc/passwd', path.join(outside.root, 'secret.txt'), 'link/secret.txt']) {
        const r = await tools.invoke('read_file', { path: p }, ctx);
        assert.equal(r.ok, false, p);
        assert.match(r.output, /outside the workspace/, p);
        assert.doesNotMatch(r.output, /TOKEN/);
      }
      for (const p of ['.env', 'private/notes.md', 'env-alias']) {
        const r = await tools.invoke('read_file', { path: p }, ctx);
        assert.equal(r.ok, false, p);
        assert.match(r.output, /\.patchpilotignore/, p);
      }
      assert.equal((await tools.invoke('read_file', { path: path.join(ws.root, 'ok.txt') }, ctx)).ok, true, 'an absolute path inside is fine');
    } finally {
      ws.cleanup();
      outside.cleanup();
    }
  });
});

describe('registry: arguments are validated, errors are text', () => {
  test('unknown tools, broken JSON and schema violations come back as failed results', async () => {
    const ws = tempWorkspace();
    try {
      const ctx = fakeToolContext(ws.root);
      const unknown = await tools.invoke('rm_rf', {}, ctx);
      assert.equal(unknown.ok, false);
      assert.match(unknown.output, /unknown tool "rm_rf". Available tools: read_file, list_dir, glob/);
      assert.match((await tools.invoke('read_file', '{"path": ', ctx)).output, /not valid JSON/);
      assert.match((await tools.invoke('read_file', '[1]', ctx)).output, /must be a JSON object/);
      assert.match((await tools.invoke('read_file', { path: 1 }, ctx)).output, /path must be string/);
      assert.match((await tools.invoke('read_file', {}, ctx)).output, /missing required argument "path"/);
      assert.match((await tools.invoke('read_file', { path: 'a', mode: 'x' }, ctx)).output, /unknown argument "mode"/);
      assert.match((await tools.invoke('read_file', { path: 'a', start_line: 0 }, ctx)).output, /start_line must be >= 1/);
    } finally {
      ws.cleanup();
    }
  });

  test('cancellation is the one thing that propagates', async () => {
    const ws = tempWorkspace({ 'a.txt': 'a' });
    try {
      const controller = new AbortController();
      controller.abort();
      await assert.rejects(tools.invoke('read_file', { path: 'a.txt' }, fakeToolContext(ws.root, { signal: controller.signal })));
    } finally {
      ws.cleanup();
    }
  });
});

describe('list_dir and glob', () => {
  const files = {
    '.gitignore': 'dist/\n*.log\n',
    '.patchpilotignore': 'secrets/\n',
    'src/a.ts': '',
    'src/deep/b.ts': '',
    'src/deep/c.test.ts': '',
    'dist/out.js': '',
    'debug.log': '',
    'secrets/key.pem': '',
    'README.md': '',
  };

  for (const repo of [true, false]) {
    test(`leave out gitignored and agent-ignored files (${repo ? 'git repository' : 'plain folder'})`, async () => {
      const ws = tempWorkspace(files);
      try {
        if (repo) gitInit(ws.root);
        const ctx = fakeToolContext(ws.root);
        const tree = await tools.invoke('list_dir', { depth: 3 }, ctx);
        assert.equal(tree.output, ['./', 'src/', '  deep/', '    b.ts', '    c.test.ts', '  a.ts', '.gitignore', '.patchpilotignore', 'README.md'].join('\n'));
        const shallow = await tools.invoke('list_dir', { path: 'src', depth: 1 }, ctx);
        assert.equal(shallow.output, 'src/\ndeep/\na.ts');
        const ts = await tools.invoke('glob', { pattern: '*.ts' }, ctx);
        assert.equal(ts.output, 'src/a.ts\nsrc/deep/b.ts\nsrc/deep/c.test.ts');
        assert.equal((await tools.invoke('glob', { pattern: 'src/**/*.test.ts' }, ctx)).output, 'src/deep/c.test.ts');
        assert.equal((await tools.invoke('glob', { pattern: '**/*.{js,pem,log}' }, ctx)).output, 'no files match **/*.{js,pem,log}');
      } finally {
        ws.cleanup();
      }
    });
  }

  test('list_dir on a file or outside the workspace says so', async () => {
    const ws = tempWorkspace({ 'a.txt': '' });
    try {
      const ctx = fakeToolContext(ws.root);
      assert.match((await tools.invoke('list_dir', { path: 'a.txt' }, ctx)).output, /is a file/);
      assert.match((await tools.invoke('list_dir', { path: tmpdir() }, ctx)).output, /outside the workspace/);
    } finally {
      ws.cleanup();
    }
  });

  test('a git repository lists untracked files but not deleted ones', async () => {
    const ws = tempWorkspace({ 'keep.ts': '', 'gone.ts': '' });
    try {
      gitInit(ws.root);
      writeFileSync(path.join(ws.root, 'new.ts'), '');
      mkdirSync(path.join(ws.root, 'sub'));
      writeFileSync(path.join(ws.root, 'sub', 'x.ts'), '');
      const { rmSync } = await import('node:fs');
      rmSync(path.join(ws.root, 'gone.ts'));
      assert.equal((await tools.invoke('glob', { pattern: '*.ts' }, fakeToolContext(ws.root))).output, 'keep.ts\nnew.ts\nsub/x.ts');
    } finally {
      ws.cleanup();
    }
  });
});

describe('fileGlob', () => {
  const cases: [string, string, boolean][] = [
    ['*.ts', 'a.ts', true],
    ['*.ts', 'src/x/a.ts', true],
    ['*.ts', 'a.tsx', false],
    ['src/*.ts', 'src/a.ts', true],
    ['src/*.ts', 'src/x/a.ts', false],
    ['src/**/*.ts', 'src/a.ts', true],
    ['src/**/*.ts', 'src/x/y/a.ts', true],
    ['src/**', 'src/x/y', true],
    ['a?.md', 'ab.md', true],
    ['a?.md', 'a/.md', false],
    ['[ab].txt', 'b.txt', true],
    ['[!ab].txt', 'b.txt', false],
    ['{x,y}/*.js', 'y/a.js', true],
    ['file.name+1.txt', 'file.name+1.txt', true],
    ['file.name+1.txt', 'fileXname+1.txt', false],
  ];
  for (const [pattern, file, expected] of cases) {
    test(`${pattern} ${expected ? 'matches' : 'does not match'} ${file}`, () => {
      assert.equal(fileGlob(pattern).test(file), expected);
    });
  }
  test('an unbalanced brace is an error, not a silent miss', () => {
    assert.throws(() => fileGlob('{a,b'), /unbalanced/);
  });
});
