import path from 'node:path';
import * as vscode from 'vscode';
import { errorMessage } from '../../../../core/base';
import type { Elicitor, Notifier, SecretStore } from '../../../../core/ports';
import type { OrchestratorDeps } from '../../../../core/orchestrator';
import { AgentSlot, createAgent, type Agent } from '../../../../core/session';
import { createMcpManager } from '../../../../core/session';
import { isPromptCommand, type McpManager } from '../../../../core/mcp';
import type { AgentEvent } from '../../../../protocol/agentEvents';
import type { ChatStatus } from '../../../../protocol/chat';
import type { HostConfig, LoadedConfig } from '../../config/hostConfig';
import { VsCodeSecretStore } from '../../config/secretStore';
import { MCP_LOGIN_HINT } from '../../commands/mcpLogin';
import { vsCodeHost, type AgentHostServices } from './agentHostServices';
import { VsCodeElicitor } from '../approvals/mcpElicitor';
import { attachInChat, expandPromptInChat, resourceMentionViews, slashCommands } from './mcpPrompt';
import type { VsCodeApprover } from '../approvals/vscodeApprover';

export interface ChatWiringOptions {
  context: vscode.ExtensionContext;
  config: HostConfig;
  services: AgentHostServices;
  approver: VsCodeApprover;
  /** Forms and links MCP servers ask for (chatElicitor.ts: a card in the chat); without one, VS Code's own inputs. */
  elicitor?: Elicitor;
  notifier: Notifier;
  onEvent: (e: AgentEvent) => void;
  /** An MCP server started, stopped or changed its prompts (list_changed): the chat's suggestions follow. */
  onMcpChange: () => void;
}

/**
 * What the chat's runs are wired with: the core's agent for this workspace, held in an AgentSlot
 * (kept across messages, replaced and disposed only when the settings, keys or trust it was made
 * from changed, never during a run), and the window's MCP servers, which outlive the agents and are
 * reconfigured by each. ChatController keeps the conversation; this keeps the parts it runs on.
 */
export class ChatWiring implements vscode.Disposable {
  private readonly agent: AgentSlot<LoadedConfig>;
  private mcpManager: McpManager | undefined;

  constructor(private readonly o: ChatWiringOptions) {
    this.agent = new AgentSlot(
      (loaded) => this.create(loaded),
      agentKey,
      (err) => o.notifier.error(`PatchPilot could not close the previous agent: ${errorMessage(err)}`),
    );
  }

  /** A host event (settings, a key, trust, the models) changed what the next run's agent is made from. */
  invalidate(): void {
    this.agent.invalidate();
  }

  get mcp(): McpManager | undefined {
    return this.mcpManager;
  }

  /** The MCP prompts and resources the message box suggests (none until the first run starts the servers). */
  suggestions(): Pick<ChatStatus, 'commands' | 'mentions'> {
    const mcp = this.mcpManager;
    return mcp ? { commands: slashCommands(mcp.catalog()), mentions: resourceMentionViews(mcp.catalog()) } : {};
  }

  /** The goal a message stands for: an MCP prompt command expanded, `@server:uri` resources attached; undefined: refused (the chat says why). */
  async goalOf(text: string, notice: (level: 'info' | 'error', text: string) => void): Promise<string | undefined> {
    const expanded = isPromptCommand(text) ? await expandPromptInChat(this.mcpManager, text, notice) : text;
    return expanded === undefined ? undefined : attachInChat(this.mcpManager, expanded, notice);
  }

  /** The next run's deps: the same agent as the last run's unless what it is made from changed. */
  async deps(): Promise<OrchestratorDeps> {
    if (!vscode.workspace.workspaceFolders?.[0]) throw new Error('no workspace folder');
    return (await this.agent.get(await this.o.config.load())).deps;
  }

  dispose(): void {
    // The agent closes what it opened (a store the window lent stays open for its owner).
    this.agent.dispose();
    void this.mcpManager?.dispose();
  }

  private async create(loaded: LoadedConfig): Promise<Agent> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) throw new Error('no workspace folder');
    const { context, services } = this.o;
    const userStateDir = context.globalStorageUri.fsPath;
    const secrets = new VsCodeSecretStore(context.secrets);
    const mcp = this.mcpServers(folder.uri.fsPath, loaded.config.settings, userStateDir, secrets);
    const host = vsCodeHost(services, {
      root: folder.uri.fsPath,
      approver: this.o.approver,
      notifier: this.o.notifier,
      onEvent: this.o.onEvent,
      secrets,
      // The skills/ folder shipped in the VSIX (.vscodeignore keeps it).
      bundledSkillsDir: path.join(context.extensionPath, 'skills'),
    });
    return createAgent(host, loaded.config, { readOnly: !loaded.trusted, userStateDir, mcp });
  }

  private mcpServers(root: string, settings: Parameters<typeof createMcpManager>[0]['settings'], userStateDir: string, secrets: SecretStore): McpManager {
    if (this.mcpManager) return this.mcpManager;
    this.mcpManager = createMcpManager({
      root,
      // Started empty: createAgent configures the servers of these settings (and again on each rewiring).
      settings: { ...settings, mcp: { ...settings.mcp, servers: {} } },
      userStateDir,
      secrets,
      loginHint: MCP_LOGIN_HINT,
      // Servers may ask the user for input during a call: a form card in the chat, else VS Code's own inputs.
      elicitor: this.o.elicitor ?? new VsCodeElicitor(),
    });
    this.mcpManager.onDidChangeStatus(() => this.o.onMcpChange());
    return this.mcpManager;
  }
}

/** Two loads make the same agent when every resolved value, the keys and trust are the same. */
function agentKey(loaded: LoadedConfig): string {
  const { settings, trusted, apiKey, webSearchKey } = loaded.config;
  return JSON.stringify([settings, trusted, loaded.trusted, loaded.demo, apiKey, webSearchKey]);
}
