/**
 * The configured MCP servers of one workspace, for the length of a host session (the CLI process,
 * the extension's window): their connections, the user's approvals, the tools they give each run,
 * and a status the hosts show (`patchpilot mcp list`, later the extension's view).
 *
 * Approval (A11, CVE-2025-54136 "MCPoison"): a server starts only after the user approved its launch
 * (command, args, env and cwd; or URL and headers). The tools it offers the first time it is reached
 * are recorded with that approval; when a tool's definition later differs (description, schema,
 * annotations) or a new one appears, the user is asked again before the model sees it, and a
 * declined one is withheld. Any change of the launch asks again as a new server would. Approvals
 * are asked at a run's start, in every approval mode.
 */
import { Emitter } from '../base/event';
import type { Disposable } from '../base/disposable';
import type { ActionApprovalRequest } from '../ports';
import type { Tool, ToolSource, ToolSourceContext } from '../tools/types';
import type { McpApprovals } from './approvals';
import { describeLaunch, type McpServerConfig } from './config';
import { McpConnection, type McpConnectionOptions } from './connection';
import { launchFingerprint, toolFingerprint, type McpToolDefinition } from './fingerprint';
import { createMcpTool } from './mcpTool';
import { exposedToolName } from './naming';

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
}

export interface McpManagerOptions extends Partial<Pick<McpConnectionOptions, 'connectTimeoutMs' | 'callTimeoutMs' | 'backoff' | 'random'>> {
  root: string;
  servers: Record<string, McpServerConfig>;
  envAllow: readonly string[];
  approvals: McpApprovals;
  /** How the host's user approves a server outside a run (the CLI: `patchpilot mcp approve NAME`), for messages. */
  approveHint?: (server: string) => string;
}

interface Entry {
  name: string;
  config: McpServerConfig;
  connection?: McpConnection;
  /** The launch fingerprint the user declined at the last run's start (asked again at the next one). */
  declinedLaunch?: string;
  withheld: string[];
  offered: number;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
const DEFAULT_CALL_TIMEOUT_MS = 60_000;

export class McpManager implements ToolSource, Disposable {
  private readonly entries = new Map<string, Entry>();
  private readonly changed = new Emitter<McpServerStatus[]>();
  readonly onDidChangeStatus = this.changed.event;
  private exitHook: (() => void) | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private envAllow: readonly string[];

  constructor(private readonly options: McpManagerOptions) {
    this.envAllow = options.envAllow;
    for (const [name, config] of Object.entries(options.servers)) this.entries.set(name, newEntry(name, config));
  }

  get serverNames(): string[] {
    return [...this.entries.keys()];
  }

  /** Settings changed: servers whose configuration changed restart on their next use; removed ones stop. */
  async configure(servers: Record<string, McpServerConfig>, envAllow: readonly string[] = this.envAllow): Promise<void> {
    const closing: Promise<void>[] = [];
    const envChanged = envAllow.join('\0') !== this.envAllow.join('\0');
    this.envAllow = envAllow;
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
    const approved = [...this.entries.values()].filter((e) => !e.config.disabled && this.launchApproved(e));
    await abortable(Promise.all(approved.map((e) => this.connect(e))), signal);
    for (const e of approved) this.updateWithheld(e);
    return this.status();
  }

  /**
   * The user approves a server outside a run (`patchpilot mcp approve NAME`): start it, record its
   * launch and the tools it offers now. Returns its tools so the host can show what was approved.
   */
  async approve(name: string, signal?: AbortSignal): Promise<{ status: McpServerStatus; tools: McpToolDefinition[] }> {
    const e = this.entries.get(name);
    if (!e) throw new Error(`no MCP server named "${name}" (configured: ${this.serverNames.join(', ') || 'none'})`);
    await abortable(this.connect(e), signal);
    const c = e.connection!;
    if (c.state !== 'connected') return { status: this.statusOf(e), tools: [] };
    this.options.approvals.approve(name, { launch: launchFingerprint(e.config), tools: fingerprints(c.tools) });
    e.declinedLaunch = undefined;
    e.withheld = [];
    this.fire();
    return { status: this.statusOf(e), tools: c.tools };
  }

  /** Stops every server (and whatever they started). */
  async dispose(): Promise<void> {
    await Promise.all([...this.entries.values()].map((e) => e.connection?.close()));
    if (this.exitHook) process.off('exit', this.exitHook);
    this.exitHook = undefined;
  }

  private async gather(ctx: ToolSourceContext): Promise<Tool<any>[]> {
    // Plan mode runs nothing outside: no server starts, no MCP tool is offered.
    if (ctx.mode === 'plan') return [];
    const ready: Entry[] = [];
    for (const e of this.entries.values()) {
      if (e.config.disabled) continue;
      if (this.launchApproved(e) || (await this.askLaunch(e, ctx))) ready.push(e);
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
      await this.reviewTools(e, c.tools, ctx);
      const approval = this.options.approvals.get(e.name);
      e.offered = 0;
      for (const def of c.tools) {
        const approved = approval?.tools?.[def.name];
        if (!approved || e.withheld.includes(def.name)) continue;
        const exposedName = exposedToolName(e.name, def.name, taken);
        taken.add(exposedName);
        tools.push(createMcpTool({ exposedName, server: e.name, definition: def, approved, alwaysAllow: e.config.alwaysAllow.includes(def.name), connection: c }));
        e.offered++;
      }
    }
    this.fire();
    return tools;
  }

  private launchApproved(e: Entry): boolean {
    return this.options.approvals.get(e.name)?.launch === launchFingerprint(e.config);
  }

  private async askLaunch(e: Entry, ctx: ToolSourceContext): Promise<boolean> {
    const fingerprint = launchFingerprint(e.config);
    const before = this.options.approvals.get(e.name);
    const local = e.config.transport === 'stdio';
    const request: ActionApprovalRequest = {
      kind: 'mcp',
      title: `start MCP server "${e.name}": ${describeLaunch(e.config)}`,
      reason: before
        ? 'its command, arguments, environment or URL changed since you approved it'
        : local
          ? 'a new MCP server: its command runs on this machine, outside PatchPilot\'s sandbox'
          : 'a new MCP server: the agent\'s tool calls (and the configured headers) go to this URL',
      detail: launchDetail(e.config),
    };
    const yes = await this.ask(request, 'ask:mcp-server', ctx);
    if (yes) {
      this.options.approvals.approve(e.name, { launch: fingerprint, tools: null });
      e.declinedLaunch = undefined;
    } else {
      e.declinedLaunch = fingerprint;
      e.connection?.close().catch(() => undefined);
    }
    this.fire();
    return yes;
  }

  /** The first time a server is reached, its tools are recorded; later, new or changed ones need a yes. */
  private async reviewTools(e: Entry, defs: readonly McpToolDefinition[], ctx: ToolSourceContext): Promise<void> {
    const approval = this.options.approvals.get(e.name);
    if (!approval) return;
    if (approval.tools === null) {
      this.options.approvals.approve(e.name, { launch: approval.launch, tools: fingerprints(defs) });
      e.withheld = [];
      return;
    }
    const changed = defs.filter((d) => approval.tools![d.name] !== toolFingerprint(d));
    if (changed.length === 0) {
      e.withheld = [];
      return;
    }
    const yes = await this.ask(
      {
        kind: 'mcp',
        title: `MCP server "${e.name}" changed its tools since you approved them: ${changed.map((d) => d.name).join(', ')}`,
        reason: 'a tool\'s description reaches the model, so a changed one can carry instructions (tool poisoning); declined tools are not offered',
        detail: changed.map((d) => `${d.name} (${approval.tools![d.name] ? 'changed' : 'new'}): ${d.description ?? d.title ?? '(no description)'}`).join('\n\n'),
      },
      'ask:mcp-tools-changed',
      ctx,
    );
    if (yes) {
      this.options.approvals.approve(e.name, { launch: approval.launch, tools: { ...approval.tools, ...fingerprints(changed) } });
      e.withheld = [];
    } else {
      e.withheld = changed.map((d) => d.name);
    }
  }

  private async ask(request: ActionApprovalRequest, rule: string, ctx: ToolSourceContext): Promise<boolean> {
    ctx.emit?.({ type: 'policy', kind: 'command', subject: request.title, decision: { verdict: 'ask', rule, reason: request.reason } });
    ctx.emit?.({ type: 'approval-needed', request });
    const answer = await ctx.approver.approveAction(request, ctx.signal);
    ctx.emit?.({ type: 'approval-answered', kind: request.kind, approved: answer.approved });
    return answer.approved;
  }

  /** Connects (or refreshes the tool list of) one approved server; failures end up in its status. */
  private async connect(e: Entry): Promise<void> {
    const c = (e.connection ??= this.createConnection(e));
    c.resetFailures();
    try {
      if (c.state === 'connected') await c.refreshTools();
      else await c.ensureConnected();
    } catch {
      /* the connection's state and reason say what went wrong */
    }
  }

  private createConnection(e: Entry): McpConnection {
    const o = this.options;
    const c = new McpConnection(e.name, e.config, {
      root: o.root,
      envAllow: this.envAllow,
      connectTimeoutMs: o.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      callTimeoutMs: o.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
      ...(o.backoff ? { backoff: o.backoff } : {}),
      ...(o.random ? { random: o.random } : {}),
    });
    c.onDidChange(() => this.fire());
    if (!this.exitHook) {
      // Nothing may outlive this process, even when it exits without disposing (a watchdog's exit, an uncaught error).
      this.exitHook = () => {
        for (const x of this.entries.values()) x.connection?.killNow();
      };
      process.on('exit', this.exitHook);
    }
    return c;
  }

  private updateWithheld(e: Entry): void {
    const approval = this.options.approvals.get(e.name);
    const defs = e.connection?.state === 'connected' ? e.connection.tools : [];
    // Tools not recorded yet (approved launch, never reached): the first run records and offers them all.
    e.withheld = approval?.tools ? defs.filter((d) => approval.tools![d.name] !== toolFingerprint(d)).map((d) => d.name) : [];
    e.offered = approval ? defs.length - e.withheld.length : 0;
  }

  private statusOf(e: Entry): McpServerStatus {
    const c = e.connection;
    const base = {
      name: e.name,
      transport: e.config.transport,
      launch: describeLaunch(e.config),
      toolCount: c?.state === 'connected' ? e.offered : 0,
      withheld: c?.state === 'connected' ? [...e.withheld] : [],
      alwaysAllow: [...e.config.alwaysAllow],
    };
    if (e.config.disabled) return { ...base, state: 'disabled', reason: 'disabled in the settings' };
    const approval = this.options.approvals.get(e.name);
    const launchOk = approval?.launch === launchFingerprint(e.config);
    if (!launchOk && e.declinedLaunch === launchFingerprint(e.config)) return { ...base, state: 'declined', reason: `not approved${this.hint(e)}` };
    if (!launchOk) {
      const why = approval ? 'its command, arguments, environment or URL changed since it was approved' : 'a new server, not approved yet';
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

  private hint(e: Entry): string {
    return this.options.approveHint ? ` (${this.options.approveHint(e.name)})` : '';
  }

  private fire(): void {
    this.changed.fire(this.status());
  }
}

function newEntry(name: string, config: McpServerConfig): Entry {
  return { name, config, withheld: [], offered: 0 };
}

function fingerprints(defs: readonly McpToolDefinition[]): Record<string, string> {
  return Object.fromEntries(defs.map((d) => [d.name, toolFingerprint(d)]));
}

/** What the approval question shows: every argument on its own line; env and header names, not their values (secrets). */
function launchDetail(c: McpServerConfig): string {
  if (c.transport === 'stdio') {
    return [`command: ${c.command}`, ...c.args.map((a, i) => `arg ${i + 1}: ${a}`), ...(c.cwd ? [`cwd: ${c.cwd}`] : []), ...Object.keys(c.env).map((k) => `env: ${k}=...`)].join('\n');
  }
  return [`url: ${c.url}`, `transport: ${c.transport === 'sse' ? 'SSE' : 'streamable HTTP (SSE if the server only speaks that)'}`, ...Object.keys(c.headers).map((k) => `header: ${k}: ...`)].join('\n');
}

/** Stops waiting when the signal aborts (the work itself goes on and ends in a status). */
function abortable<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return p;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason ?? new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}
