// Narrowing node's own test runner, run for real: `node --test` reads every word after its first file
// as a file, so a name flag after the files was "Could not find '--test-name-pattern=adds'" (issue 30).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { runTestsTool } from '../../../src/core/tools/runTests';
import { tempWorkspace } from './helpers';
import { fakeToolContext, settingsWith } from '../../support/fakes';

const tools = new ToolRegistry([runTestsTool]);
const SUITE = `const test = require('node:test');
const assert = require('node:assert');
test('adds', () => assert.equal(1 + 1, 2));
test('subtracts', () => assert.equal(2 - 1, 1));
`;

for (const command of ['node --test', 'node --test test/']) {
  test(`${command}: a name (and files) narrow the real run, the flag read as a flag`, async () => {
    const ws = tempWorkspace({ 'test/add.test.js': SUITE, 'test/other.test.js': SUITE });
    try {
      const ctx = fakeToolContext(ws.root, { settings: settingsWith({ tests: { commands: [command] } }) });
      const byName = await tools.invoke('run_tests', { name: 'adds' }, ctx);
      assert.equal(byName.ok, true, byName.output);
      assert.match(byName.output, new RegExp(`^\\$ ${command.replace('--test', '--test --test-name-pattern=adds')}$`, 'm'));
      assert.doesNotMatch(byName.output, /Could not find/);
      assert.match(byName.output, /node: 2 passed, 0 failed, 2 skipped/);
      const byFile = await tools.invoke('run_tests', { files: ['test/add.test.js'], name: 'adds' }, ctx);
      assert.equal(byFile.ok, true, byFile.output);
      assert.match(byFile.output, /node --test --test-name-pattern=adds (test\/ )?test\/add\.test\.js$/m);
      if (command === 'node --test') assert.match(byFile.output, /node: 1 passed, 0 failed, 1 skipped/);
    } finally {
      ws.cleanup();
    }
  });
}
