// Approvals wait for the user: nothing answers them but an answer under their id or the end of their run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApprovalBroker } from '../../../src/host/vscode/chat/approvals/approvalBroker';

test('a pending approval stays until answered; a forged id answers nothing', async () => {
  const seen: string[] = [];
  const broker = new ApprovalBroker({ pending: (a) => seen.push(`pending ${a.id}`), resolved: (id, ok) => seen.push(`resolved ${id} ${ok}`) });
  const answer = broker.ask({ kind: 'command', title: 'npm test', reason: 'not in the allowlist' }, new AbortController().signal);
  assert.equal(broker.pending.length, 1);
  const id = broker.pending[0]!.id;
  assert.equal(broker.answer('a999', { approved: true }), false);
  assert.equal(broker.pending.length, 1, 'still waiting (e.g. while the view is hidden)');
  assert.equal(broker.answer(id, { approved: true }), true);
  assert.deepEqual(await answer, { approved: true });
  assert.equal(broker.answer(id, { approved: false }), false, 'answered once only');
  assert.deepEqual(seen, [`pending ${id}`, `resolved ${id} true`]);
});

test('Stop ends the wait as a denial', async () => {
  const broker = new ApprovalBroker({ pending: () => undefined, resolved: () => undefined });
  const c = new AbortController();
  const answer = broker.ask({ kind: 'patch', title: 'Apply 1 change' }, c.signal);
  c.abort();
  assert.deepEqual(await answer, { approved: false, feedback: 'the run was stopped' });
  assert.equal(broker.pending.length, 0);
});
