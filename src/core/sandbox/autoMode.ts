import type { PolicyDecision } from '../policy/types';
import { RUNS_WORKSPACE_CODE } from '../policy/command/commandClasses';

/**
 * Rules cannot make `node script.js` or `npm test` safe: the agent can write the script first.
 * Without the sandbox, auto mode must ask before any part that runs such code.
 */
export function runsArbitraryCode(program: string): boolean {
  return RUNS_WORKSPACE_CODE.has(program);
}

/** The program an allow decision was made for, from its rule name ("allow:npm-test", "user-allow:node *"). */
function programOfRule(rule: string): string | undefined {
  const m = /^(?:user-|workspace-)?allow:([^\s-]+(?:\.[^\s-]+)?)/.exec(rule);
  return m?.[1];
}

/**
 * Upgrades allow to ask, for auto mode when `sandboxed` is false, if any part runs workspace code.
 * Deny and ask stay as they are; with a sandbox the decision is returned unchanged.
 */
export function requireApprovalWhenUnsandboxed(decision: PolicyDecision, sandboxed: boolean): PolicyDecision {
  if (sandboxed || decision.verdict !== 'allow') return decision;
  const parts = decision.parts?.length ? decision.parts : [decision];
  const codeRunner = parts.find((p) => {
    const program = programOfRule(p.rule);
    return program !== undefined && runsArbitraryCode(program);
  });
  if (!codeRunner) return decision;
  return {
    verdict: 'ask',
    rule: 'ask:unsandboxed-code',
    reason: `Commands are not sandboxed here, and ${commandOf(codeRunner.reason)} runs code from the workspace, which the agent may have written.`,
    parts: decision.parts,
  };
}

/** The command a part's reason quotes first (`npx tap` matches the default allow rule ...), else the reason itself. */
function commandOf(reason: string): string {
  return /^(`[^`]*`)/.exec(reason)?.[1] ?? reason.replace(/\.$/, '');
}
