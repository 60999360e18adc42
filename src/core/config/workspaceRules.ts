import type { SettingKey } from './settings';

/**
 * What a workspace's own settings (`.vscode/settings.json`, a folder's settings) may do with one
 * setting. The invariant: **a workspace can tighten, never loosen or redirect**. Anything that raises
 * a limit, turns a source of instructions back on, changes where requests go or what runs is the
 * user's alone unless the workspace is trusted. `resolveSettings` applies this table, for VS Code and
 * the CLI alike; a value a rule refuses is ignored and reported (`ResolvedConfig.ignored`).
 *
 * - `free`: harmless either way (how the UI behaves; adding ask or deny rules only tightens).
 * - `lower`: a number a workspace may lower below the value in effect, never raise.
 * - `narrow`: a workspace may choose one of `safeValues` (a feature off, `ask`), or repeat the value
 *   already in effect; any other value needs trust.
 * - `trusted`: redirects requests, chooses what runs or widens what is allowed: trusted workspaces only.
 * - `user`: the user's own scopes only, ignored from every workspace, trusted or not.
 */
export type WorkspaceRule = { may: 'free' } | { may: 'lower' } | { may: 'narrow'; safeValues: readonly unknown[] } | { may: 'trusted' } | { may: 'user' };

const free = { may: 'free' } as const;
const lower = { may: 'lower' } as const;
const trusted = { may: 'trusted' } as const;
const user = { may: 'user' } as const;
/** A switch a workspace may only turn off. */
const offOnly = { may: 'narrow', safeValues: [false] } as const;

/** Every setting's rule. The type makes a new setting without a row a compile error; a test checks package.json against it. */
export const WORKSPACE_RULES: { readonly [K in SettingKey]: WorkspaceRule } = {
  // Where requests go, with which of the user's keys (CVE-2026-21852), and which model answers.
  'patchpilot.llm.provider': trusted,
  'patchpilot.llm.baseUrl': trusted,
  'patchpilot.llm.model': trusted,
  'patchpilot.llm.fastModel': trusted,
  // A bigger window or a lower price lets more tokens (and money) through the user's limits.
  'patchpilot.llm.contextWindows': trusted,
  'patchpilot.llm.prices': trusted,
  'patchpilot.llm.anthropic.thinkingBudget': lower,
  // A program run with the conversation on its stdin.
  'patchpilot.llm.command': user,
  'patchpilot.context.maxTokens': lower,
  'patchpilot.context.maxTokensByModel': trusted,
  // Sources of instructions: a workspace may silence one, never bring back one the user turned off.
  'patchpilot.rules.agentsMd': offOnly,
  'patchpilot.rules.claudeMd': offOnly,
  'patchpilot.rules.cursor': offOnly,
  'patchpilot.rules.cline': offOnly,
  'patchpilot.rules.roo': offOnly,
  'patchpilot.rules.copilot': offOnly,
  'patchpilot.approval.mode': { may: 'narrow', safeValues: ['ask', 'plan'] },
  // What runs.
  'patchpilot.tests.commands': trusted,
  'patchpilot.tests.afterEdit': offOnly,
  'patchpilot.tests.checkCommands': trusted,
  'patchpilot.tests.timeoutSeconds': lower,
  'patchpilot.tests.runOnSave': { may: 'narrow', safeValues: ['off'] },
  'patchpilot.limits.maxSteps': lower,
  'patchpilot.limits.maxConsecutiveFailures': lower,
  'patchpilot.limits.wallClockMinutes': lower,
  'patchpilot.limits.maxTokens': lower,
  'patchpilot.limits.maxCostUsd': lower,
  'patchpilot.limits.dailyCostUsd': lower,
  'patchpilot.limits.maxRepeatedFailures': lower,
  'patchpilot.checkpoints.enabled': offOnly,
  'patchpilot.checkpoints.maxBytes': lower,
  'patchpilot.git.autoCommit': offOnly,
  // Where the history is written; retention deletes the user's history.
  'patchpilot.history.path': trusted,
  'patchpilot.history.retention.days': trusted,
  'patchpilot.history.retention.maxObservations': trusted,
  'patchpilot.policy.allow': trusted,
  // More questions and more refusals only tighten; the lists add up, so a workspace cannot remove the user's.
  'patchpilot.policy.ask': free,
  'patchpilot.policy.deny': free,
  'patchpilot.policy.protectedPaths': trusted,
  'patchpilot.policy.denyPaths': trusted,
  'patchpilot.policy.fetchAllowHosts': trusted,
  'patchpilot.policy.allowPrivateNetwork': offOnly,
  // What reaches the workspace's own commands (and, through their output, the model).
  'patchpilot.policy.envAllow': trusted,
  'patchpilot.policy.homeAllow': trusted,
  // A socket such as docker.sock is root on the host.
  'patchpilot.sandbox.allowUnixSockets': user,
  // A server's command runs code and a remote one receives what the agent sends it (CVE-2025-54136).
  'patchpilot.mcp.servers': trusted,
  // Trust in a repository is not a reason to let it take its own servers out of the sandbox.
  'patchpilot.mcp.unsandboxedServers': user,
  // A hook is a command run on the agent's events (approved one by one even when trusted: hookApprovals.ts).
  'patchpilot.hooks': trusted,
  'patchpilot.subagents.maxConcurrent': lower,
  // Queries (model-chosen text) go to this provider and URL.
  'patchpilot.webSearch.provider': { may: 'narrow', safeValues: ['off'] },
  'patchpilot.webSearch.url': trusted,
  // A chat listed here runs goals in the workspace.
  'patchpilot.channels.telegram.allowedChatIds': user,
  // A person listed here approves what the agent does.
  'patchpilot.channels.telegram.approverIds': user,
  'patchpilot.notifications.approvalWhenUnfocused': free,
  // Telemetry sends what the agent does (and, with includeContent, prompts and files) to a collector: where data goes is the user's choice.
  'patchpilot.telemetry.enabled': user,
  'patchpilot.telemetry.otlpEndpoint': user,
  'patchpilot.telemetry.otlpProtocol': user,
  'patchpilot.telemetry.prometheusEndpoint': user,
  'patchpilot.telemetry.includeContent': user,
};

/** Why a user-only key from a workspace is ignored (no trust makes it count). */
export const USER_ONLY_REASON =
  'only your user settings (or, in the CLI, its user settings file, flag or environment variable) may set it, never a workspace, trusted or not';

export type WorkspaceVerdict = { use: true } | { use: false; reason: string; userOnly?: true };

/**
 * May a workspace layer's value count? `inEffect`: the value the user's scopes and the defaults (and
 * earlier workspace layers) give before it, so "lower" means lower than what the user chose.
 */
export function judgeWorkspaceValue(key: SettingKey, value: unknown, inEffect: unknown, workspaceTrusted: boolean): WorkspaceVerdict {
  const rule: WorkspaceRule = WORKSPACE_RULES[key];
  if (rule.may === 'user') return { use: false, reason: USER_ONLY_REASON, userOnly: true };
  if (rule.may === 'free' || workspaceTrusted) return { use: true };
  if (rule.may === 'lower') {
    // Not a number: validation refuses it with a clear error, whoever set it.
    if (inEffect === undefined || typeof value !== 'number' || (typeof inEffect === 'number' && value <= inEffect)) return { use: true };
    return { use: false, reason: `the workspace is not trusted, and it may only lower this limit (in effect: ${JSON.stringify(inEffect)})` };
  }
  if (rule.may === 'narrow' && (rule.safeValues.includes(value) || sameValue(value, inEffect))) return { use: true };
  return { use: false, reason: 'the workspace is not trusted' };
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
