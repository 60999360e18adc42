// After an edit only the tests of the edited code run (real node:test and pytest runs); the whole
// suite runs once before the finish stands, and catches what the related tests could not see.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { BUGGY, FIX, call, runScripted } from './harness';
import type { AgentEvent } from '../../../src/protocol/agentEvents';

const NODE = JSON.stringify(process.execPath);
/** The test commands that started, the workspace's absolute paths (node:test names rerun files by them) made relative. */
const started = (events: AgentEvent[]) =>
  events.flatMap((e) => (e.type === 'test/started' && !e.note ? [(e as { command: string }).command.replace(/\/\S*\/pp-tools-[^/]+\//g, '')] : []));

/** lib.js uses add() through a name the scan of test files does not see: only the whole suite tests it. */
const TWO_SUITES = {
  ...BUGGY,
  'lib.js': "const { add } = require('./add');\nexports.diff = (a, b) => add(a, b);\n",
  'lib.test.js':
    "const { test } = require('node:test');\nconst assert = require('node:assert/strict');\nconst { diff } = require('./lib');\ntest('diff', () => assert.equal(diff(5, 3), 2));\n",
};

describe('tests of the edited code after an edit, the whole suite before finish', () => {
  test('node:test: add.test.js after the edit; the whole suite at finish finds the broken lib test and refuses once', async () => {
    await runScripted(
      [
        { reply: { toolCalls: [call('propose_patch', { patch: FIX })] } },
        {
          reply: { toolCalls: [call('finish', { summary: 'fixed add' })] },
          expect: { lastMessageContains: 'tests passed (only the tests of the edited code: add.test.js; the whole suite (its last run took' },
        },
        {
          reply: { toolCalls: [call('finish', { summary: 'fixed add; lib diff relied on the bug' })] },
          expect: { lastMessageContains: 'The whole suite, run before the finish' },
        },
      ],
      {
        files: TWO_SUITES,
        settings: (s) => {
          s.tests.commands = [`${NODE} --test`];
          s.tests.afterEdit = true;
        },
        inspect: (h) => {
          assert.deepEqual(h.server.mismatches, []);
          const commands = started(h.events).map((c) => c.replace(NODE, 'node'));
          // Baseline, the related test after the edit, the whole suite at finish, the rerun of its failure.
          assert.deepEqual(commands, ['node --test', 'node --test add.test.js', 'node --test', 'node --test lib.test.js']);
          const refusal = h.messages(2).at(-1)!.content!;
          assert.match(refusal, /did not fail before the run: diff/);
          assert.match(refusal, /tests FAILED: 1 new failure \(diff\); 1 failure, pre-existing \(adds\)|tests FAILED: 1 new failure \(diff\)/);
        },
      },
    );
  });

  test('node:test: a whole-suite run after the last edit is not repeated at finish', async () => {
    await runScripted(
      [
        { reply: { toolCalls: [call('propose_patch', { patch: FIX })] } },
        { reply: { toolCalls: [call('run_tests', {})] } },
        { reply: { toolCalls: [call('finish', { summary: 'fixed add; diff relied on the bug' })] } },
        { reply: { toolCalls: [call('finish', { summary: 'fixed add; diff relied on the bug' })] } },
      ],
      {
        files: TWO_SUITES,
        settings: (s) => {
          s.tests.commands = [`${NODE} --test`];
          s.tests.afterEdit = true;
        },
        inspect: (h) => {
          const commands = started(h.events).map((c) => c.replace(NODE, 'node'));
          assert.deepEqual(commands, ['node --test', 'node --test add.test.js', 'node --test', 'node --test lib.test.js']);
        },
      },
    );
  });

  const pytest = spawnSync('python3', ['-m', 'pytest', '--version']).status === 0;
  test(
    'pytest: tests/test_core.py after an edit of pkg/core.py, the whole suite at finish',
    { skip: !pytest && 'python3 -m pytest is not installed' },
    async () => {
      const files = {
        'pkg/__init__.py': '',
        'pkg/core.py': 'def inc(x):\n    return x + 2\n',
        'pkg/io.py': 'def read():\n    return 1\n',
        'tests/test_core.py': 'from pkg.core import inc\n\ndef test_inc():\n    assert inc(1) == 2\n',
        'tests/test_io.py': 'from pkg import io\n\ndef test_read():\n    assert io.read() == 1\n',
      };
      const patch = '--- a/pkg/core.py\n+++ b/pkg/core.py\n@@ -1,2 +1,2 @@\n def inc(x):\n-    return x + 2\n+    return x + 1\n';
      await runScripted(
        [
          { reply: { toolCalls: [call('propose_patch', { patch })] } },
          {
            reply: { toolCalls: [call('finish', { summary: 'fixed inc' })] },
            expect: { lastMessageContains: 'only the tests of the edited code: tests/test_core.py' },
          },
        ],
        {
          files,
          settings: (s) => {
            s.tests.commands = ['python3 -m pytest -p no:cacheprovider'];
            s.tests.afterEdit = true;
          },
          inspect: (h) => {
            assert.deepEqual(h.server.mismatches, []);
            assert.deepEqual(started(h.events), [
              'python3 -m pytest -p no:cacheprovider',
              'python3 -m pytest -p no:cacheprovider tests/test_core.py',
              'python3 -m pytest -p no:cacheprovider',
            ]);
          },
        },
      );
    },
  );
});
