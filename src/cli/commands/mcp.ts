import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { ExitCode, UsageError, parseCommandLine } from '../io';
import { ConfigError, loadCliConfig, type ResolvedConfig } from '../../core/config';
import { promptCommandName, type McpManager, type McpServerCatalog, type McpServerStatus } from '../../core/mcp';
import { createMcpManager } from '../../core/session';
import { MCP_APPROVE_HINT, cliSecretStore } from '../node/cliHost';
import { loginOrLogout } from './mcpLogin';
import { DecliningElicitor } from '../node/elicitors';

const OPTIONS = {
  workspace: { type: 'string' },
  'trust-workspace': { type: 'boolean' },
  json: { type: 'boolean' },
  'no-browser': { type: 'boolean' },
} as const;
const SUBCOMMANDS = ['list', 'approve', 'login', 'logout'];

export async function run(argv: string[]): Promise<number> {
  const { sub, args, positionals, root } = await parseMcpCommand(argv);
  const config = loadMcpConfig(root, args['trust-workspace'] === true);
  if (typeof config === 'number') return config;
  if (sub === 'login' || sub === 'logout') {
    const controller = new AbortController();
    const onSignal = () => controller.abort();
    process.once('SIGINT', onSignal);
    try {
      return await loginOrLogout(sub, positionals[0]!, config.settings, { noBrowser: args['no-browser'] === true, signal: controller.signal });
    } finally {
      process.off('SIGINT', onSignal);
    }
  }
  const notifier = {
    info: () => undefined,
    warn: (m: string) => process.stderr.write(`patchpilot: warning: ${m}\n`),
    error: (m: string) => process.stderr.write(`patchpilot: error: ${m}\n`),
  };
  const manager = createMcpManager({
    root,
    settings: config.settings,
    approveHint: MCP_APPROVE_HINT,
    notifier,
    secrets: cliSecretStore(),
    // The servers see the capability a run declares, so they list (and get approved) the same tools; nothing here calls a tool.
    elicitor: new DecliningElicitor(notifier),
  });
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    if (sub === 'list') return await listServers(manager, controller.signal, args.json === true);
    return await approveServers(manager, positionals, controller.signal);
  } catch (err) {
    if (err instanceof Error && /no MCP server named/.test(err.message)) {
      process.stderr.write(`patchpilot mcp: ${err.message}\n`);
      return ExitCode.usage;
    }
    if (controller.signal.aborted) return ExitCode.cancelled;
    throw err;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await manager.dispose();
  }
}

/** The subcommand, its options and server names, checked; the workspace as its real path. */
async function parseMcpCommand(argv: string[]) {
  const [sub, ...rest] = argv;
  if (!sub || !SUBCOMMANDS.includes(sub)) throw new UsageError(sub ? `unknown subcommand '${sub}'` : 'a subcommand is needed: list, approve, login or logout');
  const { values: args, positionals } = parseCommandLine(rest, OPTIONS);
  if (sub === 'list' && positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  if (sub === 'approve' && positionals.length === 0) throw new UsageError('name the server(s) to approve');
  if ((sub === 'login' || sub === 'logout') && positionals.length !== 1)
    throw new UsageError(`name the one server to ${sub === 'login' ? 'log in to' : 'log out of'}`);
  const workspace = path.resolve(args.workspace ?? process.cwd());
  if (!(await stat(workspace).catch(() => undefined))?.isDirectory()) throw new UsageError(`--workspace ${workspace} is not a folder`);
  return { sub, args, positionals, root: await realpath(workspace) };
}

/** The settings for the workspace, saying which MCP settings were ignored and why; a bad configuration is a usage exit code. */
function loadMcpConfig(root: string, trusted: boolean): ResolvedConfig | number {
  let config;
  try {
    config = loadCliConfig({ workspace: root, env: process.env, flags: {}, trusted });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`patchpilot mcp: ${err.message}\n`);
      return ExitCode.usage;
    }
    throw err;
  }
  for (const i of config.ignored.filter((x) => x.key.startsWith('patchpilot.mcp.'))) {
    process.stderr.write(
      `patchpilot: warning: ignored ${i.key} from ${i.origin}: ${i.reason}${/not trusted/.test(i.reason) ? ' (--trust-workspace to use it)' : ''}\n`,
    );
  }
  return config;
}

/** `mcp list`: each server's state and what it offers, as text or JSON. */
async function listServers(manager: McpManager, signal: AbortSignal, json: boolean): Promise<number> {
  const statuses = await manager.inspect(signal);
  const catalog = new Map(manager.catalog().map((c) => [c.server, c]));
  if (json)
    process.stdout.write(
      `${JSON.stringify(
        statuses.map((s) => ({ ...s, ...offers(catalog.get(s.name)) })),
        null,
        2,
      )}\n`,
    );
  else if (statuses.length === 0) process.stdout.write('no MCP servers configured (patchpilot.mcp.servers)\n');
  else for (const s of statuses) process.stdout.write(`${statusLine(s)}${catalogLines(catalog.get(s.name))}\n`);
  return ExitCode.ok;
}

/** `mcp approve NAME...`: starts each server, approves its launch and tools, and lists them; one that cannot start fails the command. */
async function approveServers(manager: McpManager, names: readonly string[], signal: AbortSignal): Promise<number> {
  let failed = false;
  for (const name of names) {
    const { status, tools } = await manager.approve(name, signal);
    if (status.state !== 'connected') {
      failed = true;
      process.stderr.write(`patchpilot mcp: ${name} not approved: it could not be started (${status.reason ?? status.state})\n`);
      continue;
    }
    process.stdout.write(`approved ${name}: ${status.launch}\n`);
    for (const t of tools)
      process.stdout.write(
        `  ${t.name}${t.description ? `: ${firstLine(t.description)}` : ''}${status.alwaysAllow.includes(t.name) ? ' (always allowed)' : ''}\n`,
      );
  }
  return failed ? ExitCode.failed : ExitCode.ok;
}

/** "everything  connected via stdio, 13 tools  node server.js" */
export function statusLine(s: McpServerStatus): string {
  const state =
    s.state === 'connected'
      ? `connected via ${s.connectedVia ?? s.transport}, ${s.toolCount} tool${s.toolCount === 1 ? '' : 's'}${s.withheld.length ? `; ${s.withheld.length} withheld until approved (changed or new: ${s.withheld.join(', ')})` : ''}`
      : `${s.state}${s.reason ? `: ${s.reason.split('\n').slice(0, 5).join('\n    ')}` : ''}`;
  const where = s.sandboxed === undefined ? '' : s.sandboxed ? ' (sandboxed)' : ' (not sandboxed)';
  return `${s.name}  ${state}\n    ${s.launch}${where}`;
}

/** What a connected server offers, for --json (names only for tools: their definitions are what approval covers). */
function offers(c: McpServerCatalog | undefined): Partial<Pick<McpServerCatalog, 'tools' | 'prompts' | 'resources'>> {
  return c ? { tools: c.tools, prompts: c.prompts, resources: c.resources } : {};
}

/** The tools, prompts (as the chat's slash commands) and resources of a connected server, one line each. */
export function catalogLines(c: McpServerCatalog | undefined): string {
  if (!c) return '';
  const lines = [`    tools: ${c.tools.join(', ') || 'none'}`];
  lines.push(`    prompts: ${c.prompts.length ? '' : 'none'}`);
  for (const p of c.prompts) {
    const args = p.arguments.map((a) => (a.required ? `${a.name}=...` : `[${a.name}=...]`)).join(' ');
    lines.push(`      ${promptCommandName(c.server, p.name)}${args ? ` ${args}` : ''}${p.description ? `  ${firstLine(p.description)}` : ''}`);
  }
  lines.push(`    resources: ${c.resources.length ? '' : 'none'}`);
  for (const r of c.resources) lines.push(`      ${r.uri}  ${r.title ?? r.name}${r.mimeType ? ` (${r.mimeType})` : ''}`);
  return `\n${lines.map((l) => l.trimEnd()).join('\n')}`;
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}
