import { estimatePromptTokens } from '../llm/contextWindows';
import type { ModelMessage, ModelToolCall, ModelToolSpec } from '../llm/types';
import { headTail } from '../tools/truncate';

/**
 * The messages of one run, kept valid for the chat API: every assistant tool call is followed by
 * exactly one tool message with its id (the pairs are never split). Tool results are cut before
 * they enter; when the whole no longer fits the budget, the oldest tool results are elided in
 * place (their pair stays), never summarized by the model (no summarize loop).
 */
export class Conversation {
  private readonly list: ModelMessage[] = [];

  /**
   * `earlier`: the turns of the same chat before this goal (a follow-up's context); they sit between
   * the system prompt and the goal, and their tool results are the first to be elided.
   */
  constructor(system: string, goal: string, private readonly maxToolResultChars: number, earlier: readonly ModelMessage[] = []) {
    this.list.push({ role: 'system', content: system }, ...earlier, { role: 'user', content: goal });
  }

  get messages(): readonly ModelMessage[] {
    return this.list;
  }

  addAssistant(text: string, toolCalls: readonly ModelToolCall[]): void {
    this.list.push({ role: 'assistant', content: text || null, ...(toolCalls.length ? { toolCalls } : {}) });
  }

  addToolResult(toolCallId: string, output: string): void {
    this.list.push({ role: 'tool', toolCallId, content: headTail(output, this.maxToolResultChars).text });
  }

  addUser(text: string): void {
    this.list.push({ role: 'user', content: text });
  }

  /**
   * Elides the oldest tool results until the estimate fits `maxPromptTokens`. The system prompt,
   * the goal and the last turn are kept whole. Returns how many results were elided.
   */
  fitToBudget(maxPromptTokens: number, tools: readonly ModelToolSpec[]): number {
    let elided = 0;
    const lastAssistant = this.list.map((m) => m.role).lastIndexOf('assistant');
    for (let i = 1; i < lastAssistant && estimatePromptTokens(this.list, tools) > maxPromptTokens; i++) {
      const m = this.list[i]!;
      if (m.role !== 'tool' || m.content.startsWith('[elided')) continue;
      this.list[i] = { role: 'tool', toolCallId: m.toolCallId, content: `[elided to fit the context window: ${m.content.length} characters; call the tool again if you need it]` };
      elided++;
    }
    return elided;
  }
}
