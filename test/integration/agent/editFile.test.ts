// End to end: a model that edits by exact string replacement (edit_file) through the built
// `patchpilot run`, against the scripted model server. The edit becomes a patch like any other:
// applied by the PatchManager, tested after the edit, and recorded in the history with its diff.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ScriptedTurn } from '../../support/scriptedModel';
import { FIX, TEST_CMD } from '../../unit/orchestrator/harness';
import { call, events, historyRuns, runCli, runGoal, skipWithoutBuild, withRepo } from './support';

describe('patchpilot run with edit_file (built CLI, scripted model server)', { skip: skipWithoutBuild }, () => {
  test('the string edit is applied and recorded in the history as the same patch propose_patch would be', async () => {
    const turns: ScriptedTurn[] = [
      { reply: { toolCalls: [call('read_file', { path: 'add.js' })] } },
      {
        reply: { toolCalls: [call('edit_file', { path: 'add.js', old_string: '(a, b) => a - b', new_string: '(a, b) => a + b' })] },
        expect: { lastMessageContains: 'a - b' },
      },
      { reply: { toolCalls: [call('finish', { summary: 'Fixed add().' })] }, expect: { lastMessageContains: 'applied 1 hunk to add.js' } },
    ];
    await withRepo(turns, async (root, server) => {
      const r = await runGoal('make the add test pass', root, server, ['--test-cmd', TEST_CMD]);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(server.mismatches, []);
      assert.equal(readFileSync(path.join(root, 'add.js'), 'utf8'), 'exports.add = (a, b) => a + b;\n');
      const ev = events(r.stdout);
      assert.ok(ev.some((e) => e.type === 'patch/proposed' && e.ok === true));
      assert.ok(
        ev.some((e) => e.type === 'test/finished' && e.exitCode === 0),
        'the after-edit tests ran',
      );

      const runs = await historyRuns(root);
      assert.deepEqual([runs[0]!.status, runs[0]!.patchCount], ['finished', 1]);
      const show = await runCli(['show', runs[0]!.id, '--cwd', root, '--json'], { command: 'history' });
      assert.equal(show.code, 0, show.stderr);
      const detail = JSON.parse(show.stdout) as { patches: { text: string; files: string[]; acceptedHunks: string[]; reversePatch: string | null }[] };
      const [patch] = detail.patches;
      // The derived diff is what propose_patch would have been sent (FIX, with the a/ b/ headers and its counts).
      assert.equal(patch!.text, FIX.replace('@@ -1 +1 @@', '@@ -1,1 +1,1 @@'));
      assert.deepEqual([patch!.files, patch!.acceptedHunks], [['add.js'], ['add.js#1']]);
      assert.match(patch!.reversePatch ?? '', /-exports\.add = \(a, b\) => a \+ b;\n\+exports\.add = \(a, b\) => a - b;/);
    });
  });
});
