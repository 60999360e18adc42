import path from 'node:path';
import * as vscode from 'vscode';
import type { Elicitor, Notifier } from '../../../core/ports';
import type { OrchestratorDeps } from '../../../core/orchestrator';
import { wireAgent, type WiredAgent } from '../../../core/session';
import { createMcpManager } from '../../../core/session/capabilities';
import { isPromptCommand, type McpManager } from '../../../core/mcp';
import type { AgentEvent } from '../../../protocol/agentEvents';
import type { ChatStatus } from '../../../protocol/chat';
import type { HostConfig } from '../config/hostConfig';
import { VsCodeSecretStore } from '../config/secretStore';
import { MCP_LOGIN_HINT } from '../commands/mcpLogin';
import { VsCodeDiagnostics } from '../workspace/vsCodeDiagnostics';
import type { AgentHostServices } from './agentHost';
import { VsCodeElicitor } from './mcpElicitor';
import { attachInChat, expandPromptInChat, resourceMentionViews, slashCommands } from './mcpPrompt';
import type { VsCodeApprover } from './vscodeApprover';

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
 * What the chat's runs are wired with: the core's agent for this workspace (rebuilt when settings or
 * trust change, never during a run) and the window's MCP servers, which outlive rewirings and are
 * reconfigured by them. AgentHost keeps the conversation; this keeps the parts it runs on.
 */
export class ChatWiring implements vscode.Disposable {
  private wired: Promise<WiredAgent> | undefined;
  private mcpManager: McpManager | undefined;

  constructor(private readonly o: ChatWiringOptions) {}

  /** The next run wires again (settings, the key or trust changed). */
  invalidate(): void {
    this.wired = undefined;
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

  async deps(): Promise<OrchestratorDeps> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) throw new Error('no workspace folder');
    if (!this.wired) {
      const { context, config, services } = this.o;
      const loaded = await config.load();
      const userStateDir = context.globalStorageUri.fsPath;
      const mcp = this.mcpServers(folder.uri.fsPath, loaded.config.settings, userStateDir);
      const history = await services.history?.();
      const model = services.chatModel?.(loaded.config.settings);
      this.wired = (async () =>
        wireAgent({
          history,
          root: folder.uri.fsPath,
          config: loaded.config,
          approver: this.o.approver,
          notifier: this.o.notifier,
          onEvent: this.o.onEvent,
          tasks: services.tasks,
          testOutput: services.testOutput,
          patches: services.patches ? (root) => services.patches!(root, services.review) : undefined,
          fs: services.fs,
          readOnly: !loaded.trusted,
          mcp,
          userStateDir,
          // The skills/ folder shipped in the VSIX (.vscodeignore keeps it).
          bundledSkillsDir: path.join(context.extensionPath, 'skills'),
          model: await model,
          // The Problems view: new errors and warnings in the files an edit touched go back with it.
          diagnostics: new VsCodeDiagnostics(folder.uri.fsPath),
        }))();
      this.wired.catch(() => (this.wired = undefined));
    }
    return (await this.wired).deps;
  }

  dispose(): void {
    // A store the wiring opened itself is closed here; the window's shared one by its owner.
    void this.wired?.then((w) => (this.o.services.history ? undefined : w.history?.close())).catch(() => undefined);
    void this.mcpManager?.dispose();
  }

  private mcpServers(root: string, settings: Parameters<typeof createMcpManager>[0]['settings'], userStateDir: string): McpManager {
    if (this.mcpManager) return this.mcpManager;
    this.mcpManager = createMcpManager({
      root,
      // Started empty: wireAgent configures the servers of these settings (and again on each rewiring).
      settings: { ...settings, mcp: { ...settings.mcp, servers: {} } },
      userStateDir,
      secrets: new VsCodeSecretStore(this.o.context.secrets),
      loginHint: MCP_LOGIN_HINT,
      // Servers may ask the user for input during a call: a form card in the chat, else VS Code's own inputs.
      elicitor: this.o.elicitor ?? new VsCodeElicitor(),
    });
    this.mcpManager.onDidChangeStatus(() => this.o.onMcpChange());
    return this.mcpManager;
  }
}
