/**
 * Settings of the path half of the policy engine. Both lists only add strictness; workspace
 * values count only in a trusted workspace (attacks.trust), because a repository writes its own settings;
 * that filtering happens once, in src/core/config/resolve.ts (these keys are trust-sensitive).
 */

import type { ProtectedGlob } from './protectedPaths';

export interface PathPolicySettings {
  /**
   * `patchpilot.policy.protectedPaths`: extra gitignore-style globs that always ask before a
   * write/create/delete; plus those added at wiring time with their reason (MCP launch files).
   */
  protectedPaths: readonly ProtectedGlob[];
  /** `patchpilot.policy.denyPaths`: gitignore-style globs no tool may read, list, search or change. */
  denyPaths: readonly string[];
}

export const DEFAULT_PATH_SETTINGS: PathPolicySettings = Object.freeze({
  protectedPaths: Object.freeze([]) as readonly string[],
  denyPaths: Object.freeze([]) as readonly string[],
});
