/**
 * Shared vocabulary of the policy engine. Precedence is deny > ask > allow, and no approval mode
 * (auto included) turns a deny into anything else or skips the ask of a protected path.
 */

export type Verdict = 'allow' | 'ask' | 'deny';

export interface PolicyDecision {
  verdict: Verdict;
  /** The rule that decided, e.g. "deny:rm-recursive-root", "allow:git-status", "protected:.vscode/". */
  rule: string;
  /** A sentence for the user and the model: why. */
  reason: string;
  /** For commands: the decision of every sub-command, so the UI can show which part asked. */
  parts?: PolicyDecision[];
}

/** Combines decisions: the strictest wins (deny > ask > allow). */
export function strictest(decisions: readonly PolicyDecision[], fallback: PolicyDecision): PolicyDecision {
  const rank: Record<Verdict, number> = { allow: 0, ask: 1, deny: 2 };
  let best: PolicyDecision | undefined;
  for (const d of decisions) if (!best || rank[d.verdict] > rank[best.verdict]) best = d;
  return best ?? fallback;
}

// The fetch result a port may name (ports import only `<domain>/types`).
export type { SafeFetchResult } from '../web/safeFetch';
export type { CommandPolicy, CommandCheckInput } from './command/types';
