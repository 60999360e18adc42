// A narrowed run_tests that a runner ignores (a glob before the file argument, a flag it lacks) runs
// the whole suite: it is said as such and counts as a whole run, never labelled "part of the suite".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { runTestsTool } from '../../../src/core/tools/runTests';
import { makeContext, settingsWith, tempWorkspace } from './helpers';

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
      const ctx = makeContext(ws.root, { settings: settingsWith({ tests: { commands: [`node ${script}`] } }) });
      const whole = await tools.invoke('run_tests', {}, ctx);
      assert.equal(whole.ok, true, whole.output);
      const aimed = await tools.invoke('run_tests', { files: ['a.test.js'] }, ctx);
      assert.equal(aimed.ok, true, aimed.output);
      if (narrows) {
        assert.match(aimed.output, /narrowed run: part of the suite/);
      } else {
        assert.match(aimed.output, /ran 3 tests, as many as the whole suite: it did not take the narrowing/);
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
    const ctx = makeContext(ws.root, { settings: settingsWith({ tests: { commands: ['node picky.js'] } }) });
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
