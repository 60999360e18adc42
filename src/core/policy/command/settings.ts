import { parseRulePattern, type CommandRule, type RuleSource } from './rules';

/** The command half of `patchpilot.policy.*`: pattern strings like "git status" or "npm run *". */
export interface CommandPolicySettings {
  allow?: readonly string[];
  ask?: readonly string[];
  deny?: readonly string[];
}

export interface CommandPolicyConfig {
  /** User (global) settings: always honoured. */
  user?: CommandPolicySettings;
  /** Workspace settings: a repository can write these, so its allow rules count only when trusted. */
  workspace?: CommandPolicySettings;
  /** Workspace Trust. When false, workspace allow rules are ignored (its deny/ask only tighten, so they stay). */
  trusted: boolean;
  /** Sub-commands in one command line before we stop and ask (default 16). */
  maxSubcommands?: number;
  /** How deep `bash -c '...'` strings are parsed (default 3). */
  maxDepth?: number;
  /** From the path half: paths listed in .patchpilotignore. */
  isIgnoredPath?: (absPath: string) => boolean;
}

export interface BuiltRules {
  rules: CommandRule[];
  /** Patterns that could not be read: reported, never silently widened into something else. */
  errors: string[];
}

export function buildUserRules(config: CommandPolicyConfig): BuiltRules {
  const rules: CommandRule[] = [];
  const errors: string[] = [];
  const add = (list: readonly string[] | undefined, verdict: 'allow' | 'ask' | 'deny', source: RuleSource) => {
    for (const p of list ?? []) {
      if (typeof p !== 'string' || p.trim() === '') {
        errors.push(`patchpilot.policy.${verdict}: ignored an empty or non-string pattern (${source} settings)`);
        continue;
      }
      rules.push(parseRulePattern(p, verdict, source));
    }
  };
  for (const [scope, s] of [
    ['user', config.user],
    ['workspace', config.workspace],
  ] as const) {
    if (!s) continue;
    add(s.deny, 'deny', scope);
    add(s.ask, 'ask', scope);
    if (scope === 'user' || config.trusted) add(s.allow, 'allow', scope);
    else if (s.allow?.length) errors.push('patchpilot.policy.allow from the workspace is ignored: the workspace is not trusted');
  }
  return { rules, errors };
}
