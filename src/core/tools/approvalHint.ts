/**
 * What the user could do so that a refused action goes ahead next time, told to the model with the
 * refusal. It must be true for the mode and the kind of action: no "allow edits with auto-edit" for
 * a command, nor in a run that is already in auto; no mode change when the policy (not the mode)
 * asked, because it asks in every mode.
 */
import type { ApprovalMode } from '../config/settings';
import type { PolicyDecision } from '../policy/types';

/** The kind of action refused: a change to files (a patch, a write) or something run (a command, tests, a hook...). */
export type RefusedKind = 'edit' | 'command' | 'other';

export function approvalHint(mode: ApprovalMode, kind: RefusedKind, decision?: Pick<PolicyDecision, 'verdict' | 'rule'>): string {
  if (decision?.verdict === 'ask') return policyHint(kind, decision.rule);
  if (kind === 'edit') return mode === 'ask' ? 'In approval mode auto-edit (--approve auto-edit) or auto, edits go ahead without asking.' : '';
  if (kind === 'command')
    return mode === 'ask' || mode === 'auto-edit' ? 'In approval mode auto (--approve auto), the commands the policy allows run without asking.' : '';
  return mode === 'ask' ? 'In approval mode auto (--approve auto) it would go ahead without asking.' : '';
}

/** The policy asked: changing the mode would not help; say what would. */
function policyHint(kind: RefusedKind, rule: string): string {
  if (rule === 'ask:unsandboxed-code')
    return 'Commands are not sandboxed on this machine (bubblewrap is not usable), so any that runs workspace code asks in every mode; read the code instead, or leave the command for the user.';
  if (rule === 'ask:overwrite') return 'To change an existing file, use edit_file or propose_patch instead of overwriting it.';
  if (rule === 'ask:not-allowlisted' && kind === 'command') return 'No allow rule covers it; the user can add one (patchpilot.policy.allow).';
  // Any other rule asks in every mode, and the line before already names it: no hint is the true one.
  return '';
}
