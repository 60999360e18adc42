import { readFileSync } from 'node:fs';
import path from 'node:path';
// The ESM build: esbuild bundles the UMD one with a dynamic require that breaks dist/cli.js.
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser/lib/esm/main.js';
import { ConfigError, resolveSettings, type ResolvedConfig, type SettingsLayer } from './resolve';
import { SETTING_KEYS, type SettingKey } from './settings';
import { ENV_SETTINGS } from './origin';
import { providerById } from './providers';
import { errorMessage } from '../base';

export interface CliConfigInput {
  workspace: string;
  env: NodeJS.ProcessEnv;
  /** Values from command-line flags, already mapped to keys; strongest layer. */
  flags: Partial<Record<SettingKey, unknown>>;
  trusted: boolean;
}

/**
 * The CLI's settings: the user's own file (`$XDG_CONFIG_HOME/patchpilot/settings.json`, else
 * `~/.config/patchpilot/settings.json`: the CLI's "user settings", the only place for user-only keys
 * such as `patchpilot.sandbox.allowUnixSockets`), then `<workspace>/.vscode/settings.json` (JSONC),
 * then the environment, then flags. `PATCHPILOT_MCP_UNSANDBOXED` (comma-separated server names) also
 * sets the user-level `patchpilot.mcp.unsandboxedServers`, which no workspace may set.
 * The API key comes from PATCHPILOT_API_KEY, else the chosen provider's own variable (OPENAI_API_KEY
 * when no provider is chosen, ANTHROPIC_API_KEY for "anthropic"; none for local servers); the Brave Search key from
 * PATCHPILOT_BRAVE_API_KEY; never from a file.
 */
export function loadCliConfig(input: CliConfigInput): ResolvedConfig {
  const layers: SettingsLayer[] = [];
  const userFile = cliUserSettingsFile(input.env);
  const userValues = userFile ? readJsoncSettings(userFile) : undefined;
  if (userFile && userValues) layers.push({ scope: 'user', origin: userFile, values: userValues });
  const file = path.join(input.workspace, '.vscode', 'settings.json');
  const workspaceValues = readJsoncSettings(file);
  if (workspaceValues) layers.push({ scope: 'workspace', origin: file, values: workspaceValues });

  const envValues: Record<string, unknown> = {};
  for (const [name, key] of Object.entries(ENV_SETTINGS)) {
    const value = input.env[name];
    // A list in a variable: comma-separated names.
    if (value !== undefined && value !== '')
      envValues[key] =
        SETTING_KEYS[key].kind === 'string[]'
          ? value
              .split(',')
              .map((v) => v.trim())
              .filter(Boolean)
          : value;
  }
  layers.push({ scope: 'env', origin: 'environment', values: envValues });
  layers.push({ scope: 'flag', origin: 'command line', values: input.flags });

  const webSearchKey = input.env.PATCHPILOT_BRAVE_API_KEY || undefined;
  // The provider decides which well-known key variable is read: DEEPSEEK_API_KEY is never sent to another provider.
  const provider = providerById(resolveSettings({ layers, trusted: input.trusted }).settings.llm.provider);
  const providerVars = provider ? (provider.keyEnvVar ? [provider.keyEnvVar] : []) : ['OPENAI_API_KEY'];
  const keyVar = ['PATCHPILOT_API_KEY', ...providerVars].find((name) => input.env[name]);
  return resolveSettings({
    layers,
    trusted: input.trusted,
    apiKey: keyVar ? input.env[keyVar] : undefined,
    ...(keyVar ? { apiKeyOrigin: `$${keyVar}` } : {}),
    apiKeyHelp: `set PATCHPILOT_API_KEY${providerVars.length ? ` (or ${providerVars[0]})` : ''} in the environment`,
    webSearchKey,
  });
}

/** The CLI's user settings file, from the environment it runs in; undefined without HOME or XDG_CONFIG_HOME. */
export function cliUserSettingsFile(env: NodeJS.ProcessEnv): string | undefined {
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'patchpilot', 'settings.json');
  return env.HOME && path.isAbsolute(env.HOME) ? path.join(env.HOME, '.config', 'patchpilot', 'settings.json') : undefined;
}

/** Reads a settings.json the way VS Code does (comments, trailing commas). Missing file: undefined. */
export function readJsoncSettings(file: string): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError([`${file}: cannot read (${errorMessage(err)})`]);
  }
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length) {
    // Every error, each as file:line:column (1-based, as editors count), so the user finds them all at once.
    throw new ConfigError(errors.map((e) => `${file}:${lineAndColumn(text, e.offset)}: ${printParseErrorCode(e.error)}`));
  }
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ConfigError([`${file}: expected a JSON object at the top level`]);
  return value as Record<string, unknown>;
}

function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return `${before.split('\n').length}:${offset - lineStart + 1}`;
}
