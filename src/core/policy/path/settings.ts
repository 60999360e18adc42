/**
 * Settings of the path half of the policy engine. Both lists only add strictness; workspace
 * values count only in a trusted workspace (A10), because a repository writes its own settings.
 */

export interface PathPolicySettings {
  /** `patchpilot.policy.protectedPaths`: extra gitignore-style globs that always ask before a write/create/delete. */
  protectedPaths: readonly string[];
  /** `patchpilot.policy.denyPaths`: gitignore-style globs no tool may read, list, search or change. */
  denyPaths: readonly string[];
}

export const DEFAULT_PATH_SETTINGS: PathPolicySettings = Object.freeze({
  protectedPaths: Object.freeze([]) as readonly string[],
  denyPaths: Object.freeze([]) as readonly string[],
});

export interface PathSettingsSources {
  user?: Partial<PathPolicySettings>;
  workspace?: Partial<PathPolicySettings>;
  trusted: boolean;
}

/** User globs plus (trusted only) workspace globs; non-strings and blanks are dropped. */
export function resolvePathSettings(sources: PathSettingsSources): PathPolicySettings {
  const layers = [sources.user, sources.trusted ? sources.workspace : undefined];
  const pick = (key: keyof PathPolicySettings): string[] => {
    const out: string[] = [];
    for (const layer of layers) {
      const v = layer?.[key];
      if (Array.isArray(v)) for (const g of v) if (typeof g === 'string' && g.trim()) out.push(g.trim());
    }
    return out;
  };
  return { protectedPaths: pick('protectedPaths'), denyPaths: pick('denyPaths') };
}
