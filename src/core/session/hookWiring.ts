/**
 * The hooks of a wired agent (patchpilot.hooks): none in a read-only agent (restricted mode runs no
 * command), none without hooks configured. A workspace's hooks arrive here only from a trusted
 * workspace (the settings resolver drops them otherwise) and run only once approved (HookApprovals,
 * kept in the workspace's state folder, signed with the user's key like MCP approvals).
 */
import type { PatchPilotSettings } from '../config';
import { defaultUserStateDir } from '../config/userState';
import { HookApprovals } from '../approvals';
import { HookRunner } from '../hooks';
import { probeSandbox } from '../sandbox';
import type { CommandExecutor, CommandPolicy, Notifier } from '../ports';
import { stateDirOf } from './capabilities';

export function createHookRunner(o: {
  root: string;
  settings: PatchPilotSettings;
  policy: CommandPolicy;
  exec: CommandExecutor | undefined;
  userStateDir?: string;
  approveHint?: string;
  notifier?: Notifier;
}): HookRunner | undefined {
  if (!o.exec || o.settings.hooks.length === 0) return undefined;
  const approvals = hookApprovalsOf(o.root, o.settings, { userStateDir: o.userStateDir, outsideSandbox: !o.exec.sandboxed });
  if (approvals.persistProblem && o.settings.hooks.some((h) => h.fromWorkspace)) o.notifier?.warn(approvals.persistProblem);
  return new HookRunner({
    hooks: o.settings.hooks,
    root: o.root,
    policy: o.policy,
    exec: o.exec,
    approvals,
    ...(o.approveHint ? { approveHint: o.approveHint } : {}),
  });
}

/**
 * The workspace's hook approvals (`patchpilot hooks approve` writes them ahead of a run).
 * `outsideSandbox`: whether hooks run outside the sandbox here (default: when bubblewrap does not
 * work), so their approvals bind the whole workspace tree.
 */
export function hookApprovalsOf(
  root: string,
  settings: PatchPilotSettings,
  o: { userStateDir?: string | undefined; outsideSandbox?: boolean } = {},
): HookApprovals {
  return new HookApprovals({
    root,
    stateDir: stateDirOf(root, settings.history.path),
    userStateDir: o.userStateDir ?? defaultUserStateDir(),
    outsideSandbox: o.outsideSandbox ?? !probeSandbox().available,
  });
}
