/**
 * Prompt messages and resource contents as text for the model, through the same filter as tool
 * results (resultFilter.ts): text redacted of ignored files' lines, resources whose URI is an
 * ignored workspace file withheld, binary named and never dumped. A bare manager (tests of the
 * client alone) has no guard: the text passes as is.
 */
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { headTail } from '../base/truncate';
import type { McpConnection } from './connection';
import { resultText } from './mcpTool';
import type { McpCallGuard } from './resultFilter';

const MAX_CHARS = 20_000;

export async function filteredResource(connection: McpConnection, uri: string, signal: AbortSignal, guard: McpCallGuard | undefined): Promise<string> {
  const call = async (): Promise<CallToolResult> => asContent(await connection.readResource(uri, signal));
  const text = guard ? (await guard.guarded(call, undefined)).text : resultText(await call());
  return headTail(text, MAX_CHARS).text;
}

export async function filteredPrompt(
  connection: McpConnection,
  name: string,
  args: Record<string, string>,
  signal: AbortSignal,
  guard: McpCallGuard | undefined,
): Promise<string> {
  const call = async (): Promise<CallToolResult> => promptContent(await connection.getPrompt(name, args, signal));
  const text = guard ? (await guard.guarded(call, undefined)).text : resultText(await call());
  return headTail(text, MAX_CHARS).text;
}

function asContent(result: ReadResourceResult): CallToolResult {
  return { content: result.contents.map((resource) => ({ type: 'resource' as const, resource })) };
}

/** The prompt's messages in order; an assistant message is marked so, as the whole becomes one user turn. */
function promptContent(result: GetPromptResult): CallToolResult {
  const content: CallToolResult['content'] = [];
  for (const m of result.messages) {
    if (m.role === 'assistant') content.push({ type: 'text', text: "(the prompt's assistant message:)" });
    content.push(m.content as CallToolResult['content'][number]);
  }
  return { content };
}
