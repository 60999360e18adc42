/**
 * One MCP server: connect (stdio through ProcessTransport; streamable HTTP falling back to SSE),
 * list its tools, call them with a timeout and the run's cancellation, and after an unexpected
 * close reconnect with exponential backoff (bounded). Knows nothing about approvals or the model.
 */
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { Emitter } from '../base/event';
import { errorMessage } from '../base/errors';
import { buildChildEnv } from '../sandbox/childEnv';
import { lazyChunk } from '../base/lazyChunks';
import type { McpServerConfig } from '../config/mcpServers';
import type { Elicitor } from '../ports/elicitor';
import {
  clientCapabilities,
  installElicitation,
  installListChanged,
  listPrompts,
  listResources,
  type McpPromptDefinition,
  type McpResourceDefinition,
} from './clientFeatures';
import type { McpToolDefinition } from './fingerprint';
import { ProcessTransport } from './processTransport';
import { commandExists, sandboxedLaunch, type ServerSandboxOptions } from './serverSandbox';
import type { RemoteAuth } from './remote/remoteAuth';

export type McpConnectionState = 'idle' | 'connecting' | 'connected' | 'reconnecting' | 'failed' | 'closed';

export interface McpConnectionOptions {
  /** Workspace root: the default working folder of a local server. */
  root: string;
  /** patchpilot.policy.envAllow: names passed to the server beyond the built-in allowlist. */
  envAllow: readonly string[];
  connectTimeoutMs: number;
  callTimeoutMs: number;
  /** Reconnect delays: base * 2^attempt, capped; at most maxReconnects in a row before giving up. */
  backoff?: { baseMs: number; maxMs: number; maxReconnects: number };
  /** Randomness for the backoff's jitter (tests pass a constant). */
  random?: () => number;
  /**
   * Checked right before each start of a local server (the first and every reconnect): a reason
   * not to start it (a file it runs changed since approval), or undefined.
   */
  preflight?: () => string | undefined;
  /** Start a local server inside bubblewrap (serverSandbox.ts); undefined: unconfined. */
  sandbox?: { bwrapPath: string; blocksUnixSockets: boolean; options: ServerSandboxOptions };
  /** A remote server's OAuth provider and policy-checked fetch (remote/remoteAuth.ts); undefined: its headers only. */
  remoteAuth?: RemoteAuth;
  /** Who answers the server's elicitation requests; without one the capability is not declared. */
  elicitor?: Elicitor;
}

const SANDBOX_CACHES = { npm_config_cache: '/tmp/patchpilot-mcp-cache/npm', UV_CACHE_DIR: '/tmp/patchpilot-mcp-cache/uv' };
const DEFAULT_BACKOFF = { baseMs: 500, maxMs: 30_000, maxReconnects: 5 };
const CLIENT_INFO = { name: 'patchpilot', version: typeof PATCHPILOT_VERSION === 'string' ? PATCHPILOT_VERSION : '0.0.0' };
declare const PATCHPILOT_VERSION: string;

export class McpConnection {
  state: McpConnectionState = 'idle';
  /** Why it failed or closed (the error, the exit status and the server's last stderr lines). */
  reason: string | undefined;
  tools: McpToolDefinition[] = [];
  prompts: McpPromptDefinition[] = [];
  resources: McpResourceDefinition[] = [];
  /** The transport that worked: 'stdio', 'streamable-http' or 'sse'. */
  transportKind: 'stdio' | 'streamable-http' | 'sse' | undefined;
  private client: Client | undefined;
  private transport: Transport | undefined;
  private connecting: Promise<void> | undefined;
  private generation = 0;
  private failedReconnects = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(
    readonly name: string,
    readonly config: McpServerConfig,
    private readonly options: McpConnectionOptions,
  ) {}

  /** A local server started inside the sandbox. */
  get sandboxed(): boolean {
    return this.config.transport === 'stdio' && this.options.sandbox !== undefined;
  }

  /** The server process (stdio), for status and for tests that check it is gone. */
  get pid(): number | undefined {
    return this.transport instanceof ProcessTransport ? this.transport.pid : undefined;
  }

  /** Connected now, or after one attempt (an attempt already under way is joined). Throws with the reason. */
  async ensureConnected(): Promise<void> {
    if (this.state === 'connected') return;
    if (this.state === 'closed') throw new Error(`MCP server "${this.name}" was shut down`);
    this.connecting ??= this.connect().finally(() => (this.connecting = undefined));
    await this.connecting;
  }

  /** After "failed" (the reconnects gave up): a new run may try again, from a fresh count. */
  resetFailures(): void {
    if (this.state === 'failed') this.failedReconnects = 0;
  }

  async refreshTools(): Promise<McpToolDefinition[]> {
    const client = this.requireClient();
    const tools: McpToolDefinition[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {}, { timeout: this.options.connectTimeoutMs });
      for (const t of page.tools) {
        tools.push({
          name: t.name,
          ...(t.title ? { title: t.title } : {}),
          ...(t.description ? { description: t.description } : {}),
          inputSchema: t.inputSchema as Record<string, unknown>,
          ...(t.annotations ? { annotations: t.annotations as Record<string, unknown> } : {}),
        });
      }
      cursor = page.nextCursor;
    } while (cursor && tools.length < 10_000);
    this.tools = tools;
    return tools;
  }

  /** Prompts and resources, fetched again (a server without them lists none; one that fails to list keeps its last lists). */
  async refreshCatalog(which: 'prompts' | 'resources' | 'both' = 'both'): Promise<void> {
    const client = this.requireClient();
    const timeout = this.options.connectTimeoutMs;
    if (which !== 'resources') this.prompts = await listPrompts(client, timeout).catch(() => this.prompts);
    if (which !== 'prompts') this.resources = await listResources(client, timeout).catch(() => this.resources);
  }

  async getPrompt(name: string, args: Record<string, string>, signal: AbortSignal): Promise<GetPromptResult> {
    await this.ensureConnected();
    return this.during(signal, () => this.requireClient().getPrompt({ name, arguments: args }, { signal, timeout: this.options.callTimeoutMs }));
  }

  async readResource(uri: string, signal: AbortSignal): Promise<ReadResourceResult> {
    await this.ensureConnected();
    return this.during(signal, () => this.requireClient().readResource({ uri }, { signal, timeout: this.options.callTimeoutMs }));
  }

  async callTool(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    await this.ensureConnected();
    const timeout = this.config.timeoutSeconds ? this.config.timeoutSeconds * 1000 : this.options.callTimeoutMs;
    const result = (await this.during(signal, () =>
      this.requireClient().callTool({ name, arguments: args }, undefined, {
        signal,
        timeout,
        // A tool that reports progress may run longer, within ten times the limit.
        resetTimeoutOnProgress: true,
        maxTotalTimeout: timeout * 10,
      }),
    )) as CallToolResult;
    this.failedReconnects = 0;
    return result;
  }

  /** The signals of the calls in flight: a server's question (elicitation) during them ends with them (clientFeatures.ts). */
  private readonly inFlight = new Set<AbortSignal>();

  private async during<T>(signal: AbortSignal, call: () => Promise<T>): Promise<T> {
    this.inFlight.add(signal);
    try {
      return await call();
    } finally {
      this.inFlight.delete(signal);
    }
  }

  /** Why a call could not complete, for the model: the error plus what the server left behind. */
  describeFailure(err: unknown): string {
    const exit = this.transport instanceof ProcessTransport ? this.transport.exitStatus : undefined;
    const stderr = this.transport instanceof ProcessTransport ? this.transport.stderr : '';
    return [errorMessage(err), exit ? `the server process ended (${exit})` : '', stderr ? `its last stderr lines:\n${lastLines(stderr, 8)}` : '']
      .filter(Boolean)
      .join('; ');
  }

  async close(): Promise<void> {
    this.state = 'closed';
    this.generation++;
    clearTimeout(this.timer);
    const client = this.client;
    const transport = this.transport;
    this.client = undefined;
    await client?.close().catch(() => undefined);
    await transport?.close().catch(() => undefined);
    this.changed.fire();
  }

  /** Synchronous last resort at process exit. */
  killNow(): void {
    if (this.transport instanceof ProcessTransport) this.transport.killNow();
  }

  private async connect(): Promise<void> {
    clearTimeout(this.timer);
    const generation = ++this.generation;
    const wasReconnect = this.state === 'reconnecting';
    this.setState('connecting');
    try {
      await this.open(generation);
      await this.refreshTools();
      await this.refreshCatalog();
      if (generation !== this.generation) return;
      this.setState('connected', undefined);
    } catch (err) {
      if (generation !== this.generation) throw err;
      const reason = this.describeFailure(err);
      await this.dropTransport();
      if (wasReconnect) this.scheduleReconnect(reason);
      else this.setState('failed', reason);
      throw new Error(reason);
    }
  }

  private async open(generation: number): Promise<void> {
    const c = this.config;
    const timeout = this.options.connectTimeoutMs;
    if (c.transport === 'stdio') {
      const problem = this.options.preflight?.();
      if (problem) throw new Error(problem);
      const cwd = path.resolve(this.options.root, c.cwd ?? '.');
      const sb = this.options.sandbox;
      // In the sandbox the user's package caches are read-only: `npx -y pkg` and `uvx pkg` get a private one (fetched again at each start).
      const env = buildChildEnv({ allow: this.options.envAllow, set: { ...(sb ? SANDBOX_CACHES : {}), ...c.env } }).env;
      if (sb && !commandExists(c.command, env.PATH, cwd)) throw new Error(`command not found: ${c.command}`);
      const launch = sb
        ? await sandboxedLaunch({ ...sb, root: this.options.root, cwd, command: c.command, args: c.args })
        : { command: c.command, args: c.args };
      await this.attach(new ProcessTransport({ ...launch, env, cwd }), generation, timeout);
      this.transportKind = 'stdio';
      return;
    }
    const url = new URL(c.url);
    const requestInit: RequestInit = { headers: c.headers };
    const auth = this.options.remoteAuth ?? {};
    const { SSEClientTransport, StreamableHTTPClientTransport, StreamableHTTPError } = lazyChunk.mcp();
    if (c.transport === 'http') {
      try {
        await this.attach(new StreamableHTTPClientTransport(url, { requestInit, ...auth }), generation, timeout);
        this.transportKind = 'streamable-http';
        return;
      } catch (err) {
        // The spec's backwards compatibility: a server that answers the initialize POST with 4xx speaks the older HTTP+SSE.
        if (!(err instanceof StreamableHTTPError) || err.code === undefined || err.code < 400 || err.code >= 500) throw err;
        await this.dropTransport();
      }
    }
    await this.attach(new SSEClientTransport(url, { requestInit, ...auth }), generation, timeout);
    this.transportKind = 'sse';
  }

  private async attach(transport: Transport, generation: number, timeout: number): Promise<void> {
    const client = new (lazyChunk.mcp().Client)(CLIENT_INFO, { capabilities: clientCapabilities(this.options.elicitor) });
    if (this.options.elicitor) installElicitation(client, this.name, this.options.elicitor, () => [...this.inFlight]);
    installListChanged(client, (list) => void this.onListChanged(list, generation));
    this.client = client;
    this.transport = transport;
    client.onclose = () => this.onClosed(generation);
    await client.connect(transport, { timeout });
  }

  /** A list_changed notification: that list is fetched again; a changed tool is refused until approved again (mcpTool.ts). */
  private async onListChanged(list: 'tools' | 'prompts' | 'resources', generation: number): Promise<void> {
    if (generation !== this.generation || this.state !== 'connected') return;
    try {
      if (list === 'tools') await this.refreshTools();
      else await this.refreshCatalog(list);
    } catch {
      return; // a failing list keeps the last one; the next run's start lists again
    }
    if (generation === this.generation) this.changed.fire();
  }

  private onClosed(generation: number): void {
    if (generation !== this.generation || this.state === 'closed' || this.state === 'connecting') return;
    this.generation++; // the closing client's own close events are stale from here on
    const reason = this.describeFailure(new Error('the connection closed'));
    this.setState('reconnecting', reason);
    void this.dropTransport().then(() => this.scheduleReconnect(reason));
  }

  private scheduleReconnect(reason: string): void {
    if (this.state === 'closed') return;
    const b = this.options.backoff ?? DEFAULT_BACKOFF;
    if (this.failedReconnects >= b.maxReconnects) {
      this.setState('failed', `${reason} (gave up after ${b.maxReconnects} reconnects)`);
      return;
    }
    const jitter = 0.5 + (this.options.random ?? Math.random)() / 2;
    const delay = Math.min(b.maxMs, b.baseMs * 2 ** this.failedReconnects) * jitter;
    this.failedReconnects++;
    this.setState('reconnecting', reason);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.ensureConnected().catch(() => undefined), delay);
    this.timer.unref?.();
  }

  private async dropTransport(): Promise<void> {
    const client = this.client;
    const transport = this.transport;
    this.client = undefined;
    // The transport stays readable (exit status, stderr) until the next one replaces it.
    await client?.close().catch(() => undefined);
    await transport?.close().catch(() => undefined);
  }

  private requireClient(): Client {
    if (!this.client || this.state === 'closed') throw new Error(`MCP server "${this.name}" is not connected${this.reason ? `: ${this.reason}` : ''}`);
    return this.client;
  }

  private setState(state: McpConnectionState, reason?: string): void {
    this.state = state;
    if (arguments.length > 1) this.reason = reason;
    this.changed.fire();
  }
}

function lastLines(text: string, n: number): string {
  return text.split('\n').slice(-n).join('\n');
}
