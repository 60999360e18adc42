import type { PolicyDecision } from '../types';

/**
 * Whether the user's own allow rules (patchpilot.policy.allow, from user settings or a trusted
 * workspace: "Always Allow" on an approval card writes them) cover every part of the command.
 * Such a command runs without asking in every approval mode but plan, as peers' allow lists do;
 * a part allowed only by the built-in defaults, or asked or denied by any rule, keeps the mode's
 * ask (deny > ask > allow still holds: the decision is `allow` only when no part asks or denies).
 */
export function allowedByUserRules(decision: PolicyDecision | undefined): boolean {
  if (decision?.verdict !== 'allow') return false;
  const parts = decision.parts?.length ? decision.parts : [decision];
  return parts.every((p) => p.verdict === 'allow' && /^(?:user|workspace)-allow:/.test(p.rule));
}
