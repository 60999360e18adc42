import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isTestFile, relatedTestFiles, type RelatedTestFiles, type TestFileSource } from '../../../src/core/testRuns/related';
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

/** The files, or undefined when the whole suite runs (its reason checked where it matters). */
const filesOf = (r: RelatedTestFiles): string[] | undefined => ('files' in r ? r.files : undefined);

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
        assert.deepEqual(filesOf(await relatedTestFiles(c.changed, source)), c.expect);
      } finally {
        await rm(root, { recursive: true, force: true });
      }
    });
  }
});

/**
 * node-semver's layout at 7.4.0 (npm/node-semver, the bench task's parent commit): sources in
 * folders at the root, tests mirroring them under test/, each requiring its module by a relative
 * path; same-named modules in two folders (functions/valid.js, ranges/valid.js); fixtures that are
 * not tests. The require lines are the real ones.
 */
const SEMVER = {
  'package.json': '{"scripts":{"test":"tap"}}\n',
  'index.js': "module.exports = { ...require('./functions/diff') }\n",
  'preload.js': "module.exports = require('./index.js')\n",
  'bin/semver.js': "#!/usr/bin/env node\nconst semver = require('../')\n",
  'classes/comparator.js': 'class Comparator {}\n',
  'classes/range.js': "const Comparator = require('./comparator')\n",
  'classes/semver.js': 'class SemVer {}\n',
  'functions/diff.js': "const parse = require('./parse')\n",
  'functions/parse.js': "const SemVer = require('../classes/semver')\n",
  'functions/valid.js': "const parse = require('./parse')\n",
  'ranges/valid.js': "const Range = require('../classes/range')\n",
  'internal/re.js': "const { MAX_SAFE_COMPONENT_LENGTH } = require('./constants')\n",
  'internal/constants.js': 'module.exports = {}\n',
  'test/index.js': "const t = require('tap')\nconst semver = require('../')\nconst { SEMVER_SPEC_VERSION } = require('../internal/constants')\n",
  'test/preload.js': "const t = require('tap')\nconst preload = require('../preload.js')\nconst index = require('../index.js')\n",
  'test/bin/semver.js':
    "const t = require('tap')\nconst thisVersion = require('../../package.json').version\nconst bin = require.resolve('../../bin/semver')\n",
  'test/functions/diff.js': "const { test } = require('tap')\nconst diff = require('../../functions/diff')\n",
  'test/functions/parse.js': "const t = require('tap')\nconst parse = require('../../functions/parse')\n",
  'test/functions/valid.js':
    "const t = require('tap')\nconst valid = require('../../functions/valid')\nconst SemVer = require('../../classes/semver')\nconst invalidVersions = require('../fixtures/invalid-versions')\n",
  'test/ranges/valid.js':
    "const { test } = require('tap')\nconst validRange = require('../../ranges/valid')\nconst rangeParse = require('../fixtures/range-parse.js')\n",
  'test/classes/range.js':
    "const { test } = require('tap')\nconst Range = require('../../classes/range')\nconst Comparator = require('../../classes/comparator')\n",
  'test/classes/comparator.js': "const { test } = require('tap')\nconst Comparator = require('../../classes/comparator')\n",
  'test/classes/semver.js': "const { test } = require('tap')\nconst SemVer = require('../../classes/semver')\n",
  'test/internal/re.js': "const { test } = require('tap')\nconst { src, re } = require('../../internal/re')\nconst semver = require('../../')\n",
  'test/internal/constants.js': "const t = require('tap')\nconst constants = require('../../internal/constants')\n",
  'test/fixtures/invalid-versions.js': 'module.exports = []\n',
  'test/fixtures/range-parse.js': 'module.exports = []\n',
};

describe('relatedTestFiles on a mirrored layout (node-semver)', () => {
  const cases: { changed: string[]; expect: string[] | undefined }[] = [
    { changed: ['functions/diff.js'], expect: ['test/functions/diff.js'] },
    // Same name, other folder: the relative require tells them apart.
    { changed: ['functions/valid.js'], expect: ['test/functions/valid.js'] },
    { changed: ['ranges/valid.js'], expect: ['test/ranges/valid.js'] },
    { changed: ['classes/range.js'], expect: ['test/classes/range.js'] },
    { changed: ['classes/comparator.js'], expect: ['test/classes/comparator.js', 'test/classes/range.js'] },
    { changed: ['internal/re.js'], expect: ['test/internal/re.js'] },
    // require('../'), require('../../') and require('../index.js') all load the root index.
    { changed: ['index.js'], expect: ['test/index.js', 'test/internal/re.js', 'test/preload.js'] },
    {
      changed: ['classes/semver.js', 'functions/diff.js', 'functions/parse.js'],
      expect: ['test/classes/semver.js', 'test/functions/diff.js', 'test/functions/parse.js', 'test/functions/valid.js'],
    },
  ];
  for (const c of cases) {
    test(`${c.changed.join(', ')} -> ${c.expect?.join(', ')}`, async () => {
      const { root, source } = await tree(SEMVER);
      try {
        assert.deepEqual(filesOf(await relatedTestFiles(c.changed, source)), c.expect);
      } finally {
        await rm(root, { recursive: true, force: true });
      }
    });
  }

  test('test files at any depth under test/ are tests; fixtures are not', () => {
    assert.equal(isTestFile('test/functions/diff.js'), true);
    assert.equal(isTestFile('test/bin/semver.js'), true);
    assert.equal(isTestFile('test/fixtures/range-parse.js'), false);
  });

  test('src/x/y.ts is tested by test/x/y.test.ts, and lib/a.js by __tests__/a.js, by path alone', async () => {
    const { root, source } = await tree({
      'src/x/y.ts': 'export const y = 1;\n',
      'lib/a.js': 'module.exports = 1;\n',
      'test/x/y.test.ts': "import { y } from 'pkg/x/y';\n",
      'test/x/z.test.ts': "import { z } from 'pkg/x/z';\n",
      '__tests__/a.js': "const a = require('pkg');\n",
      '__tests__/b.js': "const b = require('pkg/b');\n",
    });
    try {
      assert.deepEqual(filesOf(await relatedTestFiles(['src/x/y.ts'], source)), ['test/x/y.test.ts']);
      assert.deepEqual(filesOf(await relatedTestFiles(['lib/a.js'], source)), ['__tests__/a.js']);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
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

/**
 * Why the whole suite runs is said, and right: "no related tests found" for a module every test
 * loads sent a model looking for tests that were there (the relay runs on minimist and qs). The
 * layouts are the tasks': minimist's tests all `require('../')`; qs's lib/utils.js is loaded by
 * every test file; ms keeps its tests in one root `tests.js`.
 */
describe('relatedTestFiles: the reason the whole suite runs', () => {
  const cases: { name: string; files: Record<string, string>; changed: string[]; whole: RegExp }[] = [
    {
      name: 'every test loads the edited module (minimist: require("../"))',
      files: { 'index.js': '', 'test/a.js': "require('../')\n", 'test/b.js': "var parse = require('../');\n" },
      changed: ['index.js'],
      whole: /^every test file is related to index\.js \(loads it or is named after it\)$/,
    },
    {
      name: 'a module every test file loads (qs: lib/utils.js)',
      files: {
        'lib/utils.js': '',
        'lib/stringify.js': "require('./utils')\n",
        'test/stringify.js': "require('../lib/stringify'); require('../lib/utils');\n",
        'test/parse.js': "var utils = require('../lib/utils');\n",
        'test/utils.js': "var utils = require('../lib/utils');\n",
      },
      changed: ['lib/stringify.js', 'lib/utils.js'],
      whole: /^every test file is related to lib\/stringify\.js, lib\/utils\.js/,
    },
    {
      name: 'a module no test file names',
      files: { 'lib/a.js': '', 'lib/b.js': '', 'test/a.test.js': "require('../lib/a')\n" },
      changed: ['lib/b.js'],
      whole: /^no test file loads lib\/b\.js or is named after it$/,
    },
    {
      name: 'a manifest',
      files: { 'package.json': '{}', 'test/a.test.js': '' },
      changed: ['package.json'],
      whole: /^package\.json is not a module a test file loads/,
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const { root, source } = await tree(c.files);
      try {
        const related = await relatedTestFiles(c.changed, source);
        assert.ok('whole' in related, JSON.stringify(related));
        assert.match(related.whole, c.whole);
      } finally {
        await rm(root, { recursive: true, force: true });
      }
    });
  }

  test('qs: stringify alone runs its own test file (mirrored under test/, the lib/ folder left out)', async () => {
    const { root, source } = await tree({
      'lib/utils.js': '',
      'lib/stringify.js': "require('./utils')\n",
      'test/stringify.js': "require('../lib/stringify');\n",
      'test/parse.js': "require('../lib/parse');\n",
    });
    try {
      assert.deepEqual(await relatedTestFiles(['lib/stringify.js'], source), { files: ['test/stringify.js'] });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  test('a test file named test.js or tests.js anywhere is a test file (ms keeps its tests in tests.js)', () => {
    for (const name of ['tests.js', 'test.js', 'test.mjs', 'pkg/tests.py', 'test.ts']) assert.equal(isTestFile(name), true, name);
    for (const name of ['testing.js', 'lib/contest.js', 'attest.py']) assert.equal(isTestFile(name), false, name);
  });
});
