import type { AgentEvent, RunEndStatus } from '../../protocol/agentEvents';
import type { Clock, Approver, TaskRunner } from '../ports';
import type { PatchPilotSettings } from '../config/settings';
import type { HistoryStore } from '../history/types';
import type { CompleteRequest } from '../llm/modelClient';
import type { ChatRequest, ModelMessage, ModelRole, ModelTurn } from '../llm/types';
import type { ContextWindow } from '../llm/contextWindows';
import type { UsageTotals } from '../llm/usageMeter';
import type { ToolRegistry } from '../tools/registry';
import type { CommandExecutor, CommandPolicy, PatchEngine, PathPolicy, ToolContext, WebFetcher } from '../tools/types';

/** What the loop needs from the model client (ModelClient fits). */
export interface ChatModel {
  streamChatWithRecovery(request: ChatRequest): Promise<ModelTurn>;
  modelFor(role: ModelRole): string;
  contextWindow(role: ModelRole): ContextWindow;
  /** Plain text from the fast model (ModelClient.complete); without it, insights and the Q&A summary are plain text. */
  complete?(request: CompleteRequest): Promise<ModelTurn>;
}

/** The part of the history store a run writes to. */
export type RunHistory = Pick<
  HistoryStore,
  'startRun' | 'finishRun' | 'addStep' | 'addPatch' | 'addTestRun' | 'recordObservation' | 'recordQaSummary' | 'addPolicyDecision' | 'search'
>;

export interface OrchestratorDeps {
  /** Workspace root; resolved to its real path at run start. */
  root: string;
  settings: PatchPilotSettings;
  model: ChatModel;
  tools: ToolRegistry;
  approver: Approver;
  tasks: TaskRunner;
  history?: RunHistory;
  patches?: PatchEngine;
  pathPolicy?: PathPolicy;
  commandPolicy?: CommandPolicy;
  /** Captured at run start (TestDefinitionGuard.capture), so run_tests asks after a test definition changed. */
  testGuard?: ToolContext['testGuard'];
  exec?: CommandExecutor;
  web?: WebFetcher;
  clock?: Clock;
  onEvent?(event: AgentEvent): void;
}

/** Options of one run. */
export interface RunOptions {
  signal?: AbortSignal;
  /** Earlier turns of the same chat (without the system prompt), so a follow-up keeps its context. */
  earlier?: readonly ModelMessage[];
  /**
   * Messages the user sent while this run works: taken before each model step after the first and
   * added to the conversation as user messages, so the model sees them at its next step.
   */
  inbox?: { take(): string[] };
}

export interface RunOutcome {
  status: RunEndStatus;
  reason: string;
  /** The finish summary, or the final text of a reply without tool calls. */
  summary?: string;
  steps: number;
  runId: string | null;
  /** Both models together. */
  usage: UsageTotals;
  /** The agent's model and the fast model (insights, Q&A summary) apart. */
  usageByRole: Record<ModelRole, UsageTotals>;
  /** The conversation after the run, without the system prompt: the next follow-up's `earlier`. */
  transcript: ModelMessage[];
}
