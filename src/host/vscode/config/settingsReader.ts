/**
 * VS Code configuration -> the core's settings layers, then the core's one trust filter
 * (core/config/resolve.ts). No `vscode` import: it reads through the small ConfigurationLike shape,
 * so plain-Node unit tests drive it with a fake (test/support/fakeConfiguration.ts).
 */
import { resolveSettings, type ResolvedConfig, type SettingsLayer } from '../../../core/config';
import { SETTING_KEYS, type SettingKey } from '../../../core/config';
import { wireOf } from '../../../core/config';

/** The part of `vscode.WorkspaceConfiguration` used here (from `getConfiguration()` without a section). */
export interface ConfigurationLike {
  inspect(key: string): { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown } | undefined;
}

export interface HostConfigInput {
  configuration: ConfigurationLike;
  /** `vscode.workspace.isTrusted` */
  trusted: boolean;
  /** From SecretStorage. */
  apiKey?: string;
  /** The Brave Search key, from SecretStorage. */
  webSearchKey?: string;
  /** Layers above the settings (the demo model's endpoint). */
  overrides?: SettingsLayer[];
  /** The provider whose saved key `apiKey` is ("DeepSeek"), for error hints. */
  keyOf?: string;
}

/** User settings, then workspace, then folder settings (the folder is the workspace's scope too). */
export function readSettingsLayers(configuration: ConfigurationLike): SettingsLayer[] {
  const user: Record<string, unknown> = {};
  const workspace: Record<string, unknown> = {};
  const folder: Record<string, unknown> = {};
  for (const key of Object.keys(SETTING_KEYS) as SettingKey[]) {
    const i = configuration.inspect(key);
    if (!i) continue;
    if (i.globalValue !== undefined) user[key] = i.globalValue;
    if (i.workspaceValue !== undefined) workspace[key] = i.workspaceValue;
    if (i.workspaceFolderValue !== undefined) folder[key] = i.workspaceFolderValue;
  }
  return [
    { scope: 'user', origin: 'user settings', values: user },
    { scope: 'workspace', origin: 'workspace settings', values: workspace },
    { scope: 'workspace', origin: 'workspace folder settings', values: folder },
  ];
}

/** Throws the core's ConfigError (every problem listed) on invalid values. */
export function readHostConfig(input: HostConfigInput): ResolvedConfig {
  return resolveSettings({
    layers: [...readSettingsLayers(input.configuration), ...(input.overrides ?? [])],
    trusted: input.trusted,
    apiKey: input.apiKey,
    apiKeyOrigin: `the ${input.keyOf ? `${input.keyOf} ` : ''}key saved with "PatchPilot: Set API Key"`,
    apiKeyHelp: 'run "PatchPilot: Set API Key"',
    webSearchKey: input.webSearchKey,
  });
}

/** A model server on this machine needs no key (and should not get the user's cloud key). */
export function isLoopbackEndpoint(url: string | undefined): boolean {
  if (!url) return false;
  try {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
  } catch {
    return false;
  }
}

/**
 * Whether the user's own settings (through the trust filter, without the demo's layer) now name a
 * model to use: a base URL, or a provider that needs none. Clearing a field in the Settings UI
 * writes "" (unset): that must not end the demo the user turned on.
 */
export function namesOwnModel(configuration: ConfigurationLike, trusted: boolean): boolean {
  try {
    const { llm } = readHostConfig({ configuration, trusted }).settings;
    return !!llm.baseUrl || wireOf(llm.provider) === 'vscode';
  } catch {
    return false; // an invalid value names nothing usable; the settings error shows when a run starts
  }
}
