/**
 * The connection-lifetime half of the MCP manager (manager.ts): making one server's connection
 * (sandboxed or not, with its OAuth and elicitor, checked by the approvals' preflight before every
 * start), connecting or refreshing it, and making sure no server outlives this process.
 */
import type { Elicitor } from '../ports';
import { McpConnection, type McpConnectionOptions } from './connection';
import type { RemoteAuthFactory } from './remote/remoteAuth';
import type { ServerEntry } from './serverApproval';
import { sandboxVerdict, type ServerSandboxOptions } from './serverSandbox';

const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
const DEFAULT_CALL_TIMEOUT_MS = 60_000;

export interface ServerConnectionOptions extends Partial<Pick<McpConnectionOptions, 'connectTimeoutMs' | 'callTimeoutMs' | 'backoff' | 'random'>> {
  root: string;
  remoteAuth?: RemoteAuthFactory;
  elicitor?: Elicitor;
}

/** What a new connection is made with now (the settings change these). */
export interface ConnectionSettings {
  envAllow: readonly string[];
  protection: ServerSandboxOptions | undefined;
  /** A reason not to start (the approvals' check of the code), or undefined. */
  preflight(): string | undefined;
  onChange(): void;
}

export class ServerConnections {
  private exitHook: (() => void) | undefined;

  constructor(
    private readonly o: ServerConnectionOptions,
    /** Every server of the manager, for the exit hook. */
    private readonly all: () => Iterable<ServerEntry>,
  ) {}

  /** Connects (or refreshes the tool list of) one approved server; failures end up in its status. */
  async connect(e: ServerEntry, settings: ConnectionSettings): Promise<void> {
    const c = (e.connection ??= this.create(e, settings));
    c.resetFailures();
    try {
      if (c.state === 'connected') await c.refreshTools();
      else await c.ensureConnected();
    } catch {
      /* the connection's state and reason say what went wrong */
    }
  }

  /** Stops every server (and whatever they started). */
  async dispose(): Promise<void> {
    await Promise.all([...this.all()].map((e) => e.connection?.close()));
    if (this.exitHook) process.off('exit', this.exitHook);
    this.exitHook = undefined;
  }

  private create(e: ServerEntry, settings: ConnectionSettings): McpConnection {
    const o = this.o;
    const protection = settings.protection;
    const verdict = e.config.transport === 'stdio' && protection ? sandboxVerdict(e.name, protection) : undefined;
    const c = new McpConnection(e.name, e.config, {
      root: o.root,
      // Right before every start (reconnects too): the files must still be the approved ones.
      preflight: settings.preflight,
      ...(verdict?.sandboxed && protection
        ? { sandbox: { bwrapPath: verdict.bwrapPath, blocksUnixSockets: verdict.blocksUnixSockets, options: protection } }
        : {}),
      envAllow: settings.envAllow,
      ...(e.config.transport !== 'stdio' && o.remoteAuth ? { remoteAuth: o.remoteAuth(e.name, e.config) } : {}),
      ...(o.elicitor ? { elicitor: o.elicitor } : {}),
      connectTimeoutMs: o.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      callTimeoutMs: o.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
      ...(o.backoff ? { backoff: o.backoff } : {}),
      ...(o.random ? { random: o.random } : {}),
    });
    c.onDidChange(settings.onChange);
    if (!this.exitHook) {
      // Nothing may outlive this process, even when it exits without disposing (a watchdog's exit, an uncaught error).
      this.exitHook = () => {
        for (const x of this.all()) x.connection?.killNow();
      };
      process.on('exit', this.exitHook);
    }
    return c;
  }
}
