import type { ActionApprovalRequest, Approver, TestCommandRunner } from '../ports';
import type { CommandExecutor, HistorySearch, PatchEngine, WebFetcher, WebSearcher, WorkspaceFs } from '../ports';
import type { PatchPilotSettings, ApprovalMode } from '../config/settings';
import type { IgnoreRules } from '../git/ignoreRules';
import type { PolicyDecision } from '../policy/types';
import type { ApplyResult, HunkResult } from '../patch/types';
import type { SkillCatalog } from '../context/skills/skillCatalog';
import type { CheckpointScope } from '../checkpoint/types';
import type { UnansweredTestCommand } from './detectedTests';
import type { ToolAsk } from './ask';

/** What a tool gives back to the model. `output` is the text the model reads; errors are outputs too. */
export interface ToolResult<Data extends object = Record<string, unknown>> {
  ok: boolean;
  output: string;
  /** Structured facts for events and history (applied hunks, exit code); never sent to the model. */
  data?: Data;
}

/** What propose_patch puts in its ToolResult: applied, rejected (with the user's reasons) or refused, and why. */
export type PatchData = {
  preview?: ApplyResult;
  result?: ApplyResult;
  applied?: string[];
  rejected?: string[];
  files?: string[];
  hunkReasons?: Record<string, string>;
  editedPatch?: string;
  planned?: boolean;
  denied?: Array<{ path: string; reason: string }>;
  unattended?: boolean;
  /** The unified diff an edit tool derived from its string edits (edit_file): what was proposed, and what the history records. */
  patch?: string;
};

/** A patch a call proposed and what became of it, for the history (ToolLoopTraits.patchOf). */
export interface ProposedPatch {
  text: string;
  data: PatchData | undefined;
}

/** A failure the model should read and can fix (bad path, ignored file, refused approval). */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}

/** Facts of the current run that tools share (attacks.commands: a test command whose definition changed needs approval). */
export interface ToolRunState {
  /** The run's goal (the memory journal notes it). */
  goal?: string;
  /** Workspace-relative paths written by this run's file tools. */
  changedFiles: Set<string>;
  /**
   * A shell command ran in this run (run_command): it may have written any file (`echo x > test.js`,
   * `sed -i`) without appearing in changedFiles, so unsandboxed test runs treat the workspace as changed.
   */
  commandsRan?: boolean;
  /** Hosts the user approved sending data to in this run; data to any other host asks (attacks.network). */
  knownHosts?: Set<string>;
  /** The runner each configured test command turned out to use (its output said so): narrowing a run needs it. */
  testRunners?: Map<string, import('../testRuns').TestFramework>;
  /** The whole-suite run before the run's first change (which tests already failed), once there is one. */
  testBaseline?(): import('../testRuns').TestRunReport | undefined;
  /** How long the last whole-suite run took (the after-edit result says what the run before finish will cost). */
  wholeSuiteMs?: number;
  /** How many tests the last whole-suite run counted: a narrowed run that counts as many did not narrow. */
  wholeSuiteTests?: number;
  /**
   * Configured test commands that ran as many tests as the whole suite when narrowed (their runner
   * ignores the arguments): later runs of them go whole directly, and are not rerun to tell a flake.
   */
  narrowingIgnored?: Set<string>;
  /** Notes said once a run (that narrowing goes whole directly, why a runner ran directly): said again, they are noise. */
  notesSaid?: Set<string>;
  /**
   * Before a call that may change the tree (and before a test run): waits for the baseline (which
   * tests already fail), started with the run; a whole-suite test run before any change gets its result.
   */
  beforeFirstChange?(o?: { testRun?: 'whole' | 'narrowed' }): Promise<ToolResult | undefined>;
  /**
   * The most characters one tool result may have when it enters the conversation (it follows the
   * token budget). read_file fills its reply up to it, so a read is never cut after the fact.
   */
  resultChars?(): number;
  /** Keeps a whole text where read_file reads it (context/outputKeeper.ts): its workspace-relative path, or undefined when it cannot. */
  keepOutput?(text: string, tool: string): string | undefined;
  /** Test and check commands the user approved to run outside the sandbox, with the key of the workspace they were approved over (policy/launch). */
  hostRuns?: Map<string, string>;
  /** Hook before files are written (the host's problems in them, so the after-write hook reports only new ones). */
  beforeWrite?(paths: string[]): void;
  /** Hook after files were written (auto-commit, tests after edit, new problems). */
  afterWrite?(paths: string[], summary: string): Promise<string | undefined>;
}

/** Events tools report while they work; the orchestrator forwards them as run events. */
export type ToolEvent =
  | { type: 'patch-proposed'; preview: ApplyResult }
  | { type: 'approval-needed'; request: ActionApprovalRequest | { kind: 'patch'; title: string; hunks: string[] } }
  /** `unattended`: nobody could be asked; `edit`: the request was a change to the user's files (a patch, write_file). */
  | {
      type: 'approval-answered';
      kind: string;
      approved: boolean;
      accepted?: string[];
      rejected?: { id: string; reason?: string }[];
      unattended?: boolean;
      edit?: boolean;
      /** A patch the user edited in the review: their version goes in. */
      edited?: boolean;
      /** A patch's hunks in all. */
      total?: number;
    }
  /** A patch was written: which hunks went in (or the user's own edit of it), and the key its undo is filed under (patch/undoKey.ts). */
  | { type: 'patch-applied'; files: string[]; hunks: HunkResult[]; total: number; edited: boolean; undoKey?: string }
  /** `note`: a call waits for this run (the baseline), said on its row. */
  | { type: 'test-started'; command: string; note?: string }
  /** `whole`: the run covered the whole suite (not aimed at part of it, or its runner ignored the aim). */
  | { type: 'test-finished'; command: string; exitCode: number | null; durationMs: number; summary: string; output: string; whole?: boolean }
  /** Every policy verdict that gated an action, for the audit trail. */
  | { type: 'policy'; kind: 'command' | 'path' | 'network'; subject: string; decision: PolicyDecision };

/** What a tool works with: nine names; each group is one concept (ask.ts, ToolCommands, ToolRunState, ToolWorkspace, ToolServices). */
export interface ToolContext {
  /** Real absolute path of the workspace root. */
  root: string;
  signal: AbortSignal;
  /** Workspace files as the host sees them (VS Code: unsaved editor buffers, writes through WorkspaceEdit; CLI: NodeWorkspaceFs). The file tools' only way to the disk. */
  fs: WorkspaceFs;
  emit?(event: ToolEvent): void;
  /** The one gate for anything that needs a decision (ask.ts): the policies, the approval mode and the approver behind it. */
  ask: ToolAsk;
  /** Running commands: run_command's executor, the configured test commands, the detected ones. */
  run: ToolCommands;
  /** What the run's tools share (changed files, approved hosts, the test baseline, the write hooks). */
  state: ToolRunState;
  /** The workspace's configuration: its settings and ignore rules. */
  workspace: ToolWorkspace;
  /** What some tools use and a host may not have (patches, the web, the history, subagents, skills). */
  services: ToolServices;
}

/** The configuration the tools read: the resolved settings and the workspace's ignore rules. */
export interface ToolWorkspace {
  settings: PatchPilotSettings;
  ignore: IgnoreRules;
}

/** The optional capabilities of a host and a run, each used by a tool or two. */
export interface ToolServices {
  patches?: PatchEngine;
  web?: WebFetcher;
  /** web_search's provider (SearXNG or Brave), when one is configured. */
  search?: WebSearcher;
  history?: HistorySearch;
  /** spawn_subagent: runs a task in an isolated child agent (set by the orchestrator for the parent run). */
  subagents?: SubagentSpawner;
  /** The skills of this run (load_skill). */
  skills?: SkillCatalog;
}

/** How a tool runs commands: one capability, so the choice of sandbox or task terminal is made in one place (testCommandRunner.ts). */
export interface ToolCommands {
  /** run_command's executor (sandboxed when bubblewrap works); none in restricted mode. */
  exec?: CommandExecutor;
  /**
   * Runs the configured test and check commands (the sandbox or the host's task terminal, the
   * workspace's guard, the test definitions as they were): the same runner as the user's own Run Tests.
   */
  tests: TestCommandRunner;
  /** The project's test command detected but not configured (VS Code: the offer not answered yet); run_tests runs it when asked (detectedTests.ts). */
  detectedTests?(): UnansweredTestCommand | undefined;
}

/** Runs a focused task in a child agent with its own context; its final answer is the result. */
export interface SubagentSpawner {
  /** Tool names a subagent may be given (the parent's offered tools but spawn_subagent), and the read-only default. */
  readonly available: readonly string[];
  readonly defaults: readonly string[];
  spawn(request: { task: string; tools?: readonly string[] }, signal: AbortSignal): Promise<ToolResult>;
}

/**
 * Tools that come and go with outside state (an MCP server's tools), gathered at each run's start:
 * servers connect here, and whatever needs the user's approval (a new server, a changed tool) is
 * asked here, before the model sees a single description.
 */
export interface ToolSource {
  tools(ctx: ToolSourceContext): Promise<Tool<any>[]>;
}

export interface ToolSourceContext {
  signal: AbortSignal;
  approver: Approver;
  mode: ApprovalMode;
  emit?(event: ToolEvent): void;
  /** Something the user should know (a server that did not start and why). */
  warn?(message: string): void;
}

/** JSON Schema of a tool's arguments (an object schema). */
export type ToolSchema = Record<string, unknown> & { type: 'object'; properties: Record<string, unknown> };

/** `Data`: the shape of the `data` its results carry, which its own loop traits read back. */
export interface Tool<Args = Record<string, unknown>, Data extends object = Record<string, unknown>> {
  /** Public contract: models are prompted with these names and arguments. */
  name: string;
  description: string;
  schema: ToolSchema;
  /** Reads only: may run in parallel with other read-only calls, allowed in plan mode. */
  readOnly: boolean;
  /**
   * The schema comes from outside (an MCP server): compiled leniently (unknown keywords and formats
   * allowed), and when it cannot be compiled at all the arguments go through unchecked (the server checks them).
   */
  foreignSchema?: boolean;
  /** For a read-only tool whose arguments can make it act (spawn_subagent given write tools): whether this call may run alongside others. */
  parallelSafe?(args: Args, tools: { readOnly(name: string): boolean }): boolean;
  /** What the loop needs to know of this tool; the orchestrator never compares tool names. */
  loop?: ToolLoopTraits<Data>;
  run(args: Args, ctx: ToolContext): Promise<ToolResult<Data>>;
}

/**
 * A tool's part in the agent loop (src/core/orchestrator reads these, never the tool's name). The
 * results they read are the tool's own (or the registry's refusal of the call, which has no data).
 */
export interface ToolLoopTraits<Data extends object = Record<string, unknown>> {
  /** A successful call ends the run; its output is the run's summary (finish). */
  endsRun?: boolean;
  /** A failed result that is still an answer (a failing test run): the step did not fail. */
  isVerdict?(result: ToolResult<Data>): boolean;
  /**
   * What the call did to the tests' state the run ends with: 'passed' or 'failed' when it ran them
   * last (run_tests), 'not-run' when it changed files and no tests ran after (a subagent that edited),
   * undefined when it touched neither.
   */
  testsOutcome?(result: ToolResult<Data>): 'passed' | 'failed' | 'known-failures' | 'not-run' | undefined;
  /** The call ran tests: what they said, test by test (the finish gate tells new failures from known ones). */
  testReport?(result: ToolResult<Data>): import('../testRuns').TestRunReport | undefined;
  /** The patch the call proposed and what became of it, recorded in the history (propose_patch). */
  patchOf?(args: Record<string, unknown>, result: ToolResult<Data>): ProposedPatch | undefined;
  /** Its successful results are worth the run's memory (grep, glob, web_fetch). */
  worthRemembering?: boolean;
  /** Offered in plan mode although it writes: there it only dry-runs (propose_patch). */
  planModeDryRun?: boolean;
  /** Offered only when the run has something for it (load_skill: skills). */
  offeredWhen?(run: { skills: number }): boolean;
  /** Spawns child runs: the loop lends it the means to (spawn_subagent). */
  spawnsRuns?: boolean;
  /** Never lent to a child run (finish is its own; spawn_subagent does not nest). */
  notForSubagents?: boolean;
  /**
   * What a call may change on disk, so the loop takes a checkpoint before it (src/core/checkpoint):
   * the paths it names (a patch, a write), 'workspace' when it cannot say (a command, a test run),
   * 'none'. Without it: 'none' for a read-only tool, 'workspace' for any other (an MCP tool).
   */
  changesFiles?(args: Record<string, unknown>): CheckpointScope;
  /**
   * The files a successful call read (read_file), so the rules files of their folders and globs come
   * in (context/rules). The files a call changes (changesFiles) count as well, without this.
   */
  readsFiles?(args: Record<string, unknown>): string[];
  /**
   * The name Claude Code gives the same tool (run_command: `Bash`): a hook's matcher sees it besides
   * the tool's own name, so a matcher copied from Claude Code's settings works (src/core/hooks).
   */
  hookName?: string;
}

export const ok = <Data extends object = Record<string, unknown>>(output: string, data?: Data): ToolResult<Data> => ({ ok: true, output, data });
export const fail = <Data extends object = Record<string, unknown>>(output: string, data?: Data): ToolResult<Data> => ({ ok: false, output, data });
