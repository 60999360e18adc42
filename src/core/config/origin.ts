import type { SettingScope } from './resolve';
import type { SettingKey } from './settings';

/** Environment variables the CLI reads, in the same order as the flags override them. */
export const ENV_SETTINGS: Readonly<Record<string, SettingKey>> = {
  PATCHPILOT_PROVIDER: 'patchpilot.llm.provider',
  PATCHPILOT_BASE_URL: 'patchpilot.llm.baseUrl',
  PATCHPILOT_MODEL: 'patchpilot.llm.model',
  PATCHPILOT_FAST_MODEL: 'patchpilot.llm.fastModel',
  PATCHPILOT_LLM_COMMAND: 'patchpilot.llm.command',
  // User-level like the user settings file: no workspace sets it (see USER_ONLY_REASON).
  PATCHPILOT_MCP_UNSANDBOXED: 'patchpilot.mcp.unsandboxedServers',
};

/** `patchpilot run` options that set a setting (the rest of the command line is the CLI's own). */
export const FLAG_SETTINGS: Readonly<Record<string, SettingKey>> = {
  provider: 'patchpilot.llm.provider',
  'base-url': 'patchpilot.llm.baseUrl',
  model: 'patchpilot.llm.model',
  'fast-model': 'patchpilot.llm.fastModel',
  'llm-command': 'patchpilot.llm.command',
  'thinking-budget': 'patchpilot.llm.anthropic.thinkingBudget',
  approve: 'patchpilot.approval.mode',
  'max-steps': 'patchpilot.limits.maxSteps',
  'max-tokens': 'patchpilot.limits.maxTokens',
  'max-cost-usd': 'patchpilot.limits.maxCostUsd',
  'test-cmd': 'patchpilot.tests.commands',
};

const nameIn = (table: Readonly<Record<string, SettingKey>>, key: SettingKey) => Object.keys(table).find((name) => table[name] === key);

/**
 * Where a value came from, in the words the user typed it: "--base-url", "$PATCHPILOT_MODEL",
 * "patchpilot.llm.baseUrl in /repo/.vscode/settings.json". Error hints name this, so the user
 * changes the value that is really in effect.
 */
export function describeOrigin(key: SettingKey, source: { scope: SettingScope; origin: string } | undefined): string {
  if (!source || source.scope === 'default') return `${key} (not set)`;
  if (source.scope === 'flag') {
    const flag = nameIn(FLAG_SETTINGS, key);
    return flag ? `--${flag}` : `${key} on the command line`;
  }
  if (source.scope === 'env') {
    const env = nameIn(ENV_SETTINGS, key);
    return env ? `$${env}` : `${key} from the environment`;
  }
  return `${key} in ${source.origin}`;
}
