import { allowedByUserRules } from '../policy/command/userAllowed';
import type { PolicyDecision } from '../policy/types';
import type { ActionApprovalRequest, TaskRunResult } from '../ports';
import type { ApprovalMode } from '../config/settings';
import type { Approver } from '../ports';
import { approvalHint } from './approvalHint';
import { ToolError, type ToolContext, type ToolEvent } from './types';

/** What the gate decides with: the approval mode, the approver, and where its events go (ask.ts holds them for the tools). */
export interface GateParts {
  mode: ApprovalMode;
  approver: Approver;
  signal: AbortSignal;
  emit?(event: ToolEvent): void;
}

/**
 * Whether an action may go ahead under the approval mode, asking the Approver when needed.
 *   ask:       every write and every command asks.
 *   auto-edit: writes go ahead, commands ask.
 *   auto:      writes and policy-allowed commands go ahead.
 *   plan:      nothing is written or run.
 * In every mode but plan, a command every part of which the user's own allow rules cover
 * (patchpilot.policy.allow, "Always Allow" on an approval card) goes ahead too.
 * Policy first in every mode: deny stays denied; an `ask` verdict (a protected path, a command off
 * the allowlist) always asks, whatever the mode.
 */
export async function gateAction(
  gate: GateParts,
  request: ActionApprovalRequest,
  decision?: PolicyDecision,
  options: { edit?: boolean } = {},
): Promise<{ feedback?: string }> {
  if (decision) gate.emit?.({ type: 'policy', kind: POLICY_KIND[request.kind], subject: request.title, decision });
  if (decision?.verdict === 'deny') throw new ToolError(`denied by policy (${decision.rule}): ${decision.reason}`);
  if (gate.mode === 'plan') throw new ToolError('plan mode: nothing is written or run; describe the step in your plan instead');
  const writes = request.kind === 'write';
  const userAllowed = request.kind === 'command' && allowedByUserRules(decision);
  const autoApproved = decision?.verdict !== 'ask' && (gate.mode === 'auto' || (gate.mode === 'auto-edit' && writes) || userAllowed);
  if (autoApproved) return {};
  const modeReason = `${gate.mode} mode asks before ${ASKS_BEFORE[request.kind]}`;
  const asked: ActionApprovalRequest = { ...request, reason: reasonToAsk(request, decision, modeReason) };
  gate.emit?.({ type: 'approval-needed', request: asked });
  const answer = await gate.approver.approveAction(asked, gate.signal);
  const unattended = !answer.approved && answer.unattended !== undefined;
  // `edit`: a change to the user's files (write_file), so a run of only such refusals ends blocked.
  gate.emit?.({
    type: 'approval-answered',
    kind: request.kind,
    approved: answer.approved,
    ...(unattended ? { unattended } : {}),
    ...(options.edit ? { edit: true } : {}),
  });
  if (!answer.approved) {
    // The model reads why approval was needed (the policy's rule and reason, or the mode), so it can take another way.
    const why = decision?.verdict === 'ask' ? `It needed approval (${decision.rule}): ${decision.reason}` : `It needed approval: ${modeReason}.`;
    const hint = approvalHint(gate.mode, REFUSED_KIND[request.kind], decision);
    if (unattended) throw new ToolError(`not done, nobody could approve it: ${request.title}. ${answer.unattended}\n${why}${hint ? `\n${hint}` : ''}`);
    throw new ToolError(`the user declined: ${request.title}${answer.feedback ? `. Their words: ${answer.feedback}` : ''}\n${why}`);
  }
  return { feedback: answer.feedback };
}

/**
 * Why the person is asked: the policy's reason when a rule asks, else the mode. A rule that allows
 * the action is no reason to ask about it, only context.
 */
function reasonToAsk(request: ActionApprovalRequest, decision: PolicyDecision | undefined, modeReason: string): string {
  if (decision?.verdict === 'ask') return decision.reason;
  const allowed = decision?.verdict === 'allow';
  const context = allowed ? decision.reason : request.reason;
  if (!context) return `${modeReason}.`;
  const prefix = allowed && request.kind === 'command' ? 'the command policy alone would allow it: ' : '';
  return `${modeReason} (${prefix}${context.replace(/\.$/, '')}).`;
}

const ASKS_BEFORE: Record<ActionApprovalRequest['kind'], string> = {
  command: 'every command',
  tests: 'running the tests',
  write: 'every write',
  fetch: 'every fetch',
  mcp: 'every MCP tool call',
  hook: 'every workspace hook',
};

const REFUSED_KIND = { command: 'command', tests: 'command', write: 'edit', fetch: 'other', mcp: 'other', hook: 'other' } as const;

// An MCP call runs outside PatchPilot like a command does: audited with the commands.
const POLICY_KIND = { command: 'command', tests: 'command', write: 'path', fetch: 'network', mcp: 'command', hook: 'command' } as const;

/** (attacks.guard) protected paths a command created or changed (already moved aside or restored) go to the audit trail as denials. */
export function auditProtectedChanges(ctx: Pick<ToolContext, 'emit'>, run: Pick<TaskRunResult, 'protectedChanges'>): void {
  for (const c of run.protectedChanges ?? []) {
    const done = c.action === 'moved-aside' ? `moved aside to ${c.movedTo}` : c.action === 'restored' ? 'original restored' : 'could not be undone';
    ctx.emit?.({
      type: 'policy',
      kind: 'path',
      subject: `${c.change} ${c.path}`,
      decision: { verdict: 'deny', rule: 'deny:protected-by-command', reason: `A command ${c.change} the protected path "${c.path}"; ${done}.` },
    });
  }
}
