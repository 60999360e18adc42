// patchpilot.notifications.approvalWhenUnfocused: a notification with Approve / Deny only when the
// setting is on and the window is not focused; its answer goes through the real ApprovalBroker, so
// an approval already answered in the chat is not answered twice.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApprovalBroker } from '../../../src/host/vscode/chat/approvals/approvalBroker';
import { notifyIfUnfocused, type UnfocusedApprovalPorts } from '../../../src/host/vscode/chat/approvals/unfocusedApprovalLogic';
import type { PendingApproval } from '../../../src/protocol/chat';

function setup(o: { enabled: boolean; focused: boolean; pick?: string; title?: string; before?: (broker: ApprovalBroker, id: string) => void }) {
  const shown: { message: string; choices: string[] }[] = [];
  const broker = new ApprovalBroker({ pending: () => undefined, resolved: () => undefined });
  const ports: UnfocusedApprovalPorts = {
    enabled: () => o.enabled,
    focused: () => o.focused,
    notify: async (message, ...choices) => {
      shown.push({ message, choices });
      o.before?.(broker, broker.pending[0]!.id);
      return o.pick;
    },
  };
  const answer = broker.ask({ kind: 'command', title: o.title ?? 'npm publish', reason: 'not on the allowlist' }, new AbortController().signal);
  const request: PendingApproval = broker.pending[0]!;
  return { shown, broker, answer, request, ports, run: () => notifyIfUnfocused(ports, request, (id, a) => broker.answer(id, a)) };
}

describe('approval notification when the window is not focused', () => {
  test('off by default, and never while the window is focused', async () => {
    for (const [enabled, focused] of [
      [false, false],
      [false, true],
      [true, true],
    ] as const) {
      const s = setup({ enabled, focused, pick: 'Approve' });
      assert.equal(await s.run(), 'not-shown');
      assert.deepEqual(s.shown, []);
      assert.equal(s.broker.pending.length, 1, 'the chat still asks');
    }
    assert.equal(await notifyIfUnfocused(undefined, setup({ enabled: true, focused: false }).request, () => true), 'not-shown');
  });

  test('unfocused and on: the question with Approve / Deny; the pick answers the waiting approval', async () => {
    const approved = setup({ enabled: true, focused: false, pick: 'Approve' });
    assert.equal(await approved.run(), 'approved');
    assert.deepEqual(approved.shown, [{ message: 'PatchPilot is waiting for your approval: npm publish', choices: ['Approve', 'Deny'] }]);
    assert.deepEqual(await approved.answer, { approved: true });

    // The exact bytes, through the one renderer: the notification collapses whitespace, the escapes do not.
    const exact = setup({ enabled: true, focused: false, pick: 'Deny', title: 'npm  publish\n--tag x' });
    await exact.run();
    assert.match(exact.shown[0]!.message, /approval: npm␠␠publish\\n--tag x {3}\[shown escaped, exactly as it runs/);

    const denied = setup({ enabled: true, focused: false, pick: 'Deny' });
    assert.equal(await denied.run(), 'denied');
    assert.deepEqual(await denied.answer, { approved: false, feedback: 'denied from the notification' });
  });

  test('dismissed: nothing is answered, the chat still asks; answered in the chat first: the click does nothing', async () => {
    const dismissed = setup({ enabled: true, focused: false, pick: undefined });
    assert.equal(await dismissed.run(), 'dismissed');
    assert.equal(dismissed.broker.pending.length, 1);

    const raced = setup({ enabled: true, focused: false, pick: 'Approve', before: (broker, id) => broker.answer(id, { approved: false }) });
    assert.equal(await raced.run(), 'answered-elsewhere');
    assert.deepEqual(await raced.answer, { approved: false });
  });
});
