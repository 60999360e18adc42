/**
 * The approvals half of the MCP manager (manager.ts): where one configured server's launch stands
 * against the user's approval, the run's question when it does not match, what a start is checked
 * against right before it happens, and which of its tools are withheld.
 *
 * A re-approval of the same launch (only its files, or outside the sandbox the workspace tree, made
 * it stale) keeps the tool definitions the user approved earlier: a tool whose description or
 * schema changed meanwhile is still asked about on its own (toolReview.ts), rather than recorded
 * unseen with the new start. Only a changed launch (a new server, in effect) starts its tool record
 * afresh.
 */
import type { McpServerConfig } from '../config/mcpServers';
import { bindCode, staleReason, type CodeBinding, type FileHasher } from '../policy/launch';
import type { ToolSourceContext } from '../tools/types';
import type { McpApprovals } from '../approvals/mcpServers';
import type { McpConnection } from './connection';
import { toolFingerprint } from './fingerprint';
import { asLaunch, checkLaunch, type LaunchCheck } from './launchCheck';
import { launchQuestion } from './launchQuestion';
import { sandboxVerdict, type ServerSandboxOptions } from './serverSandbox';
import { askApproval } from './toolReview';

/** One configured server, as the manager keeps it. */
export interface ServerEntry {
  name: string;
  config: McpServerConfig;
  connection?: McpConnection;
  /** The launch (and files) key the user declined at the last run's start (asked again at the next one). */
  declinedLaunch?: string;
  /** What this server may start with (the approved files, and outside the sandbox the tree); checked before each start. */
  expected?: Pick<CodeBinding, 'files' | 'tree'>;
  withheld: string[];
  offered: number;
}

export function newEntry(name: string, config: McpServerConfig): ServerEntry {
  return { name, config, withheld: [], offered: 0 };
}

export interface ServerApprovalOptions {
  root: string;
  approvals: McpApprovals;
  hasher: FileHasher;
  /** The workspace's state folder (workspace-relative), left out of the tree. */
  stateDir?: string;
  /** The sandbox of local servers as configured now (it changes with the settings). */
  protection(): ServerSandboxOptions | undefined;
}

export class ServerApprovalGate {
  constructor(private readonly o: ServerApprovalOptions) {}

  /**
   * Where the launch stands against its approval, with the named files hashed once. Outside the
   * sandbox the workspace tree is bound too, but only for a server not running: what a running
   * server loaded is loaded; a change counts at its next start (the preflight checks it then).
   */
  check(e: ServerEntry): LaunchCheck {
    const outsideSandbox = !this.sandboxed(e) && e.connection?.state !== 'connected';
    const place = { outsideSandbox, ...(this.o.stateDir ? { stateDir: this.o.stateDir } : {}) };
    return checkLaunch(this.o.root, e.config, this.o.approvals.get(e.name), this.o.hasher, place);
  }

  /** A local server that would start in the sandbox. */
  sandboxed(e: ServerEntry): boolean {
    const protection = this.o.protection();
    return e.config.transport === 'stdio' && protection !== undefined && sandboxVerdict(e.name, protection).sandboxed;
  }

  approvedBinding(e: ServerEntry): Pick<CodeBinding, 'files' | 'tree'> {
    const a = this.o.approvals.get(e.name);
    return { files: a?.files ?? {}, ...(a?.tree ? { tree: a.tree } : {}) };
  }

  /** The run's question for a server whose launch is new or stale; a yes records the approval, a no is remembered. */
  async askLaunch(e: ServerEntry, check: LaunchCheck, ctx: ToolSourceContext): Promise<boolean> {
    const request = launchQuestion(e.name, e.config, check.files, check.changeReason, sandboxVerdict(e.name, this.o.protection()));
    const yes = await askApproval(request, 'ask:mcp-server', ctx);
    // A server still running from before the change runs the old code: it stops either way, and a yes starts the approved files.
    const running = e.connection;
    e.connection = undefined;
    await running?.close().catch(() => undefined);
    if (yes) {
      const tree = check.binding.tree;
      const earlier = this.o.approvals.get(e.name);
      // The same launch re-approved for its code: the tools stay as the user approved them (see the top of this file).
      const tools = earlier?.launch === check.fingerprint ? earlier.tools : null;
      this.o.approvals.approve(e.name, { launch: check.fingerprint, files: check.files, ...(tree ? { tree } : {}), tools });
      e.declinedLaunch = undefined;
      e.expected = check.binding;
    } else {
      e.declinedLaunch = check.key;
    }
    return yes;
  }

  /** Right before every start (reconnects too): a reason not to start when the code is no longer the approved one. */
  preflight(e: ServerEntry): string | undefined {
    const now = bindCode({
      root: this.o.root,
      launch: asLaunch(e.config),
      outsideSandbox: !this.sandboxed(e),
      hasher: this.o.hasher,
      ...(this.o.stateDir ? { stateDir: this.o.stateDir } : {}),
    });
    const stale = staleReason(e.expected ?? this.approvedBinding(e), now);
    return stale ? `not started: ${stale} (it is asked about again at the next run)` : undefined;
  }

  /** The tools of a connected server that differ from the approved definitions (`mcp list`, which asks nothing). */
  updateWithheld(e: ServerEntry): void {
    const approval = this.o.approvals.get(e.name);
    const defs = e.connection?.state === 'connected' ? e.connection.tools : [];
    // Tools not recorded yet (approved launch, never reached): the first run records and offers them all.
    e.withheld = approval?.tools ? defs.filter((d) => approval.tools![d.name] !== toolFingerprint(d)).map((d) => d.name) : [];
    e.offered = approval ? defs.length - e.withheld.length : 0;
  }
}
