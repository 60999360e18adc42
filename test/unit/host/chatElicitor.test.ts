// An MCP server's form waits in the chat as a card (the approval broker's `elicitation` kind): the
// answer from the card, checked again on the host, is what the server receives; a stopped run
// removes the card and answers cancel; with the chat hidden VS Code's inputs ask too, first answer wins.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ElicitationRequest, ElicitationResponse, Elicitor } from '../../../src/core/ports';
import { ApprovalBroker } from '../../../src/host/vscode/chat/approvals/approvalBroker';
import { ChatElicitor } from '../../../src/host/vscode/chat/approvals/chatElicitor';
import { notifyIfUnfocused } from '../../../src/host/vscode/chat/approvals/unfocusedApprovalLogic';
import { answerElicitation } from '../../../src/host/vscode/chat/handlers/answerElicitation';
import type { HandlerContext } from '../../../src/host/vscode/chat/handlers/types';

const form: ElicitationRequest = {
  server: 'asks',
  mode: 'form',
  message: 'Who are you?',
  requestedSchema: {
    type: 'object',
    properties: { name: { type: 'string', title: 'Name' }, age: { type: 'integer', minimum: 0 }, check: { type: 'boolean' }, nested: { type: 'object' } },
    required: ['name'],
  },
};

class FakeInputs implements Elicitor {
  readonly asked: AbortSignal[] = [];
  answer?: (r: ElicitationResponse) => void;
  elicit(_r: ElicitationRequest, signal: AbortSignal): Promise<ElicitationResponse> {
    this.asked.push(signal);
    return new Promise((resolve) => (this.answer = resolve));
  }
}

function setup(visible: boolean) {
  const events: string[] = [];
  const broker = new ApprovalBroker({ pending: (a) => events.push(`pending ${a.kind}`), resolved: (id) => events.push(`resolved ${id}`) });
  const inputs = new FakeInputs();
  const elicitor = new ChatElicitor(broker, () => visible, inputs);
  const warned: string[] = [];
  const ctx = { host: { approvals: broker }, log: { warn: (m: string) => warned.push(m), info: () => undefined } } as unknown as HandlerContext;
  return { broker, inputs, elicitor, ctx, events, warned };
}

test('the form waits as a card with its fields; wrong values come back as errors and it keeps waiting; right ones reach the server typed', async () => {
  const { broker, inputs, elicitor, ctx } = setup(true);
  const answer = elicitor.elicit(form, new AbortController().signal);
  const card = broker.pending[0]!;
  assert.equal(card.kind, 'elicitation');
  assert.equal(card.form?.message, 'Who are you?');
  assert.deepEqual(
    card.form?.fields.map((f) => [f.key, f.kind, f.required]),
    [
      ['name', 'text', true],
      ['age', 'integer', false],
      ['check', 'boolean', false],
    ],
  );
  assert.deepEqual(card.form?.unsupported, ['nested']);
  assert.equal(inputs.asked.length, 0, 'the chat is visible: no VS Code inputs');

  const bad = await answerElicitation({ id: card.id, action: 'accept', values: { name: '', age: '1.5' } }, ctx);
  assert.equal(bad.ok, false);
  assert.deepEqual(Object.keys(bad.errors ?? {}).sort(), ['age', 'name']);
  assert.equal(broker.pending.length, 1, 'still waiting for a correct answer');

  assert.deepEqual(await answerElicitation({ id: card.id, action: 'accept', values: { name: 'Ada', age: '36', check: true } }, ctx), { ok: true });
  assert.deepEqual(await answer, { action: 'accept', content: { name: 'Ada', age: 36, check: true } });
  assert.equal(broker.pending.length, 0);
});

test('Decline and Cancel answer without values; a forged id or an approval that is no form answers nothing', async () => {
  const { broker, elicitor, ctx, warned } = setup(true);
  const declined = elicitor.elicit(form, new AbortController().signal);
  const id = broker.pending[0]!.id;
  assert.deepEqual(await answerElicitation({ id: 'a999', action: 'accept', values: { name: 'x' } }, ctx), { ok: false });
  const approval = broker.ask({ kind: 'command', title: 'npm test' }, new AbortController().signal);
  const approvalId = broker.pending[1]!.id;
  assert.deepEqual(await answerElicitation({ id: approvalId, action: 'decline' }, ctx), { ok: false });
  assert.equal(warned.length, 2);
  assert.deepEqual(await answerElicitation({ id, action: 'decline' }, ctx), { ok: true });
  assert.deepEqual(await declined, { action: 'decline' });
  const cancelled = elicitor.elicit(form, new AbortController().signal);
  assert.deepEqual(await answerElicitation({ id: broker.pending.at(-1)!.id, action: 'cancel' }, ctx), { ok: true });
  assert.deepEqual(await cancelled, { action: 'cancel' });
  broker.answer(approvalId, { approved: false });
  await approval;
});

test('a stopped run removes the card and answers cancel', async () => {
  const { broker, elicitor, events } = setup(true);
  const run = new AbortController();
  const answer = elicitor.elicit(form, run.signal);
  const id = broker.pending[0]!.id;
  run.abort();
  assert.deepEqual(await answer, { action: 'cancel' });
  assert.equal(broker.pending.length, 0);
  assert.deepEqual(events, ['pending elicitation', `resolved ${id}`]);
});

test('chat hidden: VS Code inputs ask as well and their answer wins; a card answered first closes them', async () => {
  const first = setup(false);
  const viaInputs = first.elicitor.elicit(form, new AbortController().signal);
  assert.equal(first.inputs.asked.length, 1);
  assert.equal(first.broker.pending.length, 1, 'the card waits too, for when the view shows');
  first.inputs.answer!({ action: 'accept', content: { name: 'Grace' } });
  assert.deepEqual(await viaInputs, { action: 'accept', content: { name: 'Grace' } });
  assert.equal(first.broker.pending.length, 0);

  const second = setup(false);
  const viaCard = second.elicitor.elicit(form, new AbortController().signal);
  await answerElicitation({ id: second.broker.pending[0]!.id, action: 'decline' }, second.ctx);
  assert.deepEqual(await viaCard, { action: 'decline' });
  assert.equal(second.inputs.asked[0]!.aborted, true, 'the VS Code inputs close');
  second.inputs.answer!({ action: 'accept', content: { name: 'late' } });
  assert.equal(second.broker.pending.length, 0);
});

test('a link (URL mode) is asked by VS Code inputs only, as before; a form card never raises the unfocused notification', async () => {
  const { broker, inputs, elicitor } = setup(true);
  const url = elicitor.elicit(
    { server: 'asks', mode: 'url', message: 'Log in', url: 'https://example.com/login', elicitationId: 'e1' },
    new AbortController().signal,
  );
  assert.equal(broker.pending.length, 0);
  inputs.answer!({ action: 'decline' });
  assert.deepEqual(await url, { action: 'decline' });
  const outcome = await notifyIfUnfocused(
    { enabled: () => true, focused: () => false, notify: async () => 'Approve' },
    { id: 'a1', kind: 'elicitation', title: 'MCP server "asks" asks for input' },
    () => true,
  );
  assert.equal(outcome, 'not-shown');
});
