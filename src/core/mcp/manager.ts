/**
 * The configured MCP servers of one workspace, for the length of a host session (the CLI process,
 * the extension's window): their connections, the user's approvals, the tools they give each run,
 * and a status the hosts show (`patchpilot mcp list`, later the extension's view).
 *
 * Approval (test/integration/mcp/manager.test.ts, CVE-2025-54136 "MCPoison"): a server starts only after the user approved its launch
 * (command, args, env and cwd; or URL and headers) and the content of every workspace file that
 * launch names (launchFiles.ts: the script, a binary, a package entry, a config file); a changed,
 * added or removed file asks again, naming it, and is checked again right before every start. The tools it offers the first time it is reached
 * are recorded with that approval; when a tool's definition later differs (description, schema,
 * annotations) or a new one appears, the user is asked again before the model sees it, and a
 * declined one is withheld. Any change of the launch asks again as a new server would. Approvals
 * are asked at a run's start, in every approval mode. Local servers run in the commands' sandbox
 * unless the user exempted them (serverSandbox.ts); every call passes the commands' filters
 * (resultFilter.ts). The approvals half lives in serverApproval.ts, the connections' lifetime in
 * serverConnections.ts; this file ties them to runs and to what hosts show.
 */
import { abortable } from '../base/abortable';
import { Emitter } from '../base/event';
import type { IDisposable } from '../base/disposable';
import type { Elicitor } from '../ports';
import { UserError } from '../base/errors';
import type { Tool, ToolSource, ToolSourceContext } from '../tools/types';
import type { McpApprovals } from '../approvals/mcpServers';
import { describeLaunch, type McpServerConfig } from '../config/mcpServers';
import type { McpConnection, McpConnectionOptions } from './connection';
import { launchFingerprint, type McpToolDefinition } from './fingerprint';
import { FileHasher } from '../policy/launch';
import { createMcpCallGuard, type McpCallGuard } from './resultFilter';
import { sandboxVerdict, type ServerSandboxOptions } from './serverSandbox';
import { createMcpTool } from './mcpTool';
import type { McpPromptDefinition, McpResourceDefinition } from './clientFeatures';
import { filteredPrompt, filteredResource } from './contentText';
import { mcpResourceTools } from './resourceTools';
import { exposedToolName } from './naming';
import type { RemoteAuthFactory } from './remote/remoteAuth';
import { fingerprints, reviewTools } from './toolReview';
import type { LaunchCheck } from './launchCheck';
import { newEntry, ServerApprovalGate, type ServerEntry } from './serverApproval';
import { ServerConnections } from './serverConnections';

export type McpServerState = 'disabled' | 'needs-approval' | 'declined' | 'not-started' | 'connecting' | 'connected' | 'reconnecting' | 'failed' | 'closed';

/** What a host shows for one server. */
export interface McpServerStatus {
  name: string;
  /** As configured: `stdio`, `http` (streamable HTTP, else SSE) or `sse`. */
  transport: McpServerConfig['transport'];
  /** The transport that worked, once connected. */
  connectedVia?: 'stdio' | 'streamable-http' | 'sse';
  /** The command line or URL (header and env names only, never their values). */
  launch: string;
  state: McpServerState;
  reason?: string;
  /** Tools the model is offered (approved ones). */
  toolCount: number;
  /** Tools new or changed since approval, not approved: not offered. */
  withheld: string[];
  alwaysAllow: string[];
  pid?: number;
  /** A local server: whether it runs (or would run) in the sandbox. */
  sandboxed?: boolean;
}

/** What a connected, approved server offers beyond its tools (the chat's slash commands and @-mentions, `mcp list`). */
export interface McpServerCatalog {
  server: string;
  tools: string[];
  prompts: McpPromptDefinition[];
  resources: McpResourceDefinition[];
}

export interface McpManagerOptions extends Partial<Pick<McpConnectionOptions, 'connectTimeoutMs' | 'callTimeoutMs' | 'backoff' | 'random'>> {
  root: string;
  servers: Record<string, McpServerConfig>;
  envAllow: readonly string[];
  approvals: McpApprovals;
  /** How the host's user approves a server outside a run (the CLI: `patchpilot mcp approve NAME`), for messages. */
  approveHint?: (server: string) => string;
  /**
   * The sandbox of local servers and the filters of every call (the command guard's ignored and
   * protected paths). Hosts always pass it (session/capabilities.ts); without it servers run
   * unconfined and results unfiltered (tests of the bare client).
   */
  protection?: ServerSandboxOptions;
  /** The workspace's state folder (workspace-relative), left out of the tree an unsandboxed server's approval binds. */
  stateDir?: string;
  /** OAuth of remote servers (remote/remoteAuth.ts); without it they get their configured headers only. */
  remoteAuth?: RemoteAuthFactory;
  /** Who answers servers' elicitation requests (the chat's form, the terminal); without one servers cannot ask. */
  elicitor?: Elicitor;
}

export class McpManager implements ToolSource, IDisposable {
  private readonly entries = new Map<string, ServerEntry>();
  private readonly changed = new Emitter<McpServerStatus[]>();
  readonly onDidChangeStatus = this.changed.event;
  private queue: Promise<unknown> = Promise.resolve();
  private envAllow: readonly string[];
  private protection: ServerSandboxOptions | undefined;
  private callGuard: McpCallGuard | undefined;
  private readonly gate: ServerApprovalGate;
  private readonly connections: ServerConnections;

  constructor(private readonly options: McpManagerOptions) {
    this.envAllow = options.envAllow;
    this.gate = new ServerApprovalGate({
      root: options.root,
      approvals: options.approvals,
      hasher: new FileHasher(),
      ...(options.stateDir ? { stateDir: options.stateDir } : {}),
      protection: () => this.protection,
    });
    this.connections = new ServerConnections(options, () => this.entries.values());
    this.setProtection(options.protection);
    for (const [name, config] of Object.entries(options.servers)) this.entries.set(name, newEntry(name, config));
  }

  get serverNames(): string[] {
    return [...this.entries.keys()];
  }

  /** Settings changed: servers whose configuration changed restart on their next use; removed ones stop. */
  async configure(
    servers: Record<string, McpServerConfig>,
    envAllow: readonly string[] = this.envAllow,
    protection: ServerSandboxOptions | undefined = this.protection,
  ): Promise<void> {
    const closing: Promise<void>[] = [];
    // A server that leaves or enters the sandbox, or whose allowed sockets change, restarts, like one whose environment changed.
    const listed = (list: readonly string[] | undefined) => (list ?? []).join('\0');
    const envChanged =
      listed(envAllow) !== listed(this.envAllow) ||
      listed(protection?.unsandboxed) !== listed(this.protection?.unsandboxed) ||
      listed(protection?.allowUnixSockets) !== listed(this.protection?.allowUnixSockets);
    this.envAllow = envAllow;
    this.setProtection(protection);
    for (const [name, e] of this.entries) {
      const next = servers[name];
      if (next && !envChanged && JSON.stringify(next) === JSON.stringify(e.config)) continue;
      if (e.connection) closing.push(e.connection.close());
      if (next) this.entries.set(name, newEntry(name, next));
      else this.entries.delete(name);
    }
    for (const [name, config] of Object.entries(servers)) if (!this.entries.has(name)) this.entries.set(name, newEntry(name, config));
    await Promise.all(closing);
    this.fire();
  }

  status(): McpServerStatus[] {
    return [...this.entries.values()].map((e) => this.statusOf(e));
  }

  /** ToolSource: the approved tools of every reachable server, for one run. */
  tools(ctx: ToolSourceContext): Promise<Tool<any>[]> {
    // One run's gathering at a time: approvals are asked one by one, and a server is connected once.
    const next = this.queue.then(() => this.gather(ctx));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** `patchpilot mcp list`: connects the approved servers (asks nothing, approves nothing) and reports. */
  async inspect(signal?: AbortSignal): Promise<McpServerStatus[]> {
    const approved = [...this.entries.values()].filter((e) => !e.config.disabled && this.gate.check(e).approved);
    for (const e of approved) e.expected = this.gate.approvedBinding(e);
    await abortable(Promise.all(approved.map((e) => this.connect(e))), signal);
    for (const e of approved) this.gate.updateWithheld(e);
    return this.status();
  }

  /**
   * The user approves a server outside a run (`patchpilot mcp approve NAME`): start it, record its
   * launch and the tools it offers now. Returns its tools so the host can show what was approved.
   */
  async approve(name: string, signal?: AbortSignal): Promise<{ status: McpServerStatus; tools: McpToolDefinition[] }> {
    const e = this.entries.get(name);
    if (!e) throw new Error(`no MCP server named "${name}" (configured: ${this.serverNames.join(', ') || 'none'})`);
    // What the user approves is what starts now: the files as they are (checked again right before the start).
    const { files, binding } = this.gate.check(e);
    e.expected = binding;
    await abortable(this.connect(e), signal);
    const c = e.connection!;
    // Not approved yet: the status would say so; what the user needs is why it did not start.
    if (c.state !== 'connected') return { status: { ...this.statusOf(e), state: 'failed', reason: c.reason ?? c.state }, tools: [] };
    this.options.approvals.approve(name, {
      launch: launchFingerprint(e.config),
      files,
      ...(binding.tree ? { tree: binding.tree } : {}),
      tools: fingerprints(c.tools),
    });
    e.declinedLaunch = undefined;
    e.withheld = [];
    this.fire();
    return { status: this.statusOf(e), tools: c.tools };
  }

  /** The prompts and resources of each connected, approved server, as listed now (list_changed keeps them current). */
  catalog(): McpServerCatalog[] {
    return [...this.entries.values()]
      .filter((e) => e.connection?.state === 'connected' && this.gate.check(e).approved)
      .map((e) => {
        const c = e.connection!;
        return { server: e.name, tools: c.tools.map((t) => t.name), prompts: [...c.prompts], resources: [...c.resources] };
      });
  }

  /** A prompt's messages as one user turn (filtered like tool results); the server must be approved. */
  async getPrompt(server: string, prompt: string, args: Record<string, string>, signal: AbortSignal): Promise<string> {
    return filteredPrompt(await this.reachable(server, signal), prompt, args, signal, this.callGuard);
  }

  /** A resource's contents for the model or an attachment (filtered like tool results); the server must be approved. */
  async readResource(server: string, uri: string, signal: AbortSignal): Promise<string> {
    return filteredResource(await this.reachable(server, signal), uri, signal, this.callGuard);
  }

  /** Stops every server (and whatever they started). */
  dispose(): Promise<void> {
    return this.connections.dispose();
  }

  private async gather(ctx: ToolSourceContext): Promise<Tool<any>[]> {
    // Plan mode runs nothing outside: no server starts, no MCP tool is offered.
    if (ctx.mode === 'plan') return [];
    const ready: ServerEntry[] = [];
    for (const e of this.entries.values()) {
      if (e.config.disabled) continue;
      const check = this.gate.check(e);
      if (check.approved) e.expected = this.gate.approvedBinding(e);
      else if (!(await this.askLaunch(e, check, ctx))) continue;
      ready.push(e);
    }
    await abortable(Promise.all(ready.map((e) => this.connect(e))), ctx.signal);
    for (const e of this.entries.values()) {
      const st = this.statusOf(e);
      if (st.state === 'declined' || st.state === 'failed') ctx.warn?.(`MCP server "${e.name}" is not available: ${st.reason ?? st.state}`);
    }
    const tools: Tool<any>[] = [];
    const taken = new Set<string>();
    for (const e of ready) {
      const c = e.connection;
      if (c?.state !== 'connected') continue;
      e.withheld = await reviewTools(this.options.approvals, e.name, c.tools, ctx);
      const approval = this.options.approvals.get(e.name);
      e.offered = 0;
      for (const def of c.tools) {
        const approved = approval?.tools?.[def.name];
        if (!approved || e.withheld.includes(def.name)) continue;
        const exposedName = exposedToolName(e.name, def.name, taken);
        taken.add(exposedName);
        tools.push(
          createMcpTool({
            exposedName,
            server: e.name,
            definition: def,
            approved,
            alwaysAllow: e.config.alwaysAllow.includes(def.name),
            connection: c,
            ...(this.callGuard ? { callGuard: this.callGuard } : {}),
            ...(e.config.transport === 'stdio' ? { local: { sandboxed: c.sandboxed } } : {}),
          }),
        );
        e.offered++;
      }
    }
    // Resources are read through two tools of their own, offered when a server of the run lists any.
    const withResources = ready.filter((e) => e.connection?.state === 'connected' && e.connection.resources.length > 0).map((e) => e.name);
    if (withResources.length)
      tools.push(
        ...mcpResourceTools({
          resourceServers: () =>
            this.catalog()
              .filter((c) => withResources.includes(c.server))
              .map((c) => ({ server: c.server, resources: c.resources })),
          readResource: (server, uri, signal) => this.readResource(server, uri, signal),
        }),
      );
    this.fire();
    return tools;
  }

  /** An approved server, connected (started if it was not); a UserError saying why not. */
  private async reachable(server: string, signal: AbortSignal): Promise<McpConnection> {
    const e = this.entries.get(server);
    if (!e) throw new UserError(`no MCP server named "${server}" (configured: ${this.serverNames.join(', ') || 'none'})`);
    if (e.config.disabled) throw new UserError(`MCP server "${server}" is disabled in the settings`);
    if (!this.gate.check(e).approved) throw new UserError(`MCP server "${server}" is not approved yet${this.hint(e)}`);
    e.expected ??= this.gate.approvedBinding(e);
    if (e.connection?.state !== 'connected') await abortable(this.connect(e), signal);
    const c = e.connection!;
    if (c.state !== 'connected') throw new UserError(`MCP server "${server}" is not available: ${c.reason ?? c.state}`);
    return c;
  }

  /** The run's question for a new or stale launch (serverApproval.ts). */
  private async askLaunch(e: ServerEntry, check: LaunchCheck, ctx: ToolSourceContext): Promise<boolean> {
    const yes = await this.gate.askLaunch(e, check, ctx);
    this.fire();
    return yes;
  }

  private setProtection(protection: ServerSandboxOptions | undefined): void {
    this.protection = protection;
    this.callGuard = protection ? createMcpCallGuard(protection.guard) : undefined;
  }

  /** Connects (or refreshes the tool list of) one approved server; failures end up in its status. */
  private connect(e: ServerEntry): Promise<void> {
    return this.connections.connect(e, {
      envAllow: this.envAllow,
      protection: this.protection,
      preflight: () => this.gate.preflight(e),
      onChange: () => this.fire(),
    });
  }

  private statusOf(e: ServerEntry): McpServerStatus {
    const c = e.connection;
    const base = {
      name: e.name,
      transport: e.config.transport,
      launch: describeLaunch(e.config),
      toolCount: c?.state === 'connected' ? e.offered : 0,
      withheld: c?.state === 'connected' ? [...e.withheld] : [],
      alwaysAllow: [...e.config.alwaysAllow],
      ...(e.config.transport === 'stdio' ? { sandboxed: this.protection !== undefined && sandboxVerdict(e.name, this.protection).sandboxed } : {}),
    };
    if (e.config.disabled) return { ...base, state: 'disabled', reason: 'disabled in the settings' };
    const check = this.gate.check(e);
    if (!check.approved && e.declinedLaunch === check.key) {
      const changed = check.changeReason;
      return { ...base, state: 'declined', reason: `not approved${changed ? `: ${changed}` : ''}${this.hint(e)}` };
    }
    if (!check.approved) {
      const why = check.changeReason ?? 'a new server, not approved yet';
      return { ...base, state: 'needs-approval', reason: `${why}${this.hint(e)}` };
    }
    if (!c) return { ...base, state: 'not-started' };
    const state: McpServerState = c.state === 'idle' ? 'not-started' : c.state;
    return {
      ...base,
      state,
      ...(c.reason && state !== 'connected' ? { reason: c.reason } : {}),
      ...(c.transportKind && state === 'connected' ? { connectedVia: c.transportKind } : {}),
      ...(c.pid !== undefined && state === 'connected' ? { pid: c.pid } : {}),
    };
  }

  private hint(e: ServerEntry): string {
    return this.options.approveHint ? ` (${this.options.approveHint(e.name)})` : '';
  }

  private fire(): void {
    this.changed.fire(this.status());
  }
}
