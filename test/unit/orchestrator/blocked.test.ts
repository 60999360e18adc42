// A run whose every edit was refused because nobody could be asked (a headless `ask` run) is not
// a success, whatever the model concludes: it ends `blocked`, in the events and in the history.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BUGGY, FIX, call, runScripted } from './harness';
import { ScriptedApprover } from '../tools/helpers';

const NOBODY = 'no terminal to ask the user';
const ask = (s: { approval: { mode: string } }) => {
  s.approval.mode = 'ask';
};

describe('blocked: every edit refused for want of approval', () => {
  test('a patch and a write refused as unattended: blocked, the model was told nobody could approve, history agrees on status and steps', async () => {
    const approver = new ScriptedApprover({
      patch: () => ({ acceptedHunks: [], unattended: NOBODY }),
      action: () => ({ approved: false, unattended: NOBODY }),
    });
    const h = await runScripted(
      [
        { reply: { toolCalls: [call('propose_patch', { patch: FIX })] } },
        {
          reply: { toolCalls: [call('write_file', { path: 'notes.md', content: 'x\n' })] },
          expect: { lastMessageContains: 'nobody could approve the patch, so nothing was changed: no terminal' },
        },
        {
          reply: { toolCalls: [call('finish', { summary: 'Done: add() fixed.' })] },
          expect: { lastMessageContains: 'not done, nobody could approve it: create notes.md' },
        },
      ],
      {
        approver,
        settings: ask,
        inspect: async (x) => {
          assert.deepEqual(x.server.mismatches, []);
          const [run] = await x.history.listRuns();
          assert.deepEqual([run!.status, run!.steps], ['blocked', 3]);
          assert.equal(readFileSync(path.join(x.root, 'add.js'), 'utf8'), BUGGY['add.js']);
        },
      },
    );
    assert.equal(h.outcome.status, 'blocked');
    assert.match(h.outcome.reason, /every edit needed approval and nobody could give it \(2 refused\)/);
    const finished = h.events.at(-1)!;
    assert.deepEqual(finished.type === 'run/finished' && [finished.status, finished.steps], ['blocked', 3]);
    assert.equal(h.events.filter((e) => e.type === 'approval/answered' && e.unattended).length, 2);
  });

  test('one edit refused unattended, another applied: the run finished (something was done)', async () => {
    const approver = new ScriptedApprover({ patch: () => ({ acceptedHunks: [], unattended: NOBODY }), action: () => ({ approved: true }) });
    const h = await runScripted(
      [
        { reply: { toolCalls: [call('propose_patch', { patch: FIX })] } },
        { reply: { toolCalls: [call('write_file', { path: 'notes.md', content: 'x\n' })] } },
        { reply: { toolCalls: [call('finish', { summary: 'Wrote notes.' })] } },
      ],
      { approver, settings: ask },
    );
    assert.equal(h.outcome.status, 'finished');
  });

  test('a person who says no is not "unattended": the run finishes as the model decides', async () => {
    const approver = new ScriptedApprover({ patch: () => ({ acceptedHunks: [], feedback: 'not like this' }) });
    const h = await runScripted(
      [
        { reply: { toolCalls: [call('propose_patch', { patch: FIX })] } },
        { reply: { toolCalls: [call('finish', { summary: 'The user declined.' })] }, expect: { lastMessageContains: 'the user rejected the patch' } },
      ],
      { approver, settings: ask },
    );
    assert.deepEqual(h.server.mismatches, []);
    assert.equal(h.outcome.status, 'finished');
  });
});
