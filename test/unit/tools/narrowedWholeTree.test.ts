// run_tests narrowed to a file on a project whose `npm test` checks 100% coverage: the runner's real
// output (node-tap 14 on node-semver, test/fixtures/testRuns) says every selected test passed and the
// coverage threshold failed, exit 1. The tool result is a pass that says so plainly, not "tests FAILED".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { runTestsTool } from '../../../src/core/tools/runTests';
import { tempWorkspace } from './helpers';
import { fakeToolContext, settingsWith } from '../../support/fakes';

const tools = new ToolRegistry([runTestsTool]);
const FIXTURE = path.join(__dirname, '../../fixtures/testRuns/npm-tap14-narrowed-coverage.txt');
// Given files, it replays the recorded narrowed run (and its exit 1); alone, a whole suite of 3 passing tests.
const SUITE = `const fs = require('fs');
if (process.argv.length > 2) { process.stdout.write(fs.readFileSync('narrowed.txt', 'utf8')); process.exitCode = 1; }
else { console.log('TAP version 13'); for (let i = 1; i <= 3; i++) console.log('ok ' + i + ' - test/t' + i + '.js'); console.log('1..3'); console.log('# time=12ms'); }
`;

test('a narrowed run whose tests pass and whose coverage threshold fails is a pass, said plainly', async () => {
  const ws = tempWorkspace({ 'suite.js': SUITE });
  try {
    copyFileSync(FIXTURE, path.join(ws.root, 'narrowed.txt'));
    const ctx = fakeToolContext(ws.root, { settings: settingsWith({ tests: { commands: ['node suite.js'] } }) });
    assert.equal((await tools.invoke('run_tests', {}, ctx)).ok, true);
    const aimed = await tools.invoke('run_tests', { files: ['test/functions/gt.js'] }, ctx);
    assert.equal(aimed.ok, true, aimed.output);
    assert.match(aimed.output, /^the selected tests passed \(1 passed\); coverage below the threshold is expected when only part of the suite runs/);
    assert.doesNotMatch(aimed.output, /tests FAILED/);
    assert.match(aimed.output, /^exit 1 after/m, 'the exit code is still shown');
  } finally {
    ws.cleanup();
  }
});
