/**
 * What a hook's exit says, as Claude Code defines it: 0 goes on (its stdout may be JSON with a
 * decision), 2 blocks with stderr as the reason, anything else (a crash, a timeout, a kill) is an
 * error that is reported and does not block. The JSON subset read on exit 0:
 *   {"decision": "block", "reason": "..."}                                   every event that can block
 *   {"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "..."}}   PreToolUse
 *   {"continue": false, "stopReason": "..."}                                  blocks, the stop reason as its reason
 * Any other stdout (plain text, other fields) is ignored.
 */
import { headTail } from '../base/truncate';

/** How much of a reason reaches the model or the user (the head and the tail). */
export const REASON_CHARS = 4_000;

export type HookVerdict = { kind: 'ok' } | { kind: 'block'; reason: string } | { kind: 'error'; reason: string };

export interface HookExit {
  exitCode: number | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  timeoutSeconds: number;
}

export function verdictOf(x: HookExit): HookVerdict {
  if (x.timedOut) return { kind: 'error', reason: `timed out after ${x.timeoutSeconds} s (stopped)` };
  if (x.exitCode === 2) return { kind: 'block', reason: brief(x.stderr) || 'blocked by a hook (it gave no reason on stderr)' };
  if (x.exitCode !== 0)
    return { kind: 'error', reason: `${x.exitCode === null ? 'killed' : `exit ${x.exitCode}`}${x.stderr.trim() ? `: ${brief(x.stderr)}` : ''}` };
  return decisionOf(x.stdout);
}

/** A decision in the JSON a hook printed on exit 0; plain text or other JSON goes on. */
export function decisionOf(stdout: string): HookVerdict {
  const text = stdout.trim();
  if (!text.startsWith('{')) return { kind: 'ok' };
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { kind: 'ok' };
  }
  const specific = o.hookSpecificOutput as Record<string, unknown> | undefined;
  if (specific && typeof specific === 'object' && specific.permissionDecision === 'deny')
    return { kind: 'block', reason: reasonOr(specific.permissionDecisionReason) };
  if (o.decision === 'block') return { kind: 'block', reason: reasonOr(o.reason) };
  if (o.continue === false) return { kind: 'block', reason: reasonOr(o.stopReason) };
  return { kind: 'ok' };
}

function reasonOr(v: unknown): string {
  return typeof v === 'string' && v.trim() ? brief(v) : 'blocked by a hook (it gave no reason)';
}

function brief(text: string): string {
  return headTail(text.trim(), REASON_CHARS).text;
}
