// A narrowed run_tests that a runner ignores (a glob before the file argument, a flag it lacks) runs
// the whole suite: it is said as such and counts as a whole run, never labelled "part of the suite".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { runConfiguredTests, runnerOf, runTestsTool } from '../../../src/core/tools/runTests';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempWorkspace } from './helpers';
import { fakeToolContext, settingsWith } from '../../support/fakes';

const tools = new ToolRegistry([runTestsTool]);
// TAP output with tape's trailer; `picky.js` runs one test when given a file, `deaf.js` ignores its arguments.
const TAP = (n: number) =>
  `console.log('TAP version 13'); for (let i = 1; i <= ${n}; i++) console.log('ok ' + i + ' - t' + i); console.log('1..${n}'); console.log('# tests ${n}'); console.log('# pass  ${n}');`;
const PICKY = `if (process.argv.length > 2) { ${TAP(1)} } else { ${TAP(3)} }\n`;
const DEAF = `${TAP(3)}\n`;

for (const [script, narrows] of [
  ['picky.js', true],
  ['deaf.js', false],
] as const) {
  test(`${script}: a narrowed run ${narrows ? 'that runs fewer tests is narrowed' : 'that runs as many tests as the whole suite is said to be a whole run'}`, async () => {
    const ws = tempWorkspace({ 'picky.js': PICKY, 'deaf.js': DEAF });
    try {
      const ctx = fakeToolContext(ws.root, { settings: settingsWith({ tests: { commands: [`node ${script}`] } }) });
      const whole = await tools.invoke('run_tests', {}, ctx);
      assert.equal(whole.ok, true, whole.output);
      const aimed = await tools.invoke('run_tests', { files: ['a.test.js'] }, ctx);
      assert.equal(aimed.ok, true, aimed.output);
      if (narrows) {
        assert.match(aimed.output, /narrowed run: part of the suite/);
      } else {
        assert.match(
          aimed.output,
          /your run_tests call was narrowed, but the test command ran 3 tests, as many as the whole suite: it did not take the narrowing/,
        );
        // The runner is known from its output (tape's trailer): the model is told the command that narrows.
        assert.match(aimed.output, /to run part of the suite, call the runner itself with run_command, e\.g\. `npx tape a\.test\.js`/);
        assert.doesNotMatch(aimed.output, /narrowed run: part of the suite/);
      }
    } finally {
      ws.cleanup();
    }
  });
}

test('tape (known from its own output) has no name filter: a name is not turned into an invented flag, the files alone narrow and the model is told', async () => {
  const ws = tempWorkspace({ 'picky.js': PICKY });
  try {
    const ctx = fakeToolContext(ws.root, { settings: settingsWith({ tests: { commands: ['node picky.js'] } }) });
    assert.equal((await tools.invoke('run_tests', {}, ctx)).ok, true);
    const aimed = await tools.invoke('run_tests', { files: ['a.test.js'], name: 'adds' }, ctx);
    assert.equal(aimed.ok, true, aimed.output);
    assert.match(aimed.output, /^\$ node picky\.js a\.test\.js$/m);
    assert.doesNotMatch(aimed.output, /--grep/);
    assert.match(aimed.output, /narrowed run: part of the suite; tape has no test-name filter: ran the files only, every test in them/);
    const byName = await tools.invoke('run_tests', { name: 'adds' }, ctx);
    assert.equal(byName.ok, false);
    assert.match(byName.output, /tape has no test-name filter: pass the test's files/);
  } finally {
    ws.cleanup();
  }
});

test('a command that ignored narrowing is remembered: the next narrowed run goes whole directly (said once), and a failing run is not rerun', async () => {
  // Ignores its arguments; fails its second test while FAIL.flag exists.
  const LOUD = `const fail = require('fs').existsSync('FAIL.flag'); console.log('TAP version 13'); console.log('ok 1 - t1'); console.log((fail ? 'not ok' : 'ok') + ' 2 - t2'); console.log('1..2'); console.log('# tests 2'); console.log('# pass  ' + (fail ? 1 : 2)); if (fail) { console.log('# fail  1'); process.exitCode = 1; }\n`;
  const ws = tempWorkspace({ 'loud.js': LOUD });
  try {
    const ctx = fakeToolContext(ws.root, { settings: settingsWith({ tests: { commands: ['node loud.js'] } }) });
    const commands: { command: string; whole?: boolean }[] = [];
    ctx.emit = (e) => {
      if (e.type === 'test-finished') commands.push({ command: e.command, whole: e.whole });
    };
    assert.equal((await tools.invoke('run_tests', {}, ctx)).ok, true);
    const first = await tools.invoke('run_tests', { files: ['a.test.js'] }, ctx);
    assert.match(first.output, /it did not take the narrowing; the next runs of this command in this run go whole directly/);
    const second = await tools.invoke('run_tests', { files: ['a.test.js'] }, ctx);
    assert.match(second.output, /^tests passed \(the whole suite, directly: this test command ignored narrowing arguments earlier in this run; said once\)/);
    assert.match(second.output, /^\$ node loud\.js$/m);
    const third = await tools.invoke('run_tests', { files: ['a.test.js'] }, ctx);
    assert.match(third.output, /^tests passed\n/);
    writeFileSync(path.join(ws.root, 'FAIL.flag'), '');
    const failing = await tools.invoke('run_tests', { files: ['a.test.js'] }, ctx);
    assert.equal(failing.ok, false);
    assert.match(failing.output, /not rerun: this test command ignores narrowing arguments, so a rerun would be the whole suite again/);
    assert.deepEqual(commands, [
      { command: 'node loud.js', whole: true },
      { command: 'node loud.js a.test.js', whole: true },
      { command: 'node loud.js', whole: true },
      { command: 'node loud.js', whole: true },
      { command: 'node loud.js', whole: true },
    ]);
  } finally {
    ws.cleanup();
  }
});

test('a whole run that failed (a chain stopped at its first failing link) is no measure of the suite: the narrowed run after it is not called ignored', async () => {
  // Like dayjs's `TZ=a jest x && TZ=b jest x && jest`: while FAIL.flag exists the first link fails and
  // the chain stops after 2 tests; fixed, the links run and the narrowed last one adds 1 test (3 > 2).
  const CHAIN = `const fail = require('fs').existsSync('FAIL.flag'); const n = fail ? 2 : process.argv.length > 2 ? 3 : 12; console.log('TAP version 13'); for (let i = 1; i <= n; i++) console.log((fail && i === 2 ? 'not ok ' : 'ok ') + i + ' - t' + i); console.log('1..' + n); console.log('# tests ' + n); console.log('# pass  ' + (fail ? 1 : n)); if (fail) { console.log('# fail  1'); process.exitCode = 1; }\n`;
  const ws = tempWorkspace({ 'chain.js': CHAIN, 'FAIL.flag': '' });
  try {
    const ctx = fakeToolContext(ws.root, { settings: settingsWith({ tests: { commands: ['node chain.js'] } }) });
    assert.equal((await tools.invoke('run_tests', {}, ctx)).ok, false);
    rmSync(path.join(ws.root, 'FAIL.flag'));
    const aimed = await tools.invoke('run_tests', { files: ['a.test.js'] }, ctx);
    assert.equal(aimed.ok, true, aimed.output);
    assert.match(aimed.output, /narrowed run: part of the suite/);
    assert.doesNotMatch(aimed.output, /did not take the narrowing/);
    assert.equal(ctx.state.narrowingIgnored, undefined);
  } finally {
    ws.cleanup();
  }
});

test('the runner behind a package script that runs another script (qs: npm test → npm run tests-only → nyc tape)', async () => {
  const scripts = { test: 'npm run --silent tests-only', 'tests-only': "nyc tape 'test/**/*.js'" };
  const ws = tempWorkspace({ 'package.json': JSON.stringify({ name: 'x', scripts }) });
  try {
    const ctx = fakeToolContext(ws.root, { settings: settingsWith({ tests: { commands: ['npm test'] } }) });
    assert.equal(await runnerOf(ctx, 'npm test'), 'tape');
    assert.equal(await runnerOf(ctx, 'npm run tests-only'), 'tape');
    assert.equal(await runnerOf(ctx, 'npm run lint'), undefined);
  } finally {
    ws.cleanup();
  }
});

test('when PatchPilot narrowed the run after an edit itself, the note says so, not that the model asked', async () => {
  const ws = tempWorkspace({ 'deaf.js': DEAF });
  try {
    const ctx = fakeToolContext(ws.root, { settings: settingsWith({ tests: { commands: ['node deaf.js'] } }) });
    assert.equal((await runConfiguredTests(ctx)).ok, true);
    const after = await runConfiguredTests(ctx, { files: ['a.test.js'] }, { narrowedAs: 'after the edit: the related tests' });
    assert.match(after.output, /\(the run after your edit was narrowed to the related tests, but the test command ran 3 tests/);
    assert.doesNotMatch(after.output, /asked to narrow|your run_tests call/);
  } finally {
    ws.cleanup();
  }
});

test("the runner's own command keeps what the script runs first (a pretest build that the tests load), so it never tests the code before the edit", async () => {
  const scripts = { pretest: 'node build.js', test: 'node deaf.js' };
  const ws = tempWorkspace({
    'package.json': JSON.stringify({ name: 'x', scripts }),
    'build.js': "require('fs').writeFileSync('built.txt', 'x')\n",
    'deaf.js': DEAF,
  });
  try {
    const ctx = fakeToolContext(ws.root, { settings: settingsWith({ tests: { commands: ['npm test'] } }) });
    assert.equal((await tools.invoke('run_tests', {}, ctx)).ok, true);
    const aimed = await tools.invoke('run_tests', { files: ['a.test.js'] }, ctx);
    assert.match(aimed.output, /call the runner itself with run_command, e\.g\. `npm run pretest && npx tape a\.test\.js`/);
  } finally {
    ws.cleanup();
  }
});
