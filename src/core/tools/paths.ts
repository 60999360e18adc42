import type { PolicyDecision } from '../policy/types';
import { ToolError, type ToolContext } from './types';
import type { PathAccess, PathPolicy } from '../ports';

export interface ResolvedPath {
  /** Real absolute path to use for I/O (what the policy checked). */
  abs: string;
  /** Workspace-relative, forward slashes; '' for the root itself. */
  rel: string;
  /** The path policy's word; `ask` is left to the caller (a write asks the Approver). */
  decision: PolicyDecision;
}

/**
 * Turns a path from the model into a checked workspace path, or refuses with the policy's reason:
 * outside the workspace (symlinks resolved), .patchpilotignore, denyPaths. Without a host-supplied
 * policy, the path policy is built from the settings, so no tool ever runs unchecked.
 */
export async function resolveWorkspacePath(ctx: ToolContext, input: string, access: PathAccess): Promise<ResolvedPath> {
  const decision = await pathPolicyOf(ctx).check(input.trim() === '' ? '.' : input.trim(), access);
  if (decision.verdict === 'deny') {
    // A refused read or write is a policy verdict like any other: it belongs in the audit trail.
    ctx.emit?.({ type: 'policy', kind: 'path', subject: `${access} ${input}`, decision });
    throw new ToolError(decision.reason);
  }
  if (decision.realPath === undefined || decision.relativePath === undefined) throw new ToolError(`${input}: cannot be resolved inside the workspace`);
  return { abs: decision.realPath, rel: decision.relativePath, decision };
}

/** The host's path policy, else one built from the settings and the workspace's .patchpilotignore. */
export function pathPolicyOf(ctx: ToolContext): PathPolicy {
  return ctx.ask.paths;
}
