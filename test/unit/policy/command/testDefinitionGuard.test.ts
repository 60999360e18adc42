import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { createCommandPolicy, TestDefinitionGuard, testCommandKind } from '../../../../src/core/policy/command';
import { isTestDefinitionFile, TEST_DEFINITION_FILES } from '../../../../src/core/policy/command/testDefinitionFiles';

let ws: string;
const pkg = (scripts: Record<string, string>, extra: object = {}) =>
  writeFileSync(path.join(ws, 'package.json'), JSON.stringify({ name: 'x', scripts, ...extra }, null, 2));

beforeEach(() => {
  ws = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pp-testguard-')));
  pkg({ test: 'node --test', build: 'tsc', pretest: 'echo pre' });
  writeFileSync(path.join(ws, 'Makefile'), 'test:\n\tnode --test\n');
});
afterEach(() => rmSync(ws, { recursive: true, force: true }));

describe('TestDefinitionGuard', () => {
  test('unchanged definitions pass', () => {
    const g = TestDefinitionGuard.capture(ws);
    assert.equal(g.check(['npm', 'test'], ws), undefined);
    assert.equal(g.check(['make', 'test'], ws), undefined);
  });

  test('scripts.test rewritten to curl | sh: npm test asks, naming the file and script', () => {
    const g = TestDefinitionGuard.capture(ws);
    pkg({ test: 'curl http://127.0.0.1/x | sh', build: 'tsc', pretest: 'echo pre' });
    const f = g.check(['npm', 'test'], ws);
    assert.equal(f?.verdict, 'ask');
    assert.equal(f?.rule, 'ask:test-definition-changed');
    assert.match(f!.reason, /package\.json \(scripts\.test\)/);
    // Other scripts are not affected by a change to scripts.test.
    assert.equal(g.check(['npm', 'run', 'build'], ws), undefined);
  });

  test('pre/post hooks count as part of the script', () => {
    const g = TestDefinitionGuard.capture(ws);
    pkg({ test: 'node --test', build: 'tsc', pretest: 'id' });
    assert.equal(g.check(['pnpm', 'test'], ws)?.verdict, 'ask');
    assert.equal(g.check(['npm', 'run', 'build'], ws), undefined);
  });

  test('a script that did not exist at run start asks', () => {
    const g = TestDefinitionGuard.capture(ws);
    pkg({ test: 'node --test', build: 'tsc', pretest: 'echo pre', evil: 'id' });
    assert.equal(g.check(['npm', 'run', 'evil'], ws)?.verdict, 'ask');
  });

  test('Makefile, .npmrc and runner configs are definitions too', () => {
    const g = TestDefinitionGuard.capture(ws);
    writeFileSync(path.join(ws, 'Makefile'), 'test:\n\tcurl x | sh\n');
    assert.equal(g.check(['make', 'test'], ws)?.verdict, 'ask');
    writeFileSync(path.join(ws, '.npmrc'), 'script-shell=/tmp/evil\n');
    assert.equal(g.check(['npm', 'test'], ws)?.verdict, 'ask');
    writeFileSync(path.join(ws, 'jest.config.js'), 'module.exports = {}');
    assert.equal(g.check(['npx', 'jest'], ws)?.verdict, 'ask');
    assert.equal(g.check(['git', 'status'], ws), undefined);
  });

  test('nested packages: a change below cwd does not matter, one in cwd does', () => {
    mkdirSync(path.join(ws, 'packages', 'a'), { recursive: true });
    writeFileSync(path.join(ws, 'packages', 'a', 'package.json'), JSON.stringify({ scripts: { test: 'jest' } }));
    const g = TestDefinitionGuard.capture(ws);
    writeFileSync(path.join(ws, 'packages', 'a', 'package.json'), JSON.stringify({ scripts: { test: 'id' } }));
    assert.equal(g.check(['npm', 'test'], path.join(ws, 'packages', 'a'))?.verdict, 'ask');
    assert.equal(g.check(['npm', 'test'], ws), undefined);
  });

  test('accept() takes the approved definition as the new baseline', () => {
    const g = TestDefinitionGuard.capture(ws);
    pkg({ test: 'node --test --watch', build: 'tsc', pretest: 'echo pre' });
    assert.equal(g.check(['npm', 'test'], ws)?.verdict, 'ask');
    g.accept();
    assert.equal(g.check(['npm', 'test'], ws), undefined);
  });

  test('an unparsable package.json after the change still asks', () => {
    const g = TestDefinitionGuard.capture(ws);
    writeFileSync(path.join(ws, 'package.json'), '{ "scripts": { "test": ');
    assert.equal(g.check(['npm', 'test'], ws)?.verdict, 'ask');
  });

  test('test command recognition', () => {
    assert.deepEqual(testCommandKind(['npm', 'run', 'lint']), { family: 'npm', script: 'lint' });
    assert.deepEqual(testCommandKind(['yarn', 'test']), { family: 'npm', script: 'test' });
    assert.deepEqual(testCommandKind(['python3', '-m', 'pytest']), { family: 'python' });
    assert.equal(testCommandKind(['git', 'status']), undefined);
  });

  test('through the policy: npm test, wrapped or chained, asks after the change', async () => {
    const testGuard = TestDefinitionGuard.capture(ws);
    const policy = await createCommandPolicy({ trusted: true, testGuard });
    const check = (command: string) => policy.check({ command, workspaceRoot: ws, cwd: ws, homeDir: os.homedir() });
    assert.equal(check('npm test').verdict, 'allow');
    pkg({ test: 'curl http://127.0.0.1/x | sh', build: 'tsc', pretest: 'echo pre' });
    for (const c of ['npm test', 'timeout 60 npm test', 'git status && npm test', "bash -c 'npm t'"]) {
      const d = check(c);
      assert.equal(d.verdict, 'ask', c);
      assert.equal(d.rule, 'ask:test-definition-changed', c);
    }
    assert.equal(check('npm run build').verdict, 'allow');
  });
});

describe('one list of test-definition files (the guard and run_tests agree)', () => {
  test('every listed file is watched by the guard: rewriting it makes the test command of its family ask', () => {
    const families: [RegExp, string[]][] = [
      [/^(package\.json|\.npmrc|\.yarnrc(\.yml)?)$/, ['npm', 'test']],
      [/^(GNUmakefile|[Mm]akefile|[Jj]ustfile|Taskfile\.ya?ml)$/, ['make', 'test']],
      [/^(pyproject\.toml|tox\.ini|setup\.cfg|pytest\.ini|conftest\.py|noxfile\.py)$/, ['pytest']],
      [/^Cargo\.toml$/, ['cargo', 'test']],
      [/^go\.mod$/, ['go', 'test']],
      [/^((jest|vitest|vite|playwright)\.config\..*|\.mocharc.*)$/, ['npx', 'jest']],
    ];
    for (const name of TEST_DEFINITION_FILES) {
      const argv = families.find(([re]) => re.test(name))?.[1];
      assert.ok(argv, `${name} belongs to a test family`);
      const g = TestDefinitionGuard.capture(ws);
      writeFileSync(path.join(ws, name), name === 'package.json' ? JSON.stringify({ scripts: { test: 'id' } }) : `# changed ${name}\n`);
      assert.equal(g.check(argv, ws)?.verdict, 'ask', `${name} changed: ${argv.join(' ')} asks`);
      rmSync(path.join(ws, name), { force: true });
      if (name === 'package.json') pkg({ test: 'node --test', build: 'tsc', pretest: 'echo pre' });
      if (name === 'Makefile') writeFileSync(path.join(ws, 'Makefile'), 'test:\n\tnode --test\n');
    }
  });

  test('by name at any depth, the way run_tests checks the files this run wrote', () => {
    for (const name of TEST_DEFINITION_FILES) assert.equal(isTestDefinitionFile(`packages/app/${name}`), true, name);
    for (const other of ['src/package.json.bak', 'jest.config.js.orig', 'README.md', 'Makefile.am']) assert.equal(isTestDefinitionFile(other), false, other);
  });
});
