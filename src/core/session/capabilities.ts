/**
 * The capabilities that extend the agent beyond the workspace tools: subagents, web search (when a
 * provider is configured) and MCP servers. Wired here, apart from the core tool set, for the CLI and
 * the extension alike. An untrusted workspace (restricted mode) gets no MCP server at all: its
 * servers never start, and a host-kept manager stops the ones it ran. Local servers run in the
 * commands' sandbox (the same guard: ignored files masked, protected paths read-only) unless the
 * user exempted them, and every call passes the commands' filters.
 */
import path from 'node:path';
import type { PatchPilotSettings, ResolvedConfig } from '../config';
import { defaultUserStateDir } from '../config/userState';
import { McpApprovals } from '../approvals';
import { McpManager, mcpProtectedGlobs } from '../mcp';
import type { ServerSandboxOptions } from '../mcp/serverSandbox';
import { remoteAuthFactory } from '../mcp/remote/remoteAuth';
import { createCommandGuard } from '../tools/policyAdapters';
import type { Elicitor, Notifier, SecretStore, WebSearcher } from '../ports';
import { spawnSubagentTool } from '../tools/spawnSubagent';
import type { Tool, ToolSource } from '../tools/types';
import { webSearchTool } from '../tools/webSearch';
import { chooseProvider, createWebSearcher } from '../web/search';

export interface CapabilityOptions {
  root: string;
  config: ResolvedConfig;
  settings: PatchPilotSettings;
  notifier: Notifier;
  readOnly?: boolean;
  /** A manager the host keeps across wirings (the extension rewires on every settings change); it is reconfigured, not replaced. */
  mcp?: McpManager;
  /** Per-user folder for the key that signs MCP approvals (default: defaultUserStateDir()). */
  userStateDir?: string;
  /** How the host's user approves an MCP server outside a run, for status messages. */
  mcpApproveHint?: (server: string) => string;
  /** Who answers MCP servers' elicitation requests; without one servers cannot ask. */
  mcpElicitor?: Elicitor;
  /** The host's store of remote servers' OAuth tokens (Host.secrets). */
  secrets: SecretStore;
  /** The agent's command guard (MCP launch files among its protected paths): local servers get the same sandbox mounts. */
  guard?: ServerSandboxOptions['guard'];
  /** Absolute folders readable in the sandbox wherever they are (the bundled skills). */
  readOnlyPaths?: readonly string[];
}

export interface Capabilities {
  tools: Tool<any>[];
  search?: WebSearcher;
  toolSources: ToolSource[];
  mcp?: McpManager;
  /** True when the manager was created here (the wiring's owner stops it). */
  ownsMcp: boolean;
}

export async function wireCapabilities(o: CapabilityOptions): Promise<Capabilities> {
  const { settings } = o;
  const tools: Tool<any>[] = [spawnSubagentTool];

  let search: WebSearcher | undefined;
  const provider = chooseProvider(settings.webSearch, o.config.webSearchKey);
  if (provider && 'problem' in provider) o.notifier.warn(provider.problem);
  else if (provider) {
    search = createWebSearcher(provider, { fetchAllowHosts: settings.policy.fetchAllowHosts, allowPrivateNetwork: settings.policy.allowPrivateNetwork });
    tools.push(webSearchTool);
  }

  let mcp = o.mcp;
  let ownsMcp = false;
  const servers = o.readOnly ? {} : settings.mcp.servers;
  const protection = mcpProtection(o.root, settings, o.guard, o.readOnlyPaths);
  if (mcp) await mcp.configure(servers, settings.policy.envAllow, protection);
  else if (Object.keys(servers).length > 0) {
    mcp = createMcpManager({
      root: o.root,
      settings,
      servers,
      userStateDir: o.userStateDir,
      approveHint: o.mcpApproveHint,
      notifier: o.notifier,
      protection,
      elicitor: o.mcpElicitor,
      secrets: o.secrets,
    });
    ownsMcp = true;
  }
  return { tools, search, toolSources: mcp && !o.readOnly ? [mcp] : [], mcp, ownsMcp };
}

/** The manager for a workspace's configured servers, with approvals kept in its state folder. */
export function createMcpManager(o: {
  root: string;
  settings: PatchPilotSettings;
  servers?: PatchPilotSettings['mcp']['servers'];
  userStateDir?: string;
  approveHint?: (server: string) => string;
  notifier?: Notifier;
  protection?: ServerSandboxOptions;
  /** Where remote servers' OAuth tokens live: the host's store (Host.secrets; the extension: SecretStorage, the CLI: a 0600 file). */
  secrets: SecretStore;
  /** How the host's user logs in to a remote server, for status messages (default: the CLI's command). */
  loginHint?: (server: string) => string;
  elicitor?: Elicitor;
}): McpManager {
  const userStateDir = o.userStateDir ?? defaultUserStateDir();
  const approvals = new McpApprovals({
    root: o.root,
    stateDir: stateDirOf(o.root, o.settings.history.path),
    userStateDir,
  });
  if (approvals.persistProblem) o.notifier?.warn(approvals.persistProblem);
  return new McpManager({
    root: o.root,
    servers: o.servers ?? o.settings.mcp.servers,
    envAllow: o.settings.policy.envAllow,
    approvals,
    stateDir: stateDirOf(o.root, o.settings.history.path),
    protection: o.protection ?? mcpProtection(o.root, o.settings),
    ...(o.approveHint ? { approveHint: o.approveHint } : {}),
    remoteAuth: remoteAuthFactory({
      store: o.secrets,
      network: { fetchAllowHosts: o.settings.policy.fetchAllowHosts, allowPrivateNetwork: o.settings.policy.allowPrivateNetwork },
      loginHint: o.loginHint ?? MCP_LOGIN_HINT,
    }),
    ...(o.elicitor ? { elicitor: o.elicitor } : {}),
  });
}

/** The CLI's way to log in to a remote server (the default hint). */
export const MCP_LOGIN_HINT = (server: string) => `log in with: patchpilot mcp login ${server}`;

/**
 * The sandbox and filters of MCP servers: the agent's command guard when the wiring has one, else
 * the same guard built here (`patchpilot mcp list/approve`), with the servers' launch files protected.
 */
export function mcpProtection(
  root: string,
  settings: PatchPilotSettings,
  guard?: ServerSandboxOptions['guard'],
  readOnlyPaths?: readonly string[],
): ServerSandboxOptions {
  return {
    guard: guard ?? { root, ...createCommandGuard(root, settings.policy, settings.history.path, undefined, mcpProtectedGlobs(root, settings.mcp.servers)) },
    unsandboxed: settings.mcp.unsandboxedServers,
    homeAllow: settings.policy.homeAllow,
    allowUnixSockets: settings.sandbox.allowUnixSockets,
    ...(readOnlyPaths ? { readOnlyPaths } : {}),
  };
}

/** The workspace's state folder (where the history lives, if that is inside the workspace; else `.patchpilot`). */
export function stateDirOf(root: string, historyPath: string): string {
  const rel = path.relative(root, path.dirname(path.resolve(root, historyPath)));
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : '.patchpilot';
}
