/**
 * What a host is to the core: one object each host implements (VS Code in
 * src/host/vscode/chat/controller/agentHostServices.ts, the CLI in src/cli/node/cliHost.ts, tests in
 * test/support/fakes/fakeHost.ts), the shape of Continue's `IDE`. createAgent(host, config, options)
 * wires the core from it; everything else the agent is made of is the core's own.
 */
import type { AgentEvent } from '../../protocol/agentEvents';
import type { PatchPilotSettings } from '../config/settings';
import type { HistoryStore } from '../history/types';
import type { UnansweredTestCommand } from '../tools/detectedTests';
import type { Approver } from './approver';
import type { ChatModel } from './chatModel';
import type { DiagnosticsSource } from './diagnostics';
import type { Elicitor } from './elicitor';
import type { Notifier } from './notifier';
import type { SecretStore } from './secretStore';
import type { PatchEngine } from './services';
import type { TaskRunnerFactory } from './taskRunner';
import type { TestOutputView } from './testOutput';
import type { WorkspaceFs } from './workspaceFs';

export interface Host {
  /** The workspace folder the agent works in. */
  root: string;
  /** Asks the user about patches and actions. */
  approver: Approver;
  /** Tells the user something without blocking the work. */
  notifier: Notifier;
  /** Every event of the agent's runs (the chat's view, the CLI's printer). */
  onEvent(e: AgentEvent): void;
  /** The host's test runner, made with the guard and environment of run_command. */
  tasks: TaskRunnerFactory;
  /** Where the test commands the executor runs show their live output (VS Code: a task terminal); the CLI has none. */
  testOutput?: TestOutputView;
  /** Where remote MCP servers' OAuth tokens live, per user (VS Code: SecretStorage; the CLI: a 0600 file in the user's state folder). */
  secrets: SecretStore;
  /** The workspace files for the file tools and the patch engine (VS Code: unsaved buffers in, WorkspaceEdit out; the CLI: NodeWorkspaceFs, confined and atomic). */
  fs(root: string): WorkspaceFs;
  /** The host's patch engine (VS Code: WorkspaceEdit, the diff review and the undo journal); without one: the core's PatchManager over `fs`. */
  patches?(root: string): PatchEngine;
  /** The host's problems per file (VS Code's diagnostics); new ones in edited files go back with the edit. */
  diagnostics?: DiagnosticsSource;
  /** Who answers MCP servers' elicitation requests when the agent starts its own servers (the terminal, or a decline without one). */
  elicitor?: Elicitor;
  /**
   * A model the host serves itself for these settings (VS Code's Language Model API for provider
   * "vscode"); undefined: the client for the settings' endpoint. The core never imports the host's API.
   */
  model?(settings: PatchPilotSettings): Promise<ChatModel | undefined>;
  /** The detected test command the user has not answered yet (VS Code's offer): run_tests runs it when asked. */
  detectedTests?(): UnansweredTestCommand | undefined;
  /** The host's already open history store (VS Code: one per window), kept and closed by the host; undefined: the agent opens its own. */
  history?(): Promise<HistoryStore | undefined>;
  /** The bundled skills folder: the extension's `skills/`, or the one next to the CLI bundle. */
  bundledSkillsDir?: string;
  /** How the user approves an MCP server outside a run (the CLI: `patchpilot mcp approve NAME`). */
  mcpApproveHint?: (server: string) => string;
  /** How the user approves workspace hooks outside a run (the CLI: `patchpilot hooks approve`). */
  hooksApproveHint?: string;
}
