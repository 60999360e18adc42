/**
 * Runs the configured hooks of an event (patchpilot.hooks). A hook is a command, so it goes the way
 * run_command's do: the command policy first (its deny rules refuse it; its `ask` is answered by the
 * configuration itself, or by the approval of a workspace hook), then the same executor (the sandbox,
 * the guard of protected and ignored paths, the child environment's allowlist, output limits), with
 * the hook's timeout and the event as JSON on stdin. Matching hooks run one after the other in the
 * order configured; the first that blocks decides and the rest do not run.
 */
import { homedir } from 'node:os';
import { CancelledError } from '../base/cancellation';
import { errorMessage } from '../base/errors';
import type { HookCommand, HookEventName } from '../config/hooks';
import type { ActionApprovalRequest, Approver, CommandExecutor, CommandPolicy } from '../ports';
import { NOT_APPROVED, type HookApprovals } from '../approvals/hooks';
import { hookInput, type HookRunInfo, type HookSubject } from './hookInput';
import { hooksFor } from './matcher';
import { verdictOf, type HookVerdict } from './hookVerdict';

/** One hook's run, for the run's events and its history. */
export interface HookReport {
  event: HookEventName;
  command: string;
  source: 'user' | 'workspace';
  outcome: 'ok' | 'blocked' | 'error' | 'refused';
  reason?: string;
  /** The tool call it ran for (PreToolUse, PostToolUse). */
  tool?: string;
  durationMs: number;
}

export interface HookRunnerOptions {
  hooks: readonly HookCommand[];
  /** Workspace root (real path): where hooks run. */
  root: string;
  policy: CommandPolicy;
  exec: CommandExecutor;
  approvals: HookApprovals;
  /** How the user approves workspace hooks outside a run (the CLI: `patchpilot hooks approve`), for messages. */
  approveHint?: string;
}

export interface HookApprovalContext {
  approver: Approver;
  signal: AbortSignal;
  /** Told before and after each question (the run's approval events). */
  asked?(request: ActionApprovalRequest, answer?: { approved: boolean; unattended?: boolean }): void;
  warn(message: string): void;
}

export class HookRunner {
  constructor(private readonly o: HookRunnerOptions) {}

  get configured(): readonly HookCommand[] {
    return this.o.hooks;
  }

  /** Workspace hooks not approved yet (a changed one counts as new). */
  unapproved(): HookCommand[] {
    return this.o.hooks.filter((h) => !this.o.approvals.isApproved(h));
  }

  /** At a run's start: asks about each workspace hook not approved yet; one not approved does not run (and is named in a warning). */
  async askApprovals(ctx: HookApprovalContext): Promise<void> {
    for (const h of this.unapproved()) {
      const request = approvalQuestion(h, this.o.approvals.staleReason(h), this.o.exec.sandboxed !== false);
      ctx.asked?.(request);
      const answer = await ctx.approver.approveAction(request, ctx.signal);
      ctx.asked?.(request, { approved: answer.approved, ...(answer.unattended ? { unattended: true } : {}) });
      if (answer.approved) this.o.approvals.approve(h);
      else ctx.warn(`workspace hook not approved, so it does not run: ${describeHook(h)}${this.o.approveHint ? ` (${this.o.approveHint})` : ''}`);
    }
  }

  /** Runs the matching, approved hooks of the subject's event; `names`: what a matcher sees (a tool's two names, a notification's type). */
  async fire(
    session: Omit<HookRunInfo, 'cwd'>,
    subject: HookSubject,
    names: readonly string[],
    signal: AbortSignal,
    report: (r: HookReport) => void,
  ): Promise<HookVerdict> {
    const input = JSON.stringify(hookInput({ ...session, cwd: this.o.root }, subject));
    const tool = 'tool' in subject ? subject.tool.name : undefined;
    for (const h of hooksFor(this.o.hooks, subject.event, names)) {
      const stale = this.o.approvals.staleReason(h);
      if (stale) {
        // Approved once, changed since (its script, or outside the sandbox any workspace file): not run, and said; asked again at the next run.
        if (stale !== NOT_APPROVED)
          report({
            event: h.event,
            command: h.command,
            source: 'workspace',
            outcome: 'refused',
            reason: `not run: ${stale}; it is asked about again at the next run`,
            ...(tool ? { tool } : {}),
            durationMs: 0,
          });
        continue;
      }
      const started = Date.now();
      const verdict = await this.runOne(h, input, signal);
      report({
        event: h.event,
        command: h.command,
        source: h.fromWorkspace ? 'workspace' : 'user',
        outcome: verdict.kind === 'block' ? 'blocked' : verdict.kind,
        ...('reason' in verdict ? { reason: verdict.reason } : {}),
        ...(tool ? { tool } : {}),
        durationMs: Date.now() - started,
      });
      if (verdict.kind === 'block') return verdict;
    }
    return { kind: 'ok' };
  }

  private async runOne(h: HookCommand, input: string, signal: AbortSignal): Promise<HookVerdict | { kind: 'refused'; reason: string }> {
    const decision = this.o.policy.check({ command: h.command, workspaceRoot: this.o.root, cwd: this.o.root, homeDir: homedir() });
    if (decision.verdict === 'deny') return { kind: 'refused', reason: `denied by policy (${decision.rule}): ${decision.reason}` };
    try {
      const r = await this.o.exec.run({ command: h.command, cwd: this.o.root, signal, timeoutMs: h.timeoutSeconds * 1000, stdin: input });
      signal.throwIfAborted();
      return verdictOf({ exitCode: r.exitCode, timedOut: r.timedOut, stdout: r.stdout ?? r.output, stderr: r.stderr ?? '', timeoutSeconds: h.timeoutSeconds });
    } catch (err) {
      if (signal.aborted || err instanceof CancelledError) throw err;
      return { kind: 'error', reason: `could not run: ${errorMessage(err)}` };
    }
  }
}

/** "PreToolUse (Bash|Edit): ./check.sh" */
export function describeHook(h: HookCommand): string {
  return `${h.event}${h.matcher ? ` (${h.matcher})` : ''}: ${h.command}`;
}

function approvalQuestion(h: HookCommand, stale: string | undefined, sandboxed: boolean): ActionApprovalRequest {
  const where = sandboxed
    ? 'it runs in the sandbox like run_command, and asks again if it or a file it names changes'
    : 'commands are not sandboxed here, so it runs with your full rights, and asks again when any file in the workspace changes';
  return {
    kind: 'hook',
    title: `run workspace hook ${describeHook(h)}`,
    reason: `${stale && stale !== NOT_APPROVED ? `${stale.replace('since it was approved', 'since you approved it')}; ` : ''}the workspace's settings run this command on the agent's events; ${where}`,
    detail: [`event: ${h.event}`, `matcher: ${h.matcher ?? '(every one)'}`, `command: ${h.command}`, `timeout: ${h.timeoutSeconds} s`].join('\n'),
  };
}
