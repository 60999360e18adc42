/**
 * The `patchpilot.*` settings shared by the VS Code extension and the CLI: one typed shape, every
 * key with its kind, and the defaults. Checking and building values: settingValues.ts.
 */
import type { HookCommand } from './hooks';
import type { McpServerConfig } from './mcpServers';

export type ApprovalMode = 'ask' | 'auto-edit' | 'auto' | 'plan';

/** The rules-file formats of other agents, each with its `patchpilot.rules.<name>` switch (docs/rules.md). */
export const RULE_SOURCE_NAMES = ['agentsMd', 'claudeMd', 'cursor', 'cline', 'roo', 'copilot'] as const;
export type RuleSourceName = (typeof RULE_SOURCE_NAMES)[number];
export const APPROVAL_MODES: readonly ApprovalMode[] = ['ask', 'auto-edit', 'auto', 'plan'];

export interface PatchPilotSettings {
  llm: {
    /**
     * Which provider (src/core/llm/providers.ts) and so which client: 'anthropic' the native one,
     * 'vscode' VS Code's own models (host only), anything else or unset the OpenAI-compatible one.
     */
    provider?: string;
    /** OpenAI-compatible endpoint; undefined means the client library's default. */
    baseUrl?: string;
    model?: string;
    /** Cheaper model for small jobs (summaries); falls back to `model`. */
    fastModel?: string;
    /** Context windows (tokens) by model name: win over the endpoint's and the catalog's. */
    contextWindows: Record<string, number>;
    /** Prices (USD per 1M tokens) by model name: win over the catalog's; checked in detail by the model client (llm/prices.ts). */
    prices?: Record<string, unknown>;
    /**
     * A program that serves the model: it reads a chat-completions request (JSON) on stdin and streams
     * the reply on stdout. User settings only. Set, it replaces the endpoint.
     */
    command?: string;
    /** patchpilot.llm.anthropic.thinkingBudget: Anthropic's extended thinking, tokens per reply (at least 1024). Unset: no thinking. */
    thinkingBudget?: number;
  };
  /** The prompt's token budget (src/core/context). */
  context: {
    /** Tokens a request's prompt may use, for every model; default: a share of the model's context window. */
    maxTokens?: number;
    /** The same per model name (wins over maxTokens). */
    maxTokensByModel: Record<string, number>;
  };
  /** Which other agents' rules files the prompt loads (src/core/context/rules); each is on unless turned off. */
  rules: Record<RuleSourceName, boolean>;
  approval: { mode: ApprovalMode };
  tests: {
    commands: string[];
    /** Run the test commands after each applied edit. Default: on when commands exist. */
    afterEdit: boolean;
    /**
     * Commands that check the code after each applied edit (`tsc --noEmit`, `ruff check .`), under the
     * test commands' rules; the lines naming the edited files go back with the edit's result.
     */
    checkCommands: string[];
    timeoutSeconds: number;
    /**
     * VS Code: run the test commands when a file is saved. 'off', 'on' (any workspace file) or a
     * glob of the saved files that trigger a run (the same glob syntax as policy.protectedPaths). The CLI ignores it.
     */
    runOnSave: string;
  };
  limits: {
    maxSteps: number;
    maxConsecutiveFailures: number;
    wallClockMinutes: number;
    /** Tokens (prompt + completion, every model, subagents included) one goal may spend; unset: no limit. */
    maxTokens?: number;
    /** USD one goal may spend (priced requests); unset: no limit. */
    maxCostUsd?: number;
    /** USD the workspace's runs may spend in one local day, summed from the history; unset: no limit. */
    dailyCostUsd?: number;
    /** The same failing tool call (same tool, arguments and failure) this many times stops the run. */
    maxRepeatedFailures: number;
  };
  git: { autoCommit: boolean };
  /** Restore points taken before each step that can change files (src/core/checkpoint). */
  checkpoints: {
    enabled: boolean;
    /** The store's cap in bytes (file contents, deduplicated); the oldest runs' checkpoints are pruned first. */
    maxBytes: number;
  };
  history: {
    /** Database file; relative paths are relative to the workspace. */
    path: string;
    /** Unset: kept forever. Applied when the history opens for a run and from the history panel. */
    retention: {
      /** Runs (with everything recorded under them) and observations older than this many days are deleted. */
      days?: number;
      /** At most this many observations are kept (the newest). */
      maxObservations?: number;
    };
  };
  /** The policy engine's settings (see docs/security.md). Lists from all scopes add up. */
  policy: {
    /** Command patterns ("npm run *") allowed without asking. */
    allow: string[];
    /** Command patterns that always ask. */
    ask: string[];
    /** Command patterns always denied. */
    deny: string[];
    /** Extra globs whose changes always ask. */
    protectedPaths: string[];
    /** Globs no tool may read, list, search or change. */
    denyPaths: string[];
    /** Local/private hosts web_fetch may reach (opt-in). */
    fetchAllowHosts: string[];
    allowPrivateNetwork: boolean;
    /**
     * Environment variable names passed to commands and tests beyond the built-in allowlist
     * (sandbox/childEnv.ts); values that carry credentials are dropped all the same.
     */
    envAllow: string[];
    /** Home-relative paths a sandboxed command may read besides the built-in toolchain exceptions. */
    homeAllow: string[];
  };
  /** The command sandbox (src/core/sandbox). */
  sandbox: {
    /**
     * Unix sockets (absolute paths) sandboxed commands and MCP servers may connect to; empty: none (a seccomp filter
     * refuses them). User settings only: a repository must never open docker.sock to its own code.
     */
    allowUnixSockets: string[];
  };
  /** MCP servers whose tools the agent may use (src/core/mcp). */
  mcp: {
    servers: Record<string, McpServerConfig>;
    /** Local servers the user exempted from the sandbox, by name (user settings only). */
    unsandboxedServers: string[];
  };
  /** Commands run on the agent's events (src/core/hooks), Claude Code's `hooks` shape, flattened; a workspace's need approval. */
  hooks: HookCommand[];
  /** spawn_subagent: how many subagents work at the same time. */
  subagents: { maxConcurrent: number };
  /**
   * web_search: 'duckduckgo' (keyless; url = an endpoint override), 'searxng' (url = the instance),
   * 'brave' (the key from the secret store; url = an endpoint override), 'off'. Unset: searxng when
   * a url is set, brave when a key is, else duckduckgo.
   */
  webSearch: { provider?: WebSearchProvider; url?: string };
  /** `patchpilot serve --telegram`: the chats whose messages run goals (user settings only). */
  channels: { telegram: { allowedChatIds: string[]; approverIds: string[] } };
  /** VS Code: a notification with Approve / Deny when a run waits for approval and the window is not focused. */
  notifications: { approvalWhenUnfocused: boolean };
  /** OpenTelemetry export (src/core/telemetry, docs/telemetry.md): off unless `enabled`; user settings only. */
  telemetry: { enabled: boolean; otlpEndpoint?: string; otlpProtocol?: string; prometheusEndpoint?: string; includeContent: boolean };
}

export type WebSearchProvider = 'duckduckgo' | 'searxng' | 'brave' | 'off';
export const WEB_SEARCH_PROVIDERS: readonly WebSearchProvider[] = ['duckduckgo', 'searxng', 'brave', 'off'];

export type SettingKind =
  | 'string'
  | 'url'
  | 'mode'
  | 'string[]'
  | 'absPath[]'
  | 'boolean'
  | 'posint'
  | 'posnum'
  | 'onOffGlob'
  | 'mcpServers'
  | 'hooks'
  | 'searchProvider'
  | 'modelTokens'
  | 'object';

interface KeySpec {
  kind: SettingKind;
  /** Lists (and objects, key by key) that add up across scopes (user + workspace + ...) instead of the strongest scope winning. */
  concat?: boolean;
}

/** Every key, flat, as written in settings.json. The order is the order of the documentation. What a workspace may set: workspaceRules.ts. */
export const SETTING_KEYS = {
  'patchpilot.llm.provider': { kind: 'string' },
  'patchpilot.llm.baseUrl': { kind: 'url' },
  'patchpilot.llm.model': { kind: 'string' },
  'patchpilot.llm.fastModel': { kind: 'string' },
  'patchpilot.llm.contextWindows': { kind: 'modelTokens' },
  'patchpilot.llm.prices': { kind: 'object' },
  'patchpilot.llm.anthropic.thinkingBudget': { kind: 'posint' },
  'patchpilot.llm.command': { kind: 'string' },
  'patchpilot.context.maxTokens': { kind: 'posint' },
  'patchpilot.context.maxTokensByModel': { kind: 'modelTokens' },
  'patchpilot.rules.agentsMd': { kind: 'boolean' },
  'patchpilot.rules.claudeMd': { kind: 'boolean' },
  'patchpilot.rules.cursor': { kind: 'boolean' },
  'patchpilot.rules.cline': { kind: 'boolean' },
  'patchpilot.rules.roo': { kind: 'boolean' },
  'patchpilot.rules.copilot': { kind: 'boolean' },
  'patchpilot.approval.mode': { kind: 'mode' },
  'patchpilot.tests.commands': { kind: 'string[]' },
  'patchpilot.tests.afterEdit': { kind: 'boolean' },
  'patchpilot.tests.checkCommands': { kind: 'string[]' },
  'patchpilot.tests.timeoutSeconds': { kind: 'posint' },
  'patchpilot.tests.runOnSave': { kind: 'onOffGlob' },
  'patchpilot.limits.maxSteps': { kind: 'posint' },
  'patchpilot.limits.maxConsecutiveFailures': { kind: 'posint' },
  'patchpilot.limits.wallClockMinutes': { kind: 'posnum' },
  'patchpilot.limits.maxTokens': { kind: 'posint' },
  'patchpilot.limits.maxCostUsd': { kind: 'posnum' },
  'patchpilot.limits.dailyCostUsd': { kind: 'posnum' },
  'patchpilot.limits.maxRepeatedFailures': { kind: 'posint' },
  'patchpilot.checkpoints.enabled': { kind: 'boolean' },
  'patchpilot.checkpoints.maxBytes': { kind: 'posint' },
  'patchpilot.git.autoCommit': { kind: 'boolean' },
  'patchpilot.history.path': { kind: 'string' },
  'patchpilot.history.retention.days': { kind: 'posint' },
  'patchpilot.history.retention.maxObservations': { kind: 'posint' },
  'patchpilot.policy.allow': { kind: 'string[]', concat: true },
  'patchpilot.policy.ask': { kind: 'string[]', concat: true },
  'patchpilot.policy.deny': { kind: 'string[]', concat: true },
  'patchpilot.policy.protectedPaths': { kind: 'string[]', concat: true },
  'patchpilot.policy.denyPaths': { kind: 'string[]', concat: true },
  'patchpilot.policy.fetchAllowHosts': { kind: 'string[]', concat: true },
  'patchpilot.policy.allowPrivateNetwork': { kind: 'boolean' },
  'patchpilot.policy.envAllow': { kind: 'string[]', concat: true },
  'patchpilot.policy.homeAllow': { kind: 'string[]', concat: true },
  'patchpilot.sandbox.allowUnixSockets': { kind: 'absPath[]', concat: true },
  'patchpilot.mcp.servers': { kind: 'mcpServers', concat: true },
  'patchpilot.mcp.unsandboxedServers': { kind: 'string[]', concat: true },
  'patchpilot.hooks': { kind: 'hooks', concat: true },
  'patchpilot.subagents.maxConcurrent': { kind: 'posint' },
  'patchpilot.webSearch.provider': { kind: 'searchProvider' },
  'patchpilot.webSearch.url': { kind: 'url' },
  'patchpilot.channels.telegram.allowedChatIds': { kind: 'string[]' },
  'patchpilot.channels.telegram.approverIds': { kind: 'string[]' },
  'patchpilot.notifications.approvalWhenUnfocused': { kind: 'boolean' },
  'patchpilot.telemetry.enabled': { kind: 'boolean' },
  'patchpilot.telemetry.otlpEndpoint': { kind: 'url' },
  'patchpilot.telemetry.otlpProtocol': { kind: 'string' },
  'patchpilot.telemetry.prometheusEndpoint': { kind: 'string' },
  'patchpilot.telemetry.includeContent': { kind: 'boolean' },
} as const satisfies Record<string, KeySpec>;

export type SettingKey = keyof typeof SETTING_KEYS;

export function isSettingKey(key: string): key is SettingKey {
  return Object.prototype.hasOwnProperty.call(SETTING_KEYS, key);
}

export const DEFAULT_SETTINGS: Readonly<PatchPilotSettings> = Object.freeze({
  llm: { contextWindows: {} },
  context: { maxTokensByModel: {} },
  rules: { agentsMd: true, claudeMd: true, cursor: true, cline: true, roo: true, copilot: true },
  approval: { mode: 'ask' },
  tests: { commands: [], afterEdit: false, checkCommands: [], timeoutSeconds: 600, runOnSave: 'off' },
  limits: { maxSteps: 50, maxConsecutiveFailures: 3, wallClockMinutes: 30, maxRepeatedFailures: 3 },
  git: { autoCommit: false },
  checkpoints: { enabled: true, maxBytes: 512 * 1024 * 1024 },
  history: { path: '.patchpilot/history.db', retention: {} },
  policy: { allow: [], ask: [], deny: [], protectedPaths: [], denyPaths: [], fetchAllowHosts: [], allowPrivateNetwork: false, envAllow: [], homeAllow: [] },
  sandbox: { allowUnixSockets: [] },
  mcp: { servers: {}, unsandboxedServers: [] },
  hooks: [],
  subagents: { maxConcurrent: 4 },
  webSearch: {},
  channels: { telegram: { allowedChatIds: [], approverIds: [] } },
  notifications: { approvalWhenUnfocused: false },
  telemetry: { enabled: false, includeContent: false },
} satisfies PatchPilotSettings);
