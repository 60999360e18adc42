// run_tests on package scripts with real npm and a real runner: a chained `npm test` that stopped at
// a failing step says which steps never ran, and a narrowed run of a script whose runner names its
// own files (`mocha 'test/*.spec.js'`) calls the runner directly before anything runs the whole suite.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { runTestsTool } from '../../../src/core/tools/runTests';
import { tempWorkspace } from './helpers';
import { fakeToolContext, settingsWith } from '../../support/fakes';

const tools = new ToolRegistry([runTestsTool]);
// A step that fails while its flag file exists, else prints one passing TAP test.
const step = (name: string) =>
  `node -e "if (require('fs').existsSync('${name}.fail')) { console.error('${name}: broken'); process.exit(1) } console.log('ok 1 - ${name}')"`;
const CHAIN = { test: 'npm run lint && npm run unit && npm run integ', lint: step('lint'), unit: step('unit'), integ: step('integ') };

for (const [failing, said] of [
  ['lint', 'lint failed; unit and integ never ran'],
  ['unit', 'lint passed; unit failed; integ never ran'],
] as const) {
  test(`npm test = lint && unit && integ, ${failing} failing: the result says which steps never ran`, async () => {
    const ws = tempWorkspace({ 'package.json': JSON.stringify({ name: 'chain', version: '1.0.0', scripts: CHAIN }), [`${failing}.fail`]: '' });
    try {
      const ctx = fakeToolContext(ws.root, { settings: settingsWith({ tests: { commands: ['npm test'] } }) });
      const run = await tools.invoke('run_tests', {}, ctx);
      assert.equal(run.ok, false);
      assert.match(run.output, new RegExp(`^not the whole suite: script "test" stopped at its first failing step: ${said}$`, 'm'));
    } finally {
      ws.cleanup();
    }
  });
}

test('the whole chain ran (its last step failed, or every step passed): nothing is said about steps that never ran', async () => {
  const ws = tempWorkspace({ 'package.json': JSON.stringify({ name: 'chain', version: '1.0.0', scripts: CHAIN }), 'integ.fail': '' });
  try {
    const ctx = fakeToolContext(ws.root, { settings: settingsWith({ tests: { commands: ['npm test'] } }) });
    const run = await tools.invoke('run_tests', {}, ctx);
    assert.equal(run.ok, false);
    assert.doesNotMatch(run.output, /never ran|not the whole suite/);
  } finally {
    ws.cleanup();
  }
});

test("npm test = mocha test/unit && mocha test/integ (steps that run no script), unit failing: integ never ran, told by mocha's own output", async () => {
  const ws = tempWorkspace({
    'package.json': JSON.stringify({ name: 'raw', version: '1.0.0', scripts: { test: 'mocha test/unit && mocha test/integ' } }),
    'test/unit/a.spec.js': "it('adds', () => { if (1 + 1 !== 3) throw new Error('1 + 1 is 2'); });\n",
    'test/integ/b.spec.js': "it('serves', () => {});\n",
  });
  try {
    linkMocha(ws.root);
    const ctx = fakeToolContext(ws.root, { settings: settingsWith({ tests: { commands: ['npm test'] } }) });
    const run = await tools.invoke('run_tests', {}, ctx);
    assert.equal(run.ok, false);
    assert.match(
      run.output,
      /^not the whole suite: script "test" stopped at its first failing step: `mocha test\/unit` failed; `mocha test\/integ` never ran$/m,
    );
  } finally {
    ws.cleanup();
  }
});

/** The runner is the repository's own mocha, where npm and npx look for it. */
function linkMocha(root: string): void {
  mkdirSync(path.join(root, 'node_modules/.bin'), { recursive: true });
  symlinkSync(path.resolve('node_modules/mocha'), path.join(root, 'node_modules/mocha'));
  symlinkSync('../mocha/bin/mocha.js', path.join(root, 'node_modules/.bin/mocha'));
}

test("mocha with a fixed glob in the script: a narrowed run calls mocha itself with the script's flags, never the whole suite", async () => {
  const spec = (name: string) => `describe('${name}', () => { it('works', () => {}); });\n`;
  const ws = tempWorkspace({
    'package.json': JSON.stringify({ name: 'glob', version: '1.0.0', scripts: { test: "mocha --reporter spec 'test/*.spec.js'" } }),
    'test/a.spec.js': spec('a'),
    'test/b.spec.js': spec('b'),
    'test/c.spec.js': spec('c'),
  });
  try {
    linkMocha(ws.root);
    const ctx = fakeToolContext(ws.root, { settings: settingsWith({ tests: { commands: ['npm test'] } }) });
    const commands: string[] = [];
    ctx.emit = (e) => {
      if (e.type === 'test-finished') commands.push(e.command);
    };
    const aimed = await tools.invoke('run_tests', { files: ['test/b.spec.js'] }, ctx);
    assert.equal(aimed.ok, true, aimed.output);
    assert.deepEqual(commands, ['npx mocha --reporter spec test/b.spec.js']);
    assert.match(aimed.output, /^mocha: 1 passed, 0 failed$/m);
    assert.match(
      aimed.output,
      /narrowed run: part of the suite; `npm test` runs `mocha --reporter spec 'test\/\*\.spec\.js'`, which names its own files \('test\/\*\.spec\.js'\), which would run with yours: the whole suite again; so the runner ran directly/,
    );
    const whole = await tools.invoke('run_tests', {}, ctx);
    assert.match(whole.output, /^mocha: 3 passed, 0 failed$/m);
  } finally {
    ws.cleanup();
  }
});
