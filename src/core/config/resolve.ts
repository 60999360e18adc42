import { UserError } from '../base/errors';
import { providerById } from './providers';
import { describeOrigin } from './origin';
import { isSettingKey, SETTING_KEYS, type PatchPilotSettings, type SettingKey } from './settings';
import { buildSettings, validateSettingValue } from './settingValues';
import { judgeWorkspaceValue } from './workspaceRules';

export { USER_ONLY_REASON } from './workspaceRules';

/** Where a value came from, weakest first. Later layers override earlier ones. */
export type SettingScope = 'default' | 'user' | 'workspace' | 'env' | 'flag';

export interface SettingsLayer {
  scope: Exclude<SettingScope, 'default'>;
  /** For messages: a file path, "environment", "command line". */
  origin: string;
  /** Flat dotted keys (`"patchpilot.llm.model"`); nested `{ patchpilot: { llm: ... } }` objects are accepted too. */
  values: Record<string, unknown>;
}

export interface ResolveInput {
  layers: readonly SettingsLayer[];
  /** Workspace Trust. Untrusted: trust-sensitive keys from the workspace scope are ignored. */
  trusted: boolean;
  /** The secret, from the environment or the host's secret store, never from a settings file. */
  apiKey?: string;
  /** Where the key came from, for error hints ("$OPENAI_API_KEY", "the key saved with PatchPilot: Set API Key"). */
  apiKeyOrigin?: string;
  /** How a user of this host sets a key, for the hint when a server wants one and none was sent. */
  apiKeyHelp?: string;
  /** The Brave Search API key, from the same places as apiKey (CLI: PATCHPILOT_BRAVE_API_KEY). */
  webSearchKey?: string;
}

export interface SettingSource {
  scope: SettingScope;
  origin: string;
  /** Lists and objects that add up across scopes: the weaker layers that gave entries too, weakest first. */
  alsoFrom?: { scope: SettingScope; origin: string }[];
}

export interface ResolvedConfig {
  settings: PatchPilotSettings;
  /** Which layer gave each non-default value; for a list that adds up, the earlier layers that gave part of it too. */
  sources: Partial<Record<SettingKey, SettingSource>>;
  /** The merged, validated value of each key some layer set (what `patchpilot config show` prints), by key. */
  values: Partial<Record<SettingKey, unknown>>;
  /** Values dropped because the workspace is untrusted (or the key is the user's alone: `userOnly`), to tell the user. */
  ignored: { key: SettingKey; origin: string; reason: string; value: unknown; userOnly?: true }[];
  /** Unknown `patchpilot.*` keys (typos), to tell the user. */
  warnings: string[];
  /** Workspace Trust as resolved with: an untrusted workspace's files still choose what its test commands run (tools/runTests.ts). */
  trusted?: boolean;
  /**
   * The key to send with model requests, or undefined. Never set when the base URL comes from an
   * untrusted workspace's settings (CVE-2026-21852: a repository points the client at its server).
   */
  apiKey?: string;
  /** Where the key came from and how this host sets one (ResolveInput), for error hints. */
  apiKeyOrigin?: string;
  apiKeyHelp?: string;
  /** The web search key; like apiKey, never sent to a search URL an untrusted workspace set. */
  webSearchKey?: string;
}

export class ConfigError extends UserError {
  constructor(readonly problems: string[]) {
    super(`invalid settings:\n${problems.map((p) => `  - ${p}`).join('\n')}`, 'config');
    this.name = 'ConfigError';
  }
}

/** Merges the layers, validates every value, applies the trust rule. Throws ConfigError listing every problem. */
export function resolveSettings(input: ResolveInput): ResolvedConfig {
  const values: Partial<Record<SettingKey, unknown>> = {};
  const sources: ResolvedConfig['sources'] = {};
  const ignored: ResolvedConfig['ignored'] = [];
  const warnings: string[] = [];
  const problems: string[] = [];

  for (const layer of input.layers) {
    for (const [key, raw] of Object.entries(flatten(layer.values))) {
      if (!isSettingKey(key)) {
        if (key.startsWith('patchpilot.')) warnings.push(`unknown setting ${key} in ${layer.origin}`);
        continue;
      }
      // VS Code's "unset"; and an empty text field of the Settings UI, an empty flag or variable means unset too.
      if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) continue;
      if (layer.scope === 'workspace') {
        const verdict = judgeWorkspaceValue(key, raw, valueInEffect(values, key), input.trusted);
        if (!verdict.use) {
          ignored.push({ key, origin: layer.origin, reason: verdict.reason, value: raw, ...(verdict.userOnly ? { userOnly: true as const } : {}) });
          continue;
        }
      }
      const checked = validateSettingValue(key, raw, layer.scope);
      if (!checked.ok) {
        // Named as the user typed it: "--base-url", "$PATCHPILOT_MODEL", or the key in its file.
        problems.push(
          `${layer.scope === 'flag' || layer.scope === 'env' ? `${describeOrigin(key, layer)} (${key})` : `${key} (from ${layer.origin})`}: ${checked.message}`,
        );
        continue;
      }
      const previous = sources[key];
      values[key] = isConcat(key) ? addUp(values[key], checked.value) : checked.value;
      sources[key] = { scope: layer.scope, origin: layer.origin };
      if (isConcat(key) && previous) sources[key].alsoFrom = [...(previous.alsoFrom ?? []), { scope: previous.scope, origin: previous.origin }];
    }
  }
  if (problems.length) throw new ConfigError(problems);

  const settings = buildSettings(values);
  applyProviderDefaults(settings, sources);
  if (sources['patchpilot.llm.baseUrl']) values['patchpilot.llm.baseUrl'] = settings.llm.baseUrl;
  const baseUrlSource = sources['patchpilot.llm.baseUrl'];
  // Defence in depth: the filter above already drops such a URL; this keeps the key safe if it ever changes.
  const keyAllowed = !(baseUrlSource?.scope === 'workspace' && !input.trusted);
  const apiKey = keyAllowed && input.apiKey ? input.apiKey : undefined;
  const searchUrlSource = sources['patchpilot.webSearch.url'];
  const searchKeyAllowed = !(searchUrlSource?.scope === 'workspace' && !input.trusted);
  return {
    settings,
    sources,
    values,
    ignored,
    warnings,
    trusted: input.trusted,
    apiKey,
    ...(apiKey && input.apiKeyOrigin ? { apiKeyOrigin: input.apiKeyOrigin } : {}),
    ...(input.apiKeyHelp ? { apiKeyHelp: input.apiKeyHelp } : {}),
    webSearchKey: searchKeyAllowed && input.webSearchKey ? input.webSearchKey : undefined,
  };
}

/**
 * A provider chosen without a base URL answers at its documented endpoint (`--provider ollama`
 * alone reaches the local Ollama). The URL counts as set where the provider was, so the trust rule
 * for the key applies to it as to a typed URL.
 */
function applyProviderDefaults(settings: PatchPilotSettings, sources: ResolvedConfig['sources']): void {
  const provider = providerById(settings.llm.provider);
  const providerSource = sources['patchpilot.llm.provider'];
  if (settings.llm.baseUrl || !provider?.defaultBaseUrl || !providerSource) return;
  settings.llm.baseUrl = provider.defaultBaseUrl;
  sources['patchpilot.llm.baseUrl'] = { scope: providerSource.scope, origin: `${providerSource.origin} (the default endpoint of ${provider.label})` };
}

/** Lists add up (no duplicates); objects merge key by key, the later scope winning a key both have. */
function addUp(previous: unknown, next: unknown): unknown {
  if (Array.isArray(previous) && Array.isArray(next)) return [...new Set([...previous, ...next])];
  if (isPlainObject(previous) && isPlainObject(next)) return { ...previous, ...next };
  return next;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function isConcat(key: SettingKey): boolean {
  return 'concat' in SETTING_KEYS[key] && SETTING_KEYS[key].concat === true;
}

/** What the layers before this one give for a key: their value, else the default (for "lower" and "narrow"). */
function valueInEffect(values: Partial<Record<SettingKey, unknown>>, key: SettingKey): unknown {
  if (values[key] !== undefined) return values[key];
  let node: unknown = buildSettings(values);
  for (const part of key.replace(/^patchpilot\./, '').split('.'))
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  return node;
}

/** `{ patchpilot: { llm: { model: "x" } } }` -> `{ "patchpilot.llm.model": "x" }`; arrays are values, not branches. */
function flatten(values: Record<string, unknown>, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && (key === 'patchpilot' || key.startsWith('patchpilot.')) && !isSettingKey(key)) {
      Object.assign(out, flatten(v as Record<string, unknown>, key));
    } else out[key] = v;
  }
  return out;
}
