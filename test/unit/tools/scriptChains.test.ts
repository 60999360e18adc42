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
      /narrowed run: part of the suite; the runner ran directly: `npm test` \(`mocha --reporter spec 'test\/\*\.spec\.js'`\) lists its own files \('test\/\*\.spec\.js'\), which would add the whole suite to yours\)/,
    );
    // Said once a run: the next narrowed run says only that it is part of the suite.
    const again = await tools.invoke('run_tests', { files: ['test/c.spec.js'] }, ctx);
    assert.match(again.output, /\(narrowed run: part of the suite\)/);
    assert.doesNotMatch(again.output, /lists its own files/);
    const whole = await tools.invoke('run_tests', {}, ctx);
    assert.match(whole.output, /^mocha: 3 passed, 0 failed$/m);
  } finally {
    ws.cleanup();
  }
});

// ms (one test file) and qs (three files, every test): a run aimed at files that hold the whole suite
// counts as many tests as the whole run. Handed to the runner itself, that is no sign the narrowing
// was ignored: the run counts as a whole-suite run, nothing is blamed, later narrowed runs stay narrowed.
for (const files of [['test/a.spec.js'], ['test/a.spec.js', 'test/b.spec.js']]) {
  test(`files that hold the whole suite (${files.length} of ${files.length} test files), run by mocha directly: a whole-suite run, not "ignored"`, async () => {
    const spec = (name: string, n: number) => `describe('${name}', () => { ${Array.from({ length: n }, (_, i) => `it('t${i}', () => {});`).join(' ')} });\n`;
    const ws = tempWorkspace({
      'package.json': JSON.stringify({ name: 'all', version: '1.0.0', scripts: { test: `mocha ${files.length === 1 ? files[0] : "'test/*.spec.js'"}` } }),
      ...Object.fromEntries(files.map((f, i) => [f, spec(f, i + 2)])),
      'test/helper.js': 'module.exports = {};\n',
    });
    try {
      linkMocha(ws.root);
      const ctx = fakeToolContext(ws.root, { settings: settingsWith({ tests: { commands: ['npm test'] } }) });
      const events: { command: string; whole?: boolean }[] = [];
      ctx.emit = (e) => {
        if (e.type === 'test-finished') events.push({ command: e.command, whole: e.whole });
      };
      assert.equal((await tools.invoke('run_tests', {}, ctx)).ok, true);
      const aimed = await tools.invoke('run_tests', { files }, ctx);
      assert.equal(aimed.ok, true, aimed.output);
      const total = files.reduce((n, _f, i) => n + i + 2, 0);
      assert.match(aimed.output, new RegExp(`\\(${files.join(', ')} hold the whole suite: ${total} tests, as many as a whole run; counted as one\\)`));
      assert.doesNotMatch(aimed.output, /did not take the narrowing|go whole directly/);
      assert.equal(ctx.state.narrowingIgnored, undefined);
      // Still narrowed the next time (the direct call is cheaper than the script: coverage, lint).
      await tools.invoke('run_tests', { files: [files[0]!] }, ctx);
      assert.equal(events.at(-1)!.command, `npx mocha ${files[0]}`);
    } finally {
      ws.cleanup();
    }
  });
}
