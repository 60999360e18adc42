import type { RunEndStatus } from '../../protocol/agentEvents';
import type { Clock, Host, TaskRunner, ChatModel, RunHistory } from '../ports';
import type { PatchPilotSettings } from '../config/settings';
import type { ModelMessage, ModelRole } from '../llm/types';
import type { UsageMeter, UsageRecord, UsageTotals } from '../llm/usageMeter';
import type { ToolRegistry } from '../tools/registry';
import type { CommandExecutor, CommandPolicy, PatchEngine, PathPolicy, WebFetcher, WebSearcher, WorkspaceFs } from '../ports';
import type { ToolContext, ToolSource } from '../tools/types';
import type { GitSnapshot } from '../git/gitSnapshot';
import type { WorkspaceFacts } from '../context/systemPrompt';
import type { TokenCalibration } from '../context/tokenCounter';
import type { IgnoreFilter } from '../policy/path/ignoreFilter';
import type { Checkpoints } from '../checkpoint/types';
import type { HookRunner } from '../hooks';

/**
 * What a run is wired with: the host half as the Host port has it (the root, resolved to its real
 * path at run start; the approver; the event sink, the diagnostics, the offered test command and the
 * bundled skills where the host has them), and the core parts createAgent made from the Host and the
 * configuration (the instances of its factories among them: `tasks`, `fs`, `patches`).
 */
export interface OrchestratorDeps
  extends Pick<Host, 'root' | 'approver'>, Partial<Pick<Host, 'onEvent' | 'diagnostics' | 'detectedTests' | 'bundledSkillsDir'>> {
  settings: PatchPilotSettings;
  model: ChatModel;
  tools: ToolRegistry;
  /** The host's task runner: where test commands run when they are not sandboxed (through `testCommands`). */
  tasks: TaskRunner;
  history?: RunHistory;
  patches?: PatchEngine;
  /** Workspace files as the host sees them (CLI and tests: NodeWorkspaceFs); the file tools and the run's setup reach the disk only through it. */
  fs: WorkspaceFs;
  /** The `.patchpilotignore` filter the policies use; the tools' listings share it. Default: one made for the run. */
  ignoreFilter?: IgnoreFilter;
  pathPolicy?: PathPolicy;
  commandPolicy?: CommandPolicy;
  exec?: CommandExecutor;
  /**
   * Runs the test and check commands (tools/testCommandRunner.ts: the sandbox or `tasks`, the test
   * definitions' guard, trust); createAgent makes it. Default: one over `exec` and `tasks`.
   */
  testCommands?: ToolContext['run']['tests'];
  web?: WebFetcher;
  /** web_search's provider, when one is configured. */
  search?: WebSearcher;
  /** Tools gathered at each run's start (MCP servers), added to `tools` for that run. */
  toolSources?: readonly ToolSource[];
  clock?: Clock;
  /** Restore points before each step that can change files (src/core/checkpoint); none: no checkpoints. */
  checkpoints?: Checkpoints;
  /** The configured hooks (patchpilot.hooks), run on the loop's events (hookSteps.ts); none: no hook runs. */
  hooks?: HookRunner;
  /** Token ratios learned from usage reports, shared by the runs of one session (default: one per run). */
  calibration?: TokenCalibration;
}

/** Options of one run. */
export interface RunOptions {
  signal?: AbortSignal;
  /** Earlier turns of the same chat (without the system prompt), so a follow-up keeps its context. */
  earlier?: readonly ModelMessage[];
  /** The run that recorded `earlier` as its transcript (the chat's previous run): the history then keeps a reference, not a copy. */
  earlierRunId?: string;
  /**
   * Messages the user sent while this run works: taken before each model step after the first and
   * added to the conversation as user messages, so the model sees them at its next step.
   */
  inbox?: { take(): string[] };
  /**
   * This run is a subagent's (spawn_subagent): its focused prompt, and its history row points at the
   * parent run. The parent's git snapshot and workspace facts are reused (taken moments ago), so a
   * subagent starts without running git or listing the workspace again.
   */
  subagent?: {
    parentRunId: string | null;
    git?: GitSnapshot;
    facts?: WorkspaceFacts;
    /** The parent's meter, tagged `subagent N`: every request of the child is counted there as it happens (and its budget applies). */
    meter?: UsageMeter;
  };
}

export interface RunOutcome {
  status: RunEndStatus;
  reason: string;
  /** The finish summary, or the final text of a reply without tool calls. */
  summary?: string;
  steps: number;
  /** The tests after the run's last file change (testsOutcome.ts). */
  tests: import('../../protocol/agentEvents').RunTestsOutcome;
  /** Workspace-relative paths the run's file tools wrote. */
  changedFiles: string[];
  runId: string | null;
  /** Both models together. */
  usage: UsageTotals;
  /** The agent's model and the fast model (insights, Q&A summary) apart. */
  usageByRole: Record<ModelRole, UsageTotals>;
  /** The conversation after the run, without the system prompt: the next follow-up's `earlier`. */
  transcript: ModelMessage[];
  /** A run that failed at the model: the kind of fault, for a host's actions (Retry, Open Settings). */
  failure?: import('../../protocol/agentEvents').RunFailure;
  /** Every model request of the run (subagents' included), each with its source. */
  usageRecords?: readonly UsageRecord[];
  /** A `stopped` run: a budget, or the loop guard. */
  stoppedBy?: import('../../protocol/agentEvents').RunStoppedBy;
}
