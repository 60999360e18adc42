import type { ActionApprovalRequest, Approver, TaskRunner, TaskRunResult } from '../ports';
import type { PatchPilotSettings, ApprovalMode } from '../config/settings';
import type { IgnoreRules } from '../git/ignoreRules';
import type { PolicyDecision } from '../policy/types';
import type { ApplyOptions, ApplyResult } from '../patch/types';
import type { SafeFetchResult } from '../policy/network/safe-fetch';
import type { HistoryStore } from '../history/types';

/** What a tool gives back to the model. `output` is the text the model reads; errors are outputs too. */
export interface ToolResult {
  ok: boolean;
  output: string;
  /** Structured facts for events and history (applied hunks, exit code); never sent to the model. */
  data?: Record<string, unknown>;
}

/** A failure the model should read and can fix (bad path, ignored file, refused approval). */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}

export type PathAccess = 'read' | 'list' | 'search' | 'create' | 'write';

/** Decides reads and writes of workspace paths (protected paths ask, denyPaths are denied): policy/path's checkPath. */
export interface PathPolicy {
  /** `path` as the model gave it (workspace-relative or absolute). The real path is set whenever it resolves. */
  check(path: string, access: PathAccess): Promise<PolicyDecision & { realPath?: string; relativePath?: string }>;
}

/** Decides a command line (deny > ask > allow): policy/command's createCommandPolicy. */
export interface CommandPolicy {
  check(input: { command: string; workspaceRoot: string; cwd: string; homeDir: string }): PolicyDecision;
}

/** A command's outcome: the same shape as a test command's. */
export type CommandExecution = TaskRunResult;

/** Runs an approved command (the CLI: in a bubblewrap sandbox). */
export interface CommandExecutor {
  /** Without a sandbox, auto mode asks before commands that run workspace code. */
  readonly sandboxed: boolean;
  run(request: { command: string; cwd: string; signal: AbortSignal; timeoutMs?: number }): Promise<CommandExecution>;
}

/** Applies patch text to the workspace (PatchManager). */
export interface PatchEngine {
  apply(text: string, options: ApplyOptions): Promise<ApplyResult>;
}

/** Fetches a URL after the network policy (no private addresses, capped size and time): policy/network's safeFetch. */
export type WebFetcher = (url: string, signal: AbortSignal) => Promise<SafeFetchResult>;

/** Searches what past runs learned (the history store). */
export type HistorySearch = Pick<HistoryStore, 'search'>;

/** Facts of the current run that tools share (A5: a test command whose definition changed needs approval). */
export interface RunState {
  /** Workspace-relative paths written by this run's file tools. */
  changedFiles: Set<string>;
  /**
   * A shell command ran in this run (run_command): it may have written any file (`echo x > test.js`,
   * `sed -i`) without appearing in changedFiles, so unsandboxed test runs treat the workspace as changed.
   */
  commandsRan?: boolean;
  /** Hosts the user approved sending data to in this run; data to any other host asks (A12). */
  knownHosts?: Set<string>;
  /** Hook after files were written (auto-commit, tests after edit). */
  afterWrite?(paths: string[], summary: string): Promise<string | undefined>;
}

/** Events tools report while they work; the orchestrator forwards them as run events. */
export type ToolEvent =
  | { type: 'patch-proposed'; preview: ApplyResult }
  | { type: 'approval-needed'; request: ActionApprovalRequest | { kind: 'patch'; title: string; hunks: string[] } }
  | { type: 'approval-answered'; kind: string; approved: boolean; accepted?: string[] }
  | { type: 'test-started'; command: string }
  | { type: 'test-finished'; command: string; exitCode: number | null; durationMs: number; summary: string; output: string }
  /** Every policy verdict that gated an action, for the audit trail. */
  | { type: 'policy'; kind: 'command' | 'path' | 'network'; subject: string; decision: PolicyDecision };

export interface ToolContext {
  /** Real absolute path of the workspace root. */
  root: string;
  settings: PatchPilotSettings;
  mode: ApprovalMode;
  signal: AbortSignal;
  approver: Approver;
  tasks: TaskRunner;
  ignore: IgnoreRules;
  run: RunState;
  pathPolicy?: PathPolicy;
  commandPolicy?: CommandPolicy;
  /** A5: says when a test command's definition (package.json scripts, Makefile...) changed during the run. */
  testGuard?: { check(argv: readonly string[], cwd: string): { reason: string } | undefined };
  exec?: CommandExecutor;
  patches?: PatchEngine;
  web?: WebFetcher;
  history?: HistorySearch;
  emit?(event: ToolEvent): void;
}

/** JSON Schema of a tool's arguments (an object schema). */
export type ToolSchema = Record<string, unknown> & { type: 'object'; properties: Record<string, unknown> };

export interface Tool<Args = Record<string, unknown>> {
  /** Public contract: models are prompted with these names and arguments. */
  name: string;
  description: string;
  schema: ToolSchema;
  /** Reads only: may run in parallel with other read-only calls, allowed in plan mode. */
  readOnly: boolean;
  run(args: Args, ctx: ToolContext): Promise<ToolResult>;
}

export const ok = (output: string, data?: Record<string, unknown>): ToolResult => ({ ok: true, output, data });
export const fail = (output: string, data?: Record<string, unknown>): ToolResult => ({ ok: false, output, data });
