import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { ExitCode, UsageError, parseCommandLine } from '../io';
import { maskSecret } from '../../core/import';
import { ConfigError, cliUserSettingsFile, loadCliConfig, SETTING_KEYS, type ResolvedConfig, type SettingKey, type SettingSource } from '../../core/config';

const OPTIONS = { workspace: { type: 'string' }, 'trust-workspace': { type: 'boolean' }, json: { type: 'boolean' } } as const;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  const [sub, ...extra] = positionals;
  if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'`);
  const dir = path.resolve(values.workspace ?? process.cwd());
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--workspace ${dir} is not a folder`);
  const root = realpathSync(dir);
  if (sub === 'path') {
    const user = cliUserSettingsFile(process.env);
    const workspace = path.join(root, '.vscode', 'settings.json');
    const line = (label: string, file: string | undefined) =>
      `${label.padEnd(10)} ${file ?? '(none: neither XDG_CONFIG_HOME nor HOME is an absolute path)'}${file && !existsSync(file) ? ' (missing)' : ''}\n`;
    process.stdout.write(line('user', user) + line('workspace', workspace));
    return ExitCode.ok;
  }
  if (sub !== 'show') throw new UsageError(sub ? `unknown subcommand '${sub}' (path or show)` : 'a subcommand is required: path or show');

  let config: ResolvedConfig;
  try {
    config = loadCliConfig({ workspace: root, env: process.env, flags: {}, trusted: values['trust-workspace'] === true });
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`patchpilot config: ${err.message}\n`);
    return ExitCode.usage;
  }
  const rows = shownSettings(config);
  if (values.json) {
    const ignored = config.ignored.map(({ key, origin, reason }) => ({ key, origin, reason }));
    process.stdout.write(JSON.stringify({ settings: rows, ignored, warnings: config.warnings, apiKeyFrom: config.apiKeyOrigin ?? null }, null, 2) + '\n');
    return ExitCode.ok;
  }
  if (!rows.length) process.stdout.write('every setting is at its default\n');
  for (const r of rows) process.stdout.write(`${r.key} = ${JSON.stringify(r.value)}\n    from ${r.from.map(describe).join(' + ')}\n`);
  process.stdout.write(`API key: ${config.apiKeyOrigin ? `from ${config.apiKeyOrigin}` : 'none'}\n`);
  for (const i of config.ignored) process.stdout.write(`ignored ${i.key} from ${i.origin}: ${i.reason}\n`);
  for (const w of config.warnings) process.stdout.write(`warning: ${w}\n`);
  return ExitCode.ok;
}

interface ShownSetting {
  key: SettingKey;
  value: unknown;
  /** Weakest first; one entry unless the setting adds up across scopes. */
  from: { scope: string; origin: string }[];
}

/** Every key with a source, in the declaration order of SETTING_KEYS, with its resolved value. */
function shownSettings(config: ResolvedConfig): ShownSetting[] {
  const out: ShownSetting[] = [];
  for (const key of Object.keys(SETTING_KEYS) as SettingKey[]) {
    const source: SettingSource | undefined = config.sources[key];
    if (!source) continue;
    out.push({
      key,
      value: key === 'patchpilot.mcp.servers' ? maskServerSecrets(config.values[key]) : config.values[key],
      from: [...(source.alsoFrom ?? []), { scope: source.scope, origin: source.origin }],
    });
  }
  return out;
}

function describe(s: { scope: string; origin: string }): string {
  return s.scope === 'env' || s.scope === 'flag' ? s.scope : `${s.scope} (${s.origin})`;
}

/** MCP servers' `env` and `headers` values are often tokens: shown as the import preview shows keys. */
function maskServerSecrets(servers: unknown): unknown {
  if (!servers || typeof servers !== 'object') return servers;
  const out: Record<string, unknown> = {};
  for (const [name, server] of Object.entries(servers as Record<string, Record<string, unknown>>)) {
    const copy: Record<string, unknown> = { ...server };
    for (const field of ['env', 'headers']) {
      const map = copy[field];
      if (map && typeof map === 'object')
        copy[field] = Object.fromEntries(Object.entries(map as Record<string, unknown>).map(([k, v]) => [k, maskSecret(String(v))]));
    }
    out[name] = copy;
  }
  return out;
}
