import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { FIX, TEST_CMD, call, runScripted } from './harness';
import type { RunHistory } from '../../../src/core/orchestrator';

describe('after an applied edit', () => {
  test('autoCommit commits exactly the patched file, and the failing tests reach the model in the same result', async () => {
    const wrongFix = FIX.replace('a + b', 'a * b + 1');
    await runScripted(
      [
        { reply: { toolCalls: [call('propose_patch', { patch: wrongFix })] } },
        { reply: { toolCalls: [call('finish', { summary: 'committed' })] }, expect: { lastMessageContains: 'tests FAILED' } },
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
