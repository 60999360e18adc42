import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { detectTestCommand, diskProbe } from '../../../src/core/testRuns/detection';

/** Each row: the files of a fresh folder, and the command (and its source) detection must find. */
const CASES: { name: string; files: Record<string, string>; expect?: { command: string; source: string } }[] = [
  {
    name: 'package.json test script, no lockfile',
    files: { 'package.json': '{"scripts":{"test":"node --test"}}' },
    expect: { command: 'npm test', source: 'package.json' },
  },
  {
    name: 'npm lockfile',
    files: { 'package.json': '{"scripts":{"test":"jest"}}', 'package-lock.json': '{}' },
    expect: { command: 'npm test', source: 'package.json' },
  },
  {
    name: 'pnpm lockfile',
    files: { 'package.json': '{"scripts":{"test":"vitest run"}}', 'pnpm-lock.yaml': '' },
    expect: { command: 'pnpm test', source: 'package.json' },
  },
  {
    name: 'yarn lockfile',
    files: { 'package.json': '{"scripts":{"test":"jest"}}', 'yarn.lock': '' },
    expect: { command: 'yarn test', source: 'package.json' },
  },
  {
    name: "bun lockfile runs the script, not bun's runner",
    files: { 'package.json': '{"scripts":{"test":"vitest"}}', 'bun.lockb': '' },
    expect: { command: 'bun run test', source: 'package.json' },
  },
  {
    name: 'corepack packageManager without a lockfile',
    files: { 'package.json': '{"packageManager":"pnpm@9.1.0","scripts":{"test":"vitest"}}' },
    expect: { command: 'pnpm test', source: 'package.json' },
  },
  { name: "npm's placeholder is no test command", files: { 'package.json': '{"scripts":{"test":"echo \\"Error: no test specified\\" && exit 1"}}' } },
  { name: 'package.json without scripts', files: { 'package.json': '{"name":"x"}' } },
  { name: 'broken package.json', files: { 'package.json': '{"scripts":' } },
  {
    name: 'placeholder script falls through to a Makefile',
    files: { 'package.json': '{"scripts":{"test":"echo \\"Error: no test specified\\" && exit 1"}}', Makefile: 'test:\n\tnode --test\n' },
    expect: { command: 'make test', source: 'Makefile' },
  },
  { name: 'pytest.ini', files: { 'pytest.ini': '[pytest]\n' }, expect: { command: 'python -m pytest', source: 'pytest.ini' } },
  {
    name: 'pyproject with tool.pytest.ini_options',
    files: { 'pyproject.toml': '[project]\nname="x"\n\n[tool.pytest.ini_options]\naddopts="-q"\n' },
    expect: { command: 'python -m pytest', source: 'pyproject.toml' },
  },
  { name: 'pyproject without pytest', files: { 'pyproject.toml': '[project]\nname="x"\n' } },
  {
    name: 'tox.ini with a tox section: tox, not bare pytest',
    files: { 'tox.ini': '[tox]\n\n[pytest]\ntestpaths=tests\n' },
    expect: { command: 'tox', source: 'tox.ini' },
  },
  {
    name: 'tox.ini with only a pytest section',
    files: { 'tox.ini': '[pytest]\ntestpaths=tests\n' },
    expect: { command: 'python -m pytest', source: 'tox.ini' },
  },
  {
    name: 'tox section in setup.cfg wins over its pytest section',
    files: { 'setup.cfg': '[tool:pytest]\n\n[tox:tox]\nenvlist = py3\n' },
    expect: { command: 'tox', source: 'setup.cfg' },
  },
  {
    name: 'pyproject [tool.tox]',
    files: { 'pyproject.toml': '[tool.pytest.ini_options]\n\n[tool.tox]\nlegacy_tox_ini = ""\n' },
    expect: { command: 'tox', source: 'pyproject.toml' },
  },
  { name: 'noxfile.py', files: { 'noxfile.py': 'import nox\n', 'pytest.ini': '[pytest]\n' }, expect: { command: 'nox', source: 'noxfile.py' } },
  {
    name: "the CI workflow's test step in a run block, over a pytest folder",
    files: {
      '.github/workflows/ci.yml':
        'on: push\njobs:\n  test:\n    steps:\n      - uses: actions/checkout@v4\n      - run: pip install -e .\n      - name: Test\n        run: |\n          python -m pip install pytest\n          python -m pytest --doctest-modules src tests\n',
      'tests/test_app.py': 'def test_x(): pass\n',
    },
    expect: { command: 'python -m pytest --doctest-modules src tests', source: '.github/workflows/ci.yml' },
  },
  {
    name: 'a CI line that needs the matrix is passed over for the next',
    files: { '.github/workflows/t.yaml': 'jobs:\n  t:\n    steps:\n      - run: tox -e ${{ matrix.env }}\n      - run: "go test -race ./..."\n' },
    expect: { command: 'go test -race ./...', source: '.github/workflows/t.yaml' },
  },
  {
    name: 'a Makefile test target wins over the CI step',
    files: { Makefile: 'test:\n\tpytest\n', '.github/workflows/ci.yml': 'jobs:\n  t:\n    steps:\n      - run: pytest -x\n' },
    expect: { command: 'make test', source: 'Makefile' },
  },
  {
    name: 'setup.cfg tool:pytest section',
    files: { 'setup.cfg': '[metadata]\n[tool:pytest]\n' },
    expect: { command: 'python -m pytest', source: 'setup.cfg' },
  },
  {
    name: 'tests folder with test_*.py',
    files: { 'tests/test_app.py': 'def test_x(): pass\n', 'app.py': '' },
    expect: { command: 'python -m pytest', source: 'tests/' },
  },
  { name: 'tests folder without python tests', files: { 'tests/readme.txt': '' } },
  { name: 'Cargo.toml', files: { 'Cargo.toml': '[package]\nname="x"\n' }, expect: { command: 'cargo test', source: 'Cargo.toml' } },
  { name: 'go.mod', files: { 'go.mod': 'module x\n' }, expect: { command: 'go test ./...', source: 'go.mod' } },
  {
    name: 'Makefile with a test target',
    files: { Makefile: 'build:\n\tcc x.c\n\ntest: build\n\t./run\n' },
    expect: { command: 'make test', source: 'Makefile' },
  },
  { name: 'Makefile without one (a variable named test is none)', files: { Makefile: 'test := 1\nbuild:\n\tcc x.c\n' } },
  {
    name: 'justfile recipe with arguments',
    files: { justfile: 'default:\n  just --list\n\ntest *args:\n  cargo nextest {{args}}\n' },
    expect: { command: 'just test', source: 'justfile' },
  },
  { name: 'justfile assignment is no recipe', files: { justfile: 'test := "x"\nbuild:\n  echo\n' } },
  {
    name: 'Taskfile test task',
    files: { 'Taskfile.yml': "version: '3'\n\ntasks:\n  build:\n    cmds:\n      - go build\n  test:\n    cmds:\n      - go test\n" },
    expect: { command: 'task test', source: 'Taskfile.yml' },
  },
  { name: 'Taskfile whose test is only a nested key', files: { 'Taskfile.yml': "version: '3'\ntasks:\n  build:\n    test: x\n    cmds: [go build]\n" } },
  {
    name: 'Gradle with a wrapper',
    files: { 'build.gradle.kts': '', gradlew: '#!/bin/sh\n' },
    expect: { command: './gradlew test', source: 'build.gradle.kts' },
  },
  { name: 'Gradle without one', files: { 'build.gradle': '' }, expect: { command: 'gradle test', source: 'build.gradle' } },
  { name: 'Maven', files: { 'pom.xml': '<project/>' }, expect: { command: 'mvn test', source: 'pom.xml' } },
  { name: '.NET solution', files: { 'App.sln': '' }, expect: { command: 'dotnet test', source: 'App.sln' } },
  { name: '.NET project', files: { 'App.csproj': '<Project/>' }, expect: { command: 'dotnet test', source: 'App.csproj' } },
  {
    name: 'package.json script wins over the Makefile that wraps it',
    files: { 'package.json': '{"scripts":{"test":"node --test"}}', Makefile: 'test:\n\tnpm test\n' },
    expect: { command: 'npm test', source: 'package.json' },
  },
  { name: 'an empty folder', files: {} },
];

describe('detectTestCommand over fixture folders', () => {
  for (const c of CASES) {
    test(c.name, async () => {
      const root = await mkdtemp(path.join(tmpdir(), 'pp-detect-'));
      try {
        for (const [rel, text] of Object.entries(c.files)) {
          await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
          await writeFile(path.join(root, rel), text);
        }
        const found = await detectTestCommand(diskProbe(root));
        assert.deepEqual(found && { command: found.command, source: found.source }, c.expect);
        if (found) assert.ok(found.reason, 'it says why it chose the command');
      } finally {
        await rm(root, { recursive: true, force: true });
      }
    });
  }
});
