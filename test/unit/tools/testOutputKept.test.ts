// A test run's result shows an excerpt of its output (a passing run none of it); the whole output is
// kept where read_file reads it and the result says where, in one line (issue 30: the file the
// conversation kept of a long result held the excerpt, not the runner's output).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createOutputKeeper } from '../../../src/core/context/outputKeeper';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { readFileTool } from '../../../src/core/tools/readFile';
import { runTestsTool } from '../../../src/core/tools/runTests';
import { tempWorkspace } from './helpers';
import { fakeToolContext, settingsWith } from '../../support/fakes';

const tools = new ToolRegistry([runTestsTool, readFileTool]);
// 300 passing tests around one failing one: node's TAP output is far longer than the excerpt.
const SUITE = `const test = require('node:test');
const assert = require('node:assert');
for (let i = 1; i <= 300; i++) {
  if (i === 150) test('adds in the middle', () => assert.equal(1 + 1, 3));
  test('passes ' + i, () => {});
}
`;
const PASSING = `require('node:test')('passes', () => {});\n`;

function contextFor(root: string, command: string) {
  const keeper = createOutputKeeper(root, '.patchpilot/history.db', 'run-1');
  return fakeToolContext(root, {
    settings: settingsWith({ tests: { commands: [command] } }),
    state: { changedFiles: new Set(), keepOutput: (text, tool) => keeper.keep(text, tool) },
  });
}

test('a long failing run: the excerpt, then one line naming the kept file, which holds the whole output for read_file', async () => {
  const ws = tempWorkspace({ 'long.test.js': SUITE });
  try {
    const ctx = contextFor(ws.root, 'node --test long.test.js');
    const result = await tools.invoke('run_tests', {}, ctx);
    assert.equal(result.ok, false, result.output);
    assert.match(result.output, /FAIL adds in the middle/);
    assert.doesNotMatch(result.output, /ok 200 - passes 199/, 'passing lines are left out of the excerpt');
    const kept = /^the whole output: read_file (\.patchpilot\/outputs\/run-1\/\d+-run_tests\.txt)$/m.exec(result.output)?.[1];
    assert.ok(kept, result.output);
    const whole = readFileSync(path.join(ws.root, kept), 'utf8');
    assert.match(whole, /ok 200 - passes 199/);
    assert.match(whole, /not ok 150 - adds in the middle/);
    const read = await tools.invoke('read_file', { path: kept }, ctx);
    assert.equal(read.ok, true, read.output);
    assert.match(read.output, /ok 200 - passes 199/);
  } finally {
    ws.cleanup();
  }
});

test('a passing run shows none of its output: kept and said; a short failing output shown whole is not kept', async () => {
  const ws = tempWorkspace({ 'pass.test.js': PASSING, 'fail.js': `console.log('boom'); process.exit(1);\n` });
  try {
    const passing = await tools.invoke('run_tests', {}, contextFor(ws.root, 'node --test pass.test.js'));
    assert.equal(passing.ok, true, passing.output);
    assert.match(passing.output, /^the whole output: read_file \.patchpilot\/outputs\/run-1\/1-run_tests\.txt$/m);
    const short = await tools.invoke('run_tests', {}, contextFor(ws.root, 'node fail.js'));
    assert.equal(short.ok, false, short.output);
    assert.match(short.output, /boom/);
    assert.doesNotMatch(short.output, /the whole output/);
  } finally {
    ws.cleanup();
  }
});
