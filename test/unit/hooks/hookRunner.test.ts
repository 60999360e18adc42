// The hook runner with a fake executor and policy: the matching hooks run in order with the event on
// stdin and the first that blocks decides; a deny verdict keeps a hook from running; a workspace hook
// runs only once approved, and a run that cannot ask says how to approve it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { HookCommand } from '../../../src/core/config/hooks';
import { HookApprovals } from '../../../src/core/approvals/hooks';
import { HookRunner, type HookReport } from '../../../src/core/hooks/hookRunner';
import type { CommandExecutor, CommandPolicy } from '../../../src/core/ports';

const hook = (command: string, fromWorkspace = false, matcher = 'Bash'): HookCommand => ({
  event: 'PreToolUse',
  matcher,
  command,
  timeoutSeconds: 5,
  fromWorkspace,
});
const subject = { event: 'PreToolUse' as const, tool: { name: 'run_command', input: { command: 'ls' }, callId: 'c1' } };
const session = { sessionId: 'run-1', mode: 'ask' as const };

function runner(hooks: HookCommand[], exits: Record<string, { exitCode: number; stderr?: string }>, deny: string[] = []) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pp-hook-runner-'));
  const ran: { command: string; stdin?: string; timeoutMs?: number }[] = [];
  const exec: CommandExecutor = {
    sandboxed: true,
    async run(r) {
      ran.push({ command: r.command, stdin: r.stdin, timeoutMs: r.timeoutMs });
      const x = exits[r.command] ?? { exitCode: 0 };
      return { exitCode: x.exitCode, output: '', stdout: '', stderr: x.stderr ?? '', truncated: false, durationMs: 1, timedOut: false, cancelled: false };
    },
  };
  const policy: CommandPolicy = {
    check: ({ command }) =>
      deny.includes(command)
        ? { verdict: 'deny', rule: 'deny:user', reason: 'denied by your rule' }
        : { verdict: 'ask', rule: 'ask:default', reason: 'not on the allowlist' },
  };
  const approvals = new HookApprovals({ root: dir, userStateDir: path.join(dir, 'state'), outsideSandbox: false });
  const r = new HookRunner({ hooks, root: dir, policy, exec, approvals, approveHint: 'approve them ahead with: patchpilot hooks approve' });
  return { r, ran, approvals, root: dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

describe('HookRunner', () => {
  test('matching hooks run in order with the event on stdin and their timeout; the first block decides, the rest do not run', async () => {
    const t = runner([hook('a'), hook('other', false, 'Edit'), hook('b'), hook('c')], { b: { exitCode: 2, stderr: 'no' } });
    try {
      const reports: HookReport[] = [];
      const v = await t.r.fire(session, subject, ['run_command', 'Bash'], new AbortController().signal, (x) => reports.push(x));
      assert.deepEqual(v, { kind: 'block', reason: 'no' });
      assert.deepEqual(
        t.ran.map((x) => x.command),
        ['a', 'b'],
      );
      const input = JSON.parse(t.ran[0]!.stdin!);
      assert.deepEqual([input.hook_event_name, input.tool_name, input.cwd, input.permission_mode], ['PreToolUse', 'run_command', t.root, 'default']);
      assert.equal(t.ran[0]!.timeoutMs, 5000);
      assert.deepEqual(
        reports.map((x) => [x.command, x.outcome, x.source, x.tool]),
        [
          ['a', 'ok', 'user', 'run_command'],
          ['b', 'blocked', 'user', 'run_command'],
        ],
      );
    } finally {
      t.cleanup();
    }
  });

  test("a deny verdict refuses the hook (it never runs, nothing blocks); the policy's ask is answered by the configuration", async () => {
    const t = runner([hook('rm -rf ~'), hook('ok')], {}, ['rm -rf ~']);
    try {
      const reports: HookReport[] = [];
      const v = await t.r.fire(session, subject, ['Bash'], new AbortController().signal, (x) => reports.push(x));
      assert.deepEqual(v, { kind: 'ok' });
      assert.deepEqual(
        t.ran.map((x) => x.command),
        ['ok'],
      );
      assert.equal(reports[0]!.outcome, 'refused');
      assert.match(reports[0]!.reason!, /denied by policy \(deny:user\)/);
    } finally {
      t.cleanup();
    }
  });

  test('a workspace hook: not run until approved; nobody to ask is a warning with the way to approve; approved it runs', async () => {
    const t = runner([hook('ws', true)], {});
    try {
      const warnings: string[] = [];
      const asked: string[] = [];
      await t.r.askApprovals({
        approver: { approvePatch: async () => ({ acceptedHunks: [] }), approveAction: async () => ({ approved: false, unattended: 'no terminal' }) },
        signal: new AbortController().signal,
        asked: (req, answer) => asked.push(`${req.kind}:${answer ? answer.approved : 'asked'}`),
        warn: (m) => warnings.push(m),
      });
      assert.deepEqual(asked, ['hook:asked', 'hook:false']);
      assert.match(
        warnings[0]!,
        /workspace hook not approved, so it does not run: PreToolUse \(Bash\): ws \(approve them ahead with: patchpilot hooks approve\)/,
      );
      await t.r.fire(session, subject, ['Bash'], new AbortController().signal, () => undefined);
      assert.equal(t.ran.length, 0);
      await t.r.askApprovals({
        approver: { approvePatch: async () => ({ acceptedHunks: [] }), approveAction: async () => ({ approved: true }) },
        signal: new AbortController().signal,
        warn: (m) => warnings.push(m),
      });
      assert.deepEqual(t.r.unapproved(), []);
      await t.r.fire(session, subject, ['Bash'], new AbortController().signal, () => undefined);
      assert.deepEqual(
        t.ran.map((x) => x.command),
        ['ws'],
      );
    } finally {
      t.cleanup();
    }
  });
});
