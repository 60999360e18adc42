import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { BUGGY, FIX, TEST_CMD, call, runScripted } from './harness';
import type { RunHistory } from '../../../src/core/ports';

describe('after an applied edit', () => {
  test('autoCommit commits exactly the patched file, and the failing tests reach the model in the same result, against the baseline', async () => {
    const wrongFix = FIX.replace('a + b', 'a * b + 1');
    await runScripted(
      [
        { reply: { toolCalls: [call('propose_patch', { patch: wrongFix })] } },
        {
          reply: { toolCalls: [call('finish', { summary: 'committed' })] },
          expect: { lastMessageContains: '1 failure, pre-existing (adds); no new failures' },
        },
      ],
      {
        settings: (s) => {
          s.git.autoCommit = true;
          s.tests.commands = [TEST_CMD];
          s.tests.afterEdit = true;
        },
        inspect: (h) => {
          assert.deepEqual(h.server.mismatches, []);
          const log = execFileSync('git', ['log', '--format=%s', '--name-only', '-1'], { cwd: h.root, encoding: 'utf8' }).trim();
          assert.equal(log, 'PatchPilot: patch to add.js\n\nadd.js');
          const result = h.messages(1).at(-1)!.content!;
          assert.match(result, /^applied 1 hunk to add\.js/);
          assert.match(result, /committed as [0-9a-f]{12}/);
          assert.match(result, /FAIL adds/);
          // The baseline ran unseen before the edit: its one line rides in this result, and only in this one.
          assert.match(
            result,
            /\n\nBefore your changes \(the whole suite, run once before your first edit, \d+\.\d s\): 1 of 1 test failed: adds\. What failed then does not block finish\.$/,
          );
          assert.equal(h.messages(2).filter((m) => m.content?.includes('Before your changes')).length, 1);
        },
      },
    );
  });

  test('a history store that fails does not stop the run: one warning, the run goes on', async () => {
    const broken = new Proxy({} as RunHistory, {
      get: () => async () => {
        throw new Error('disk full');
      },
    });
    const h = await runScripted([{ reply: { toolCalls: [call('read_file', { path: 'add.js' })] } }, { reply: { text: 'done' } }], {
      deps: { history: broken },
    });
    assert.equal(h.outcome.status, 'finished');
    const warnings = h.events.filter((e) => e.type === 'warning');
    assert.equal(warnings.length, 1);
    assert.match((warnings[0] as { message: string }).message, /history is not being recorded: disk full/);
  });
});

describe('problems after an applied edit', () => {
  test("the host's new problems in the edited file go back with the patch result, old and other files' problems do not", async () => {
    const seen: string[][] = [];
    const diagnostics = {
      snapshot: (paths: readonly string[]) => {
        seen.push([...paths]);
        return [{ path: 'add.js', line: 1, column: 1, severity: 'warning' as const, message: 'old warning' }];
      },
      settled: async () => [
        { path: 'add.js', line: 1, column: 1, severity: 'warning' as const, message: 'old warning' },
        { path: 'add.js', line: 1, column: 30, severity: 'error' as const, message: "';' expected.", source: 'ts' },
        { path: 'add.test.js', line: 2, column: 1, severity: 'error' as const, message: 'not edited' },
      ],
    };
    await runScripted(
      [
        { reply: { toolCalls: [call('propose_patch', { patch: FIX })] } },
        { reply: { toolCalls: [call('finish', { summary: 'done' })] }, expect: { lastMessageContains: 'new problems in the files you edited' } },
      ],
      {
        deps: { diagnostics },
        inspect: (h) => {
          assert.deepEqual(h.server.mismatches, []);
          assert.deepEqual(seen, [['add.js']]);
          const result = h.messages(1).at(-1)!.content!;
          assert.match(result, /new problems in the files you edited \(1 error, 0 warnings\):\nadd\.js:1:30: error: ';' expected\. \[ts\]/);
          assert.doesNotMatch(result, /old warning|not edited/);
        },
      },
    );
  });

  test('check commands run after the edit and their lines about the edited file reach the model', async () => {
    // A checker that names the file (the command line itself must not, or the test-definition guard asks).
    const checker = "console.log('add.js:1:1: error: fake check');\nconsole.log('other.js:1:1: error: unrelated');\nprocess.exit(1);\n";
    const check = `${JSON.stringify(process.execPath)} check.js`;
    await runScripted(
      [
        { reply: { toolCalls: [call('propose_patch', { patch: FIX })] } },
        { reply: { toolCalls: [call('finish', { summary: 'done' })] }, expect: { lastMessageContains: 'add.js:1:1: error: fake check' } },
      ],
      {
        files: { ...BUGGY, 'check.js': checker },
        settings: (s) => {
          s.tests.checkCommands = [check];
        },
        inspect: (h) => {
          assert.deepEqual(h.server.mismatches, []);
          const result = h.messages(1).at(-1)!.content!;
          assert.match(result, /check commands after the edit:\n\n\$ .*\nexit 1; lines naming the files you edited:\nadd\.js:1:1: error: fake check/);
          assert.doesNotMatch(result, /unrelated/);
        },
      },
    );
  });
});

describe('the rerun that tells a flake from a failure', () => {
  test('a run whose every failure failed before the run is not rerun: the result says so, and only new failures would be', async () => {
    const node = JSON.stringify(process.execPath);
    await runScripted(
      [
        { reply: { toolCalls: [call('write_file', { path: 'notes.md', content: 'adds is wrong\n' })] } },
        {
          reply: { toolCalls: [call('finish', { summary: 'wrote notes; adds fails as before the run' })] },
          expect: { lastMessageContains: 'not rerun: every failure already failed before the run' },
        },
      ],
      {
        settings: (s) => {
          s.tests.commands = [`${node} --test`];
          s.tests.afterEdit = true;
        },
        inspect: (h) => {
          assert.deepEqual(h.server.mismatches, []);
          const started = h.events.flatMap((e) => (e.type === 'test/started' && !e.note ? [(e as { command: string }).command.replace(node, 'node')] : []));
          // The baseline and the run after the edit; no rerun of add.test.js.
          assert.deepEqual(started, ['node --test', 'node --test']);
          assert.match(h.messages(1).at(-1)!.content!, /1 failure, pre-existing \(adds\); no new failures/);
        },
      },
    );
  });
});
