// The user's answer to an approval goes to the audit trail next to the verdict that asked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RunRecorder } from '../../../src/core/orchestrator/recorder';
import { USER_ANSWER_RULE, type PolicyDecisionInput } from '../../../src/core/history';
import type { RunHistory } from '../../../src/core/ports';

test('an approval answer becomes a policy row (rule user-answer); patch answers stay per hunk', async () => {
  const decisions: PolicyDecisionInput[] = [];
  const history = {
    startRun: async () => 'run-1',
    addPolicyDecision: async (d: PolicyDecisionInput) => (decisions.push(d), 'p'),
    finishRun: async () => undefined,
  } as unknown as RunHistory;
  const r = new RunRecorder(history, () => undefined);
  await r.start('goal', { reasoning: 'm', fast: 'f' });
  r.toolEvent({ type: 'approval-needed', request: { kind: 'command', title: 'npm publish', reason: 'not on the allowlist' } });
  r.toolEvent({ type: 'approval-answered', kind: 'command', approved: false });
  r.toolEvent({ type: 'approval-needed', request: { kind: 'patch', title: 'apply a patch to a.js', hunks: ['a.js#1'] } });
  r.toolEvent({ type: 'approval-answered', kind: 'patch', approved: true, accepted: ['a.js#1'] });
  r.toolEvent({ type: 'approval-answered', kind: 'command', approved: true });
  await r.finish({ status: 'finished' });
  assert.deepEqual(
    decisions.map((d) => [d.kind, d.subject, d.verdict, d.rule, d.reason]),
    [['command', 'npm publish', 'deny', USER_ANSWER_RULE, 'declined by the user']],
    'one row for the command; none for the patch; none for an answer without its question',
  );
});
