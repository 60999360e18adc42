import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { relatedTestFiles, type TestFileSource } from '../../../src/core/testRuns/related';
import { reportOf, verdictOf, type TestRunReport } from '../../../src/core/testRuns/report';

async function tree(files: Record<string, string>): Promise<{ root: string; source: TestFileSource }> {
  const root = await mkdtemp(path.join(tmpdir(), 'pp-related-'));
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), text);
  }
  return {
    root,
    source: {
      list: async (rel) =>
        (await readdir(path.join(root, rel), { withFileTypes: true })).map((e) => ({ name: e.name, type: e.isDirectory() ? 'directory' : 'file' })),
      read: async (rel) => readFile(path.join(root, rel), 'utf8').catch(() => undefined),
    },
  };
}

const JS = {
  'src/parse.js': 'module.exports = {};\n',
  'src/format.ts': 'export const f = 1;\n',
  'src/util/index.js': 'module.exports = {};\n',
  'test/parse.test.js': "const p = require('../src/parse');\n",
  'test/other.test.js': "const x = require('../src/parser-extra');\n",
  'test/format.spec.ts': "import { f } from '../src/format.js';\n",
  'test/util.test.mjs': "import u from '../src/util';\n",
  'test/fixtures/sample.js': "require('../../src/parse');\n",
  'node_modules/dep/parse.test.js': "require('parse');\n",
  'README.md': '# x\n',
};
const PY = {
  'pkg/__init__.py': '',
  'pkg/core.py': 'def f(): pass\n',
  'pkg/io.py': 'def g(): pass\n',
  'pkg/unused.py': '',
  'tests/test_core.py': 'from pkg.core import f\n',
  'tests/test_both.py': 'from pkg import io, core\n',
  'tests/test_misc.py': 'import os\n',
};

describe('relatedTestFiles on fixture trees', () => {
  const cases: { name: string; files: Record<string, string>; changed: string[]; expect: string[] | undefined }[] = [
    { name: 'a module required by one test file', files: JS, changed: ['src/parse.js'], expect: ['test/parse.test.js'] },
    {
      name: 'an ES import with an extension, and a folder index',
      files: JS,
      changed: ['src/format.ts', 'src/util/index.js'],
      expect: ['test/format.spec.ts', 'test/util.test.mjs'],
    },
    { name: 'an edited test file is its own related test', files: JS, changed: ['test/other.test.js'], expect: ['test/other.test.js'] },
    { name: 'a file no test file names: unknowable', files: JS, changed: ['README.md'], expect: undefined },
    {
      name: 'python: from pkg.core import, and from pkg import core',
      files: PY,
      changed: ['pkg/core.py'],
      expect: ['tests/test_both.py', 'tests/test_core.py'],
    },
    { name: 'python: a module no test imports: unknowable', files: PY, changed: ['pkg/unused.py'], expect: undefined },
    {
      name: 'python: related files that are every test file are the whole suite',
      files: { ...PY, 'tests/test_misc.py': 'from pkg import core\n' },
      changed: ['pkg/core.py'],
      expect: undefined,
    },
    {
      name: 'go: the edited file stands for its package',
      files: { 'go.mod': 'module x\n', 'a/a.go': '', 'a/a_test.go': '' },
      changed: ['a/a.go'],
      expect: ['a/a.go'],
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const { root, source } = await tree(c.files);
      try {
        assert.deepEqual(await relatedTestFiles(c.changed, source), c.expect);
      } finally {
        await rm(root, { recursive: true, force: true });
      }
    });
  }
});

describe('verdictOf: a run measured against the baseline', () => {
  const report = (failing: string[], unnamedFailure = false): TestRunReport => ({ narrowed: false, failing, flaky: [], unnamedFailure, aimedAt: [] });
  test('only pre-existing failures: no "FAILED"', () => {
    assert.equal(verdictOf(report(['test_x']), report(['test_x'])), '1 failure, pre-existing (test_x); no new failures');
  });
  test('a new failure beside a pre-existing one', () => {
    assert.equal(verdictOf(report(['test_x', 'test_y']), report(['test_x'])), 'tests FAILED: 1 new failure (test_y); 1 failure, pre-existing (test_x)');
  });
  test('an unnamed failure as before the run', () => {
    assert.equal(verdictOf(report([], true), report([], true)), 'a command failed without naming a test, as it did before the run; no new failures');
  });
  test('no baseline: plain words', () => {
    assert.equal(verdictOf(report(['a']), undefined), 'tests FAILED');
    assert.equal(verdictOf(reportOf([], { narrowed: false }), undefined), 'tests passed');
  });
});
