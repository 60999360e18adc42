// The relay run's case, in a real run: after an edit only the related test file runs, through a
// command whose whole-tree coverage check fails on part of the suite (the recorded node-tap 14 run on
// node-semver, exit 1, every selected test passed). The edit's result says the tests passed and why
// the exit code is not a failure; the whole suite before the finish passes and the finish stands.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BUGGY, FIX, call, runScripted } from './harness';

const NARROWED = readFileSync(path.join(__dirname, '../../fixtures/testRuns/npm-tap14-narrowed-coverage.txt'), 'utf8');
// Given files, it replays the recorded narrowed run (exit 1); alone, the whole suite: 3 passing files.
const SUITE = `const fs = require('fs');
if (process.argv.length > 2) { process.stdout.write(fs.readFileSync('narrowed.txt', 'utf8')); process.exitCode = 1; }
else { console.log('TAP version 13'); for (let i = 1; i <= 3; i++) console.log('ok ' + i + ' - test/t' + i + '.js'); console.log('1..3'); console.log('# time=12ms'); }
`;

test('a related-tests run that fails only at the coverage threshold is a pass; the whole suite before finish judges coverage, and the finish stands', async () => {
  const h = await runScripted(
    [
      { reply: { toolCalls: [call('propose_patch', { patch: FIX })] } },
      {
        reply: { toolCalls: [call('finish', { summary: 'fixed add' })] },
        expect: { lastMessageContains: 'the selected tests passed (1 passed); coverage below the threshold is expected when only part of the suite runs' },
      },
    ],
    {
      files: { 'add.js': BUGGY['add.js'], 'test/add.js': "require('../add');\n", 'test/other.js': '', 'suite.js': SUITE, 'narrowed.txt': NARROWED },
      settings: (s) => {
        s.tests.commands = [`${JSON.stringify(process.execPath)} suite.js`];
        s.tests.afterEdit = true;
      },
    },
  );
  const result = h.messages(1).at(-1)!.content!;
  assert.deepEqual(h.server.mismatches, [], result.slice(0, 1500));
  assert.match(result, /\(only the tests of the edited code: test\/add\.js; the whole suite/);
  assert.doesNotMatch(result, /tests FAILED/);
  assert.equal(h.outcome.status, 'finished');
  assert.equal(h.outcome.tests, 'passed');
  const started = h.events.flatMap((e) =>
    e.type === 'test/started' && !e.note ? [(e as { command: string }).command.replace(JSON.stringify(process.execPath), 'node')] : [],
  );
  assert.deepEqual(started, ['node suite.js', 'node suite.js test/add.js', 'node suite.js']);
});
