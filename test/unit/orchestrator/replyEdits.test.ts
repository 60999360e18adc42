// A reply with several edits gets one test run, after its last edit, of the related tests of every
// file the reply changed (real node:test runs); the earlier edits' results say where the tests are.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BUGGY, call, runScripted } from './harness';
import type { AgentEvent } from '../../../src/protocol/agentEvents';

const NODE = JSON.stringify(process.execPath);
/** The test runs started (a note on a run's row, the baseline waited for, is no new run). */
const started = (events: AgentEvent[]) =>
  events.flatMap((e) => (e.type === 'test/started' && !e.note ? [(e as { command: string }).command.replace(NODE, 'node')] : []));

/** add() and mul() are both wrong, each with its own test file; other.test.js tests neither. */
const FILES = {
  ...BUGGY,
  'mul.js': 'exports.mul = (a, b) => a / b;\n',
  'other.test.js': "require('node:test')('other', () => {});\n",
  'mul.test.js':
    "const { test } = require('node:test');\nconst assert = require('node:assert/strict');\nconst { mul } = require('./mul');\ntest('muls', () => assert.equal(mul(2, 3), 6));\n",
};
const fixAdd = call('edit_file', { path: 'add.js', old_string: 'a - b', new_string: 'a + b' });
const fixMul = call('edit_file', { path: 'mul.js', old_string: 'a / b', new_string: 'a * b' });
const settings = (s: { tests: { commands: string[]; afterEdit: boolean } }) => {
  s.tests.commands = [`${NODE} --test`];
  s.tests.afterEdit = true;
};
/** The tool results of the model's i-th request, by the order of the calls. */
const results = (h: { messages(i: number): { role: string; content: string | null }[] }, i: number) =>
  h
    .messages(i)
    .filter((m) => m.role === 'tool')
    .map((m) => m.content ?? '');

describe('the tests after a reply of several edits', () => {
  test('three edits in one reply: one test run after the last, aimed at the tests of every edited file; the earlier results say so', async () => {
    await runScripted(
      [
        { reply: { toolCalls: [fixAdd, fixMul, call('edit_file', { path: 'mul.test.js', old_string: "'muls'", new_string: "'multiplies'" })] } },
        { reply: { toolCalls: [call('finish', { summary: 'fixed add and mul' })] } },
        { reply: { toolCalls: [call('finish', { summary: 'fixed add and mul' })] } },
      ],
      {
        files: FILES,
        settings,
        inspect: (h) => {
          assert.deepEqual(h.server.mismatches, []);
          // The baseline, the one run after the reply's edits, the whole suite before finish.
          assert.deepEqual(started(h.events), ['node --test', 'node --test add.test.js mul.test.js', 'node --test']);
          const [first, second, last] = results(h, 1).slice(-3);
          for (const r of [first!, second!]) {
            assert.match(r, /tests run after the last edit of this reply/);
            assert.doesNotMatch(r, /tests passed|tests FAILED/);
          }
          assert.match(last!, /tests after this reply's edits \(add\.js, mul\.js, mul\.test\.js\), run once after the last:\ntests passed/);
        },
      },
    );
  });

  test('a reply whose last edit fails before writing: the owed run happens once, on the last edit that wrote', async () => {
    await runScripted(
      [
        { reply: { toolCalls: [fixAdd, fixMul, call('edit_file', { path: 'mul.test.js', old_string: 'nowhere', new_string: 'x' })] } },
        { reply: { toolCalls: [call('finish', { summary: 'fixed add and mul' })] } },
        { reply: { toolCalls: [call('finish', { summary: 'fixed add and mul' })] } },
      ],
      {
        files: FILES,
        settings,
        inspect: (h) => {
          assert.deepEqual(started(h.events).slice(0, 2), ['node --test', 'node --test add.test.js mul.test.js']);
          const [first, second, failed] = results(h, 1).slice(-3);
          assert.match(first!, /tests run after the last edit of this reply/);
          assert.match(
            second!,
            /tests run after the last edit of this reply\n[\s\S]*tests after this reply's edits \(add\.js, mul\.js\), run once after the last:\ntests passed/,
          );
          assert.doesNotMatch(failed!, /tests passed/);
        },
      },
    );
  });

  test('a reply whose edits no test reaches: the whole suite runs, and its line says so and why', async () => {
    const notes = { ...FILES, 'notes.js': 'exports.a = 1;\n', 'readme.js': 'exports.b = 2;\n' };
    await runScripted(
      [
        {
          reply: {
            toolCalls: [
              call('edit_file', { path: 'notes.js', old_string: '1', new_string: '3' }),
              call('edit_file', { path: 'readme.js', old_string: '2', new_string: '4' }),
            ],
          },
        },
        { reply: { toolCalls: [call('finish', { summary: 'changed the notes' })] } },
        { reply: { toolCalls: [call('finish', { summary: 'changed the notes' })] } },
      ],
      {
        files: notes,
        settings,
        inspect: (h) => {
          const last = results(h, 1).at(-1)!;
          assert.match(
            last,
            /tests after this reply's edits \(notes\.js, readme\.js\), run once after the last, the whole suite \(no test file loads notes\.js or is named after it\):\n2 failures, pre-existing/,
          );
        },
      },
    );
  });
});
