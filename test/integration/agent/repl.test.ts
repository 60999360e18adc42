// The interactive session of `patchpilot run` (no --goal, on a terminal), driven through a real
// pseudo-terminal: keys in, the terminal's text out, the real scripted model server behind it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BUGGY } from '../../unit/orchestrator/harness';
import { PtySession, call, sleepers, uniqueSleep, historyRuns, skipWithoutBuild, skipWithoutScript, withRepo } from './support';

const TWO_HUNKS = { 'calc.js': ['exports.add = (a, b) => a - b;', '', '', '', '', '', '', '', 'exports.mul = (a, b) => a / b;', ''].join('\n') };
const TWO_HUNK_FIX = `--- a/calc.js
+++ b/calc.js
@@ -1 +1 @@
-exports.add = (a, b) => a - b;
+exports.add = (a, b) => a + b;
@@ -9 +9 @@
-exports.mul = (a, b) => a / b;
+exports.mul = (a, b) => a * b;
`;

async function session(args: string[], body: (pty: PtySession) => Promise<void>): Promise<void> {
  const pty = new PtySession(['run', ...args]);
  try {
    await body(pty);
  } finally {
    pty.kill();
  }
}

describe('patchpilot run, interactive (pty)', { skip: skipWithoutBuild || skipWithoutScript }, () => {
  test('asks for a goal, runs it with live progress, asks again; /exit quits 0; both runs recorded', async () => {
    const turns = [
      { reply: { text: 'Reading it.', toolCalls: [call('read_file', { path: 'add.js' })] } },
      { reply: { toolCalls: [call('finish', { summary: 'add() subtracts.' })] } },
      { reply: { text: 'The test expects 4.' } },
    ];
    await withRepo(turns, async (root, server) => {
      await session(['--workspace', root, '--base-url', server.baseUrl, '--model', 'scripted-model'], async (pty) => {
        let at = await pty.waitFor(/goal> /);
        pty.type('what does add do\r');
        at = await pty.waitFor(
          /\[step 1\][^]*Reading it\.[^]*> read_file[^]*\[step 2\][^]*finished after 2 steps[^]*tokens: scripted-model [\d,]+ in[^]*add\(\) subtracts\.\n/,
          at,
        );
        at = await pty.waitFor(/goal> /, at);
        pty.type('what does the test expect\r');
        await pty.waitFor(/The test expects 4\.[^]*goal> /, at);
        pty.type('/exit\r');
        assert.equal(await pty.exited, 0, pty.text);
      });
      assert.deepEqual(server.mismatches, []);
      const runs = await historyRuns(root);
      assert.deepEqual(runs.map((r) => [r.goal, r.status]).sort(), [
        ['what does add do', 'finished'],
        ['what does the test expect', 'finished'],
      ]);
    });
  });

  test('Ctrl-C during a run cancels it (its command is killed, history flushed) and the prompt returns; Ctrl-C at the prompt exits 130', async () => {
    const turns = [{ reply: { toolCalls: [call('run_tests', {})] } }, { reply: { text: 'never asked' } }];
    const seconds = uniqueSleep();
    await withRepo(turns, async (root, server) => {
      await session(
        [
          '--workspace',
          root,
          '--approve',
          'auto',
          '--test-cmd',
          `echo tests-running; sleep ${seconds}`,
          '--base-url',
          server.baseUrl,
          '--model',
          'scripted-model',
        ],
        async (pty) => {
          let at = await pty.waitFor(/goal> /);
          pty.type('run the tests\r');
          at = await pty.waitFor(/> run_tests/, at);
          await new Promise((r) => setTimeout(r, 300));
          pty.type('\x03');
          await pty.waitFor(/patchpilot: cancelled after 1 step: stopped by the user[^]*goal> /, at);
          assert.deepEqual(sleepers(seconds), []);
          // Back at the prompt, the cancelled run is already on disk.
          const runs = await historyRuns(root);
          assert.deepEqual(
            runs.map((r) => [r.goal, r.status]),
            [['run the tests', 'cancelled']],
          );
          pty.type('\x03');
          assert.equal(await pty.exited, 130, pty.text);
        },
      );
      assert.equal(server.turnsServed, 1);
    });
  });

  test('Ctrl-C while an approval question waits cancels that run, not the session', async () => {
    const turns = [{ reply: { toolCalls: [call('propose_patch', { patch: TWO_HUNK_FIX })] } }, { reply: { text: 'Nothing to fix.' } }];
    await withRepo(
      turns,
      async (root, server) => {
        await session(['--workspace', root, '--base-url', server.baseUrl, '--model', 'scripted-model'], async (pty) => {
          let at = await pty.waitFor(/goal> /);
          pty.type('fix calc\r');
          at = await pty.waitFor(/apply it\? \[y\]es, \[n\]o, \[s\]elect hunks: /, at);
          pty.type('\x03');
          at = await pty.waitFor(/patchpilot: cancelled after 1 step[^]*goal> /, at);
          pty.type('is anything left\r');
          await pty.waitFor(/Nothing to fix\.[^]*goal> /, at);
          pty.type('/exit\r');
          assert.equal(await pty.exited, 0, pty.text);
        });
        assert.equal(readFileSync(path.join(root, 'calc.js'), 'utf8'), TWO_HUNKS['calc.js']);
      },
      TWO_HUNKS,
    );
  });

  test('Ctrl-D at the prompt quits 0', async () => {
    await withRepo([], async (root, server) => {
      await session(['--workspace', root, '--base-url', server.baseUrl, '--model', 'scripted-model'], async (pty) => {
        await pty.waitFor(/goal> /);
        pty.type('\x04');
        assert.equal(await pty.exited, 0, pty.text);
      });
    });
  });

  test('ask mode on a terminal: one hunk accepted, one rejected; the model is told which, the file gets only the accepted one', async () => {
    const turns = [
      { reply: { toolCalls: [call('propose_patch', { patch: TWO_HUNK_FIX })] } },
      {
        reply: { toolCalls: [call('finish', { summary: 'add fixed; mul left as the user wanted.' })] },
        expect: { lastMessageContains: 'rejected by the user (not applied):\n  calc.js#2' },
      },
    ];
    await withRepo(
      turns,
      async (root, server) => {
        await session(['--goal', 'fix calc', '--workspace', root, '--base-url', server.baseUrl, '--model', 'scripted-model'], async (pty) => {
          let at = await pty.waitFor(/apply it\? \[y\]es, \[n\]o, \[s\]elect hunks: /);
          pty.type('s\r');
          at = await pty.waitFor(/apply calc\.js#1 \(lines 1-1\)\? \[y\/N\] /, at);
          pty.type('y\r');
          at = await pty.waitFor(/apply calc\.js#2 \(lines 9-9\)\? \[y\/N\] /, at);
          pty.type('n\r');
          await pty.waitFor(/a word for the agent \(optional\): /, at);
          pty.type('keep the division\r');
          assert.equal(await pty.exited, 0, pty.text);
        });
        assert.deepEqual(server.mismatches, []);
        const told = server.chatRequests[1]!.body.messages.at(-1).content as string;
        assert.match(told, /applied 1 hunk/);
        assert.match(told, /keep the division/);
        assert.equal(readFileSync(path.join(root, 'calc.js'), 'utf8'), TWO_HUNKS['calc.js'].replace('a - b', 'a + b'));
      },
      { ...BUGGY, ...TWO_HUNKS },
    );
  });
});
