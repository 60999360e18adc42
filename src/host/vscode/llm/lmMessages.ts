import * as vscode from 'vscode';
import type { ModelMessage, ModelToolSpec } from '../../../core/llm';

/**
 * The core's conversation in the Language Model API's shape. The API has no system role for
 * extensions (it is a proposal), so the system prompt is the first User message; an assistant turn
 * carries its tool calls as LanguageModelToolCallPart, and the results that answer them go back
 * together in one User message of LanguageModelToolResultPart, as the API's tool-calling guide asks.
 */
export function toLmMessages(messages: readonly ModelMessage[]): vscode.LanguageModelChatMessage[] {
  const out: vscode.LanguageModelChatMessage[] = [];
  let results: vscode.LanguageModelToolResultPart[] = [];
  const flushResults = () => {
    if (results.length) out.push(vscode.LanguageModelChatMessage.User(results));
    results = [];
  };
  for (const m of messages) {
    if (m.role === 'tool') {
      results.push(new vscode.LanguageModelToolResultPart(m.toolCallId, [new vscode.LanguageModelTextPart(m.content)]));
      continue;
    }
    flushResults();
    if (m.role === 'system' || m.role === 'user') {
      out.push(vscode.LanguageModelChatMessage.User(m.content));
    } else {
      const parts: (vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart)[] = [];
      if (m.content) parts.push(new vscode.LanguageModelTextPart(m.content));
      for (const call of m.toolCalls ?? []) parts.push(new vscode.LanguageModelToolCallPart(call.id, call.name, parseInput(call.argumentsJson)));
      if (parts.length) out.push(vscode.LanguageModelChatMessage.Assistant(parts));
    }
  }
  flushResults();
  return out;
}

export function toLmTools(tools: readonly ModelToolSpec[] | undefined): vscode.LanguageModelChatTool[] | undefined {
  return tools?.length ? tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.parameters })) : undefined;
}

/** Only valid calls reach the history (invalid ones are answered separately); still, never throw here. */
function parseInput(argumentsJson: string): object {
  try {
    const value: unknown = JSON.parse(argumentsJson || '{}');
    return value !== null && typeof value === 'object' ? value : {};
  } catch {
    return {};
  }
}
