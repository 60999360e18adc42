import * as vscode from 'vscode';
import { errorMessage } from '../../../../core/base';
import type { Handler } from './types';

const KEY = 'policy.allow';

/**
 * "Always Allow" on a command's card: the pattern (one the card was offered, never another) goes
 * into patchpilot.policy.allow of the chosen scope, where the Settings editor shows it and removes
 * it; then the command is approved. The lists of user and workspace settings add up (settings.ts
 * concatenates them), so each scope gets only its own list plus the pattern. Deny and ask rules and
 * protected paths still win over it (policy: deny > ask > allow); the new rule counts from the next
 * run, which reads the settings afresh.
 */
export const alwaysAllow: Handler<'approval/alwaysAllow'> = async ({ id, pattern, scope }, { host, log }) => {
  const request = host.approvals.request(id);
  if (!request?.allowPatterns?.includes(pattern)) {
    log.warn(`approval/alwaysAllow for ${id}: not a pattern this approval offered`);
    return { ok: false, error: 'That approval no longer waits, or did not offer this pattern.' };
  }
  const where = scope === 'workspace' ? 'workspace settings' : 'user settings';
  try {
    const config = vscode.workspace.getConfiguration('patchpilot');
    const inspected = config.inspect<string[]>(KEY);
    const own = (scope === 'workspace' ? inspected?.workspaceValue : inspected?.globalValue) ?? [];
    if (!own.includes(pattern)) {
      await config.update(KEY, [...own, pattern], scope === 'workspace' ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global);
    }
  } catch (err) {
    // Nothing is written: the card stays, so the user can still approve once.
    host.addNotice('error', `Could not add "${pattern}" to patchpilot.policy.allow in the ${where}: ${errorMessage(err)}`);
    return { ok: false, error: errorMessage(err) };
  }
  host.addNotice(
    'info',
    `Always allowed from the next run on: "${pattern}" (patchpilot.policy.allow, ${where}; remove it there to be asked again). Deny rules and protected paths still apply.`,
  );
  const ok = host.approvals.answer(id, { approved: true });
  return { ok };
};
