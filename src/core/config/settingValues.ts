/**
 * A raw settings value checked against its key's kind (errors name what was expected and what came),
 * and the typed settings built from checked values.
 */
import { parseHooks, type HookCommand } from './hooks';
import { parseMcpServers, type McpServerConfig } from './mcpServers';
import {
  APPROVAL_MODES,
  DEFAULT_SETTINGS,
  RULE_SOURCE_NAMES,
  SETTING_KEYS,
  WEB_SEARCH_PROVIDERS,
  type PatchPilotSettings,
  type RuleSourceName,
  type SettingKey,
  type SettingKind,
  type WebSearchProvider,
} from './settings';
/**
 * Checks one raw value; returns the typed value or a message saying what was expected. `scope`: the
 * layer it came from (hooks remember whether a workspace set them; default: not a workspace).
 */
export function validateSettingValue(key: SettingKey, value: unknown, scope?: string): { ok: true; value: unknown } | { ok: false; message: string } {
  const kind: SettingKind = SETTING_KEYS[key].kind;
  const got = describe(value);
  switch (kind) {
    case 'string':
      if (typeof value === 'string' && value.trim() !== '') return { ok: true, value: value.trim() };
      return { ok: false, message: `expected a non-empty string, got ${got}` };
    case 'url': {
      if (typeof value !== 'string') return { ok: false, message: `expected an http(s) URL, got ${got}` };
      let url: URL;
      try {
        url = new URL(value.trim());
      } catch {
        return { ok: false, message: `expected an http(s) URL, got ${got}` };
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, message: `expected an http(s) URL, got ${got}` };
      if (url.username || url.password) return { ok: false, message: 'the URL must not carry credentials; use PATCHPILOT_API_KEY' };
      return { ok: true, value: value.trim().replace(/\/+$/, '') };
    }
    case 'mode':
      if (typeof value === 'string' && (APPROVAL_MODES as readonly string[]).includes(value)) return { ok: true, value };
      return { ok: false, message: `expected one of ${APPROVAL_MODES.join(', ')}, got ${got}` };
    case 'string[]':
      if (Array.isArray(value) && value.every((v) => typeof v === 'string' && v.trim() !== '')) return { ok: true, value: value.map((v: string) => v.trim()) };
      return { ok: false, message: `expected an array of non-empty strings, got ${got}` };
    case 'absPath[]':
      if (Array.isArray(value) && value.every((v) => typeof v === 'string' && v.trim().startsWith('/')))
        return { ok: true, value: value.map((v: string) => v.trim()) };
      return { ok: false, message: `expected an array of absolute paths, got ${got}` };
    case 'boolean':
      if (typeof value === 'boolean') return { ok: true, value };
      return { ok: false, message: `expected true or false, got ${got}` };
    case 'posnum':
      if (typeof value === 'number' && Number.isFinite(value) && value > 0) return { ok: true, value };
      return { ok: false, message: `expected a positive number, got ${got}` };
    case 'onOffGlob': {
      if (typeof value === 'boolean') return { ok: true, value: value ? 'on' : 'off' };
      if (typeof value !== 'string' || value.trim() === '') return { ok: false, message: `expected "off", "on" or a glob such as "src/**/*.ts", got ${got}` };
      const v = value.trim();
      if (v === 'off' || v === 'on') return { ok: true, value: v };
      if (v.startsWith('/') || v.split('/').includes('..')) return { ok: false, message: `expected a workspace-relative glob, got ${got}` };
      return { ok: true, value: v };
    }
    case 'object':
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) return { ok: true, value };
      return { ok: false, message: `expected an object, got ${got}` };
    case 'posint':
      if (typeof value === 'number' && Number.isInteger(value) && value > 0) return { ok: true, value };
      return { ok: false, message: `expected a positive integer, got ${got}` };
    case 'mcpServers':
      return parseMcpServers(value);
    case 'hooks':
      return parseHooks(value, scope === 'workspace');
    case 'searchProvider':
      if (typeof value === 'string' && (WEB_SEARCH_PROVIDERS as readonly string[]).includes(value)) return { ok: true, value };
      return { ok: false, message: `expected one of ${WEB_SEARCH_PROVIDERS.join(', ')}, got ${got}` };
    case 'modelTokens': {
      const expected = 'an object of model names to positive integers (tokens), e.g. {"my-model": 32768}';
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ok: false, message: `expected ${expected}, got ${got}` };
      const out: Record<string, number> = {};
      for (const [name, tokens] of Object.entries(value)) {
        if (name.trim() === '' || typeof tokens !== 'number' || !Number.isInteger(tokens) || tokens <= 0) {
          return { ok: false, message: `expected ${expected}; "${truncate(name)}" has ${describe(tokens)}` };
        }
        out[name.trim()] = tokens;
      }
      return { ok: true, value: out };
    }
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array ${truncate(JSON.stringify(value))}`;
  if (typeof value === 'string') return JSON.stringify(truncate(value));
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

function truncate(s: string): string {
  return s.length > 60 ? s.slice(0, 57) + '...' : s;
}

/** One setting's validated value, or the fallback when it is not set. */
type ReadSetting = <T>(key: SettingKey, fallback: T) => T;

/** Builds the typed settings from validated flat values (missing keys take their defaults). */
export function buildSettings(values: Partial<Record<SettingKey, unknown>>): PatchPilotSettings {
  const d = DEFAULT_SETTINGS;
  const v: ReadSetting = (key, fallback) => (values[key] === undefined ? fallback : (values[key] as typeof fallback));
  const commands = v('patchpilot.tests.commands', d.tests.commands);
  return {
    llm: llmSettings(v),
    context: {
      maxTokens: v<number | undefined>('patchpilot.context.maxTokens', undefined),
      maxTokensByModel: { ...v<Record<string, number>>('patchpilot.context.maxTokensByModel', {}) },
    },
    rules: Object.fromEntries(RULE_SOURCE_NAMES.map((name) => [name, v(`patchpilot.rules.${name}`, d.rules[name])])) as Record<RuleSourceName, boolean>,
    approval: { mode: v('patchpilot.approval.mode', d.approval.mode) },
    tests: testSettings(v, d, commands),
    limits: limitSettings(v, d),
    git: { autoCommit: v('patchpilot.git.autoCommit', d.git.autoCommit) },
    checkpoints: {
      enabled: v('patchpilot.checkpoints.enabled', d.checkpoints.enabled),
      maxBytes: v('patchpilot.checkpoints.maxBytes', d.checkpoints.maxBytes),
    },
    history: {
      path: v('patchpilot.history.path', d.history.path),
      retention: {
        days: v<number | undefined>('patchpilot.history.retention.days', undefined),
        maxObservations: v<number | undefined>('patchpilot.history.retention.maxObservations', undefined),
      },
    },
    policy: policySettings(v, d),
    sandbox: { allowUnixSockets: [...v('patchpilot.sandbox.allowUnixSockets', d.sandbox.allowUnixSockets)] },
    mcp: {
      servers: { ...v<Record<string, McpServerConfig>>('patchpilot.mcp.servers', d.mcp.servers) },
      unsandboxedServers: [...v('patchpilot.mcp.unsandboxedServers', d.mcp.unsandboxedServers)],
    },
    hooks: [...v<HookCommand[]>('patchpilot.hooks', d.hooks)],
    subagents: { maxConcurrent: v('patchpilot.subagents.maxConcurrent', d.subagents.maxConcurrent) },
    webSearch: {
      provider: v<WebSearchProvider | undefined>('patchpilot.webSearch.provider', undefined),
      url: v<string | undefined>('patchpilot.webSearch.url', undefined),
    },
    channels: {
      telegram: {
        allowedChatIds: [...v('patchpilot.channels.telegram.allowedChatIds', d.channels.telegram.allowedChatIds)],
        approverIds: [...v('patchpilot.channels.telegram.approverIds', d.channels.telegram.approverIds)],
      },
    },
    notifications: { approvalWhenUnfocused: v('patchpilot.notifications.approvalWhenUnfocused', d.notifications.approvalWhenUnfocused) },
    telemetry: telemetrySettings(v, d),
  };
}

/** The model: endpoint, models, their context windows and prices, a model program. */
function llmSettings(v: ReadSetting): PatchPilotSettings['llm'] {
  return {
    provider: v<string | undefined>('patchpilot.llm.provider', undefined),
    baseUrl: v<string | undefined>('patchpilot.llm.baseUrl', undefined),
    model: v<string | undefined>('patchpilot.llm.model', undefined),
    fastModel: v<string | undefined>('patchpilot.llm.fastModel', undefined),
    contextWindows: { ...v<Record<string, number>>('patchpilot.llm.contextWindows', {}) },
    prices: v<Record<string, unknown> | undefined>('patchpilot.llm.prices', undefined),
    command: v<string | undefined>('patchpilot.llm.command', undefined),
    thinkingBudget: v<number | undefined>('patchpilot.llm.anthropic.thinkingBudget', undefined),
  };
}

/** The test commands and when they run. */
function testSettings(v: ReadSetting, d: PatchPilotSettings, commands: string[]): PatchPilotSettings['tests'] {
  return {
    commands: [...commands],
    afterEdit: v('patchpilot.tests.afterEdit', commands.length > 0),
    checkCommands: [...v('patchpilot.tests.checkCommands', d.tests.checkCommands)],
    timeoutSeconds: v('patchpilot.tests.timeoutSeconds', d.tests.timeoutSeconds),
    runOnSave: v('patchpilot.tests.runOnSave', d.tests.runOnSave),
  };
}

/** When a run stops: steps, failures, time, tokens, cost. */
function limitSettings(v: ReadSetting, d: PatchPilotSettings): PatchPilotSettings['limits'] {
  return {
    maxSteps: v('patchpilot.limits.maxSteps', d.limits.maxSteps),
    maxConsecutiveFailures: v('patchpilot.limits.maxConsecutiveFailures', d.limits.maxConsecutiveFailures),
    wallClockMinutes: v('patchpilot.limits.wallClockMinutes', d.limits.wallClockMinutes),
    maxTokens: v<number | undefined>('patchpilot.limits.maxTokens', undefined),
    maxCostUsd: v<number | undefined>('patchpilot.limits.maxCostUsd', undefined),
    dailyCostUsd: v<number | undefined>('patchpilot.limits.dailyCostUsd', undefined),
    maxRepeatedFailures: v('patchpilot.limits.maxRepeatedFailures', d.limits.maxRepeatedFailures),
  };
}

/** What commands, paths and network the agent may use. */
function policySettings(v: ReadSetting, d: PatchPilotSettings): PatchPilotSettings['policy'] {
  return {
    allow: [...v('patchpilot.policy.allow', d.policy.allow)],
    ask: [...v('patchpilot.policy.ask', d.policy.ask)],
    deny: [...v('patchpilot.policy.deny', d.policy.deny)],
    protectedPaths: [...v('patchpilot.policy.protectedPaths', d.policy.protectedPaths)],
    denyPaths: [...v('patchpilot.policy.denyPaths', d.policy.denyPaths)],
    fetchAllowHosts: [...v('patchpilot.policy.fetchAllowHosts', d.policy.fetchAllowHosts)],
    allowPrivateNetwork: v('patchpilot.policy.allowPrivateNetwork', d.policy.allowPrivateNetwork),
    envAllow: [...v('patchpilot.policy.envAllow', d.policy.envAllow)],
    homeAllow: [...v('patchpilot.policy.homeAllow', d.policy.homeAllow)],
  };
}

/** What is exported about runs, and where. */
function telemetrySettings(v: ReadSetting, d: PatchPilotSettings): PatchPilotSettings['telemetry'] {
  return {
    enabled: v('patchpilot.telemetry.enabled', d.telemetry.enabled),
    otlpEndpoint: v<string | undefined>('patchpilot.telemetry.otlpEndpoint', undefined),
    otlpProtocol: v<string | undefined>('patchpilot.telemetry.otlpProtocol', undefined),
    prometheusEndpoint: v<string | undefined>('patchpilot.telemetry.prometheusEndpoint', undefined),
    includeContent: v('patchpilot.telemetry.includeContent', d.telemetry.includeContent),
  };
}
