import * as vscode from 'vscode';
import { errorMessage } from '../../../../core/base';
import {
  attachMentionedResources,
  expandPromptCommand,
  promptCommandName,
  resourceMentions,
  type McpManager,
  type McpServerCatalog,
} from '../../../../core/mcp';
import type { SlashCommandView } from '../../../../protocol/chat';

/**
 * A chat message `/mcp.<server>.<prompt> name=value ...`: the prompt's messages become the message
 * the run gets; a required argument not given is asked in an input box. Undefined (with a notice in
 * the chat saying why) when it cannot be used: no server, not approved, unknown prompt, cancelled.
 */
export async function expandPromptInChat(
  mcp: McpManager | undefined,
  text: string,
  notice: (level: 'info' | 'error', text: string) => void,
): Promise<string | undefined> {
  if (!mcp) {
    notice('error', `${text.trim().split(/\s/, 1)[0]}: no MCP server is configured (patchpilot.mcp.servers).`);
    return undefined;
  }
  const ask = (a: { name: string; description?: string }, command: string) =>
    Promise.resolve(vscode.window.showInputBox({ title: `${command}: ${a.name} (required)`, prompt: a.description, ignoreFocusOut: true }));
  const expanded = await expandPromptCommand(mcp, text, ask, new AbortController().signal).catch((err: unknown) => ({ error: errorMessage(err) }));
  if ('error' in expanded) {
    notice('error', expanded.error);
    return undefined;
  }
  notice('info', `${expanded.command}: the prompt's messages are your message.`);
  return expanded.text;
}

/** The prompts of the connected servers as the message box suggests them. */
export function slashCommands(catalog: readonly McpServerCatalog[]): SlashCommandView[] {
  return catalog.flatMap((c) =>
    c.prompts.map((p) => ({
      command: promptCommandName(c.server, p.name),
      args: p.arguments.map((a) => (a.required ? `${a.name}=...` : `[${a.name}=...]`)).join(' '),
      ...(p.description || p.title ? { description: (p.title ?? p.description)! } : {}),
    })),
  );
}

/** `@server:uri` in a chat message: the resource is read (filtered) and attached; the chat says what was (or why not). */
export async function attachInChat(
  mcp: McpManager | undefined,
  text: string,
  notice: (level: 'info' | 'error', text: string) => void,
): Promise<string | undefined> {
  if (!mcp || resourceMentions(text, mcp.serverNames).length === 0) return text;
  const r = await attachMentionedResources(mcp, text, new AbortController().signal).catch((err: unknown) => ({ error: errorMessage(err) }));
  if ('error' in r) {
    notice('error', r.error);
    return undefined;
  }
  for (const a of r.attached) notice('info', `Attached @${a.server}:${a.uri} (${a.chars.toLocaleString('en-US')} characters).`);
  return r.text;
}

/** The connected servers' resources as `@server:uri` mentions the message box suggests (at most 200 per server). */
export function resourceMentionViews(catalog: readonly McpServerCatalog[]): SlashCommandView[] {
  return catalog.flatMap((c) => c.resources.slice(0, 200).map((r) => ({ command: `@${c.server}:${r.uri}`, args: '', description: r.title ?? r.name })));
}
