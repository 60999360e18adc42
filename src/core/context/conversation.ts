import type { ModelMessage, ModelToolCall, ThinkingBlock } from '../llm/types';
import { cutOutput } from '../base/outputCut';
import { withoutUserSummaries } from './compaction';
import type { OutputKeeper } from './outputKeeper';

/**
 * The messages of one run, kept valid for the chat API: every assistant tool call is followed by
 * exactly one tool message with its id (the pairs are never split). Tool results are cut before they
 * enter (whole lines, first and last, base/outputCut.ts), the whole output kept for read_file. Appends keep the version; a rewrite (a summary, a cut)
 * bumps it, so the token counter knows its last report no longer describes a prefix.
 */
export class Conversation {
  private list: ModelMessage[];
  private rewrites = 0;
  /** Keeps the whole of a cut tool result where read_file can read it (the run sets it). */
  keeper?: OutputKeeper;
  /** The run's goal as it sits in the list (compaction never drops what follows it). */
  readonly goal: ModelMessage;

  /**
   * `earlier`: the turns of the same chat before this goal (a follow-up's context, maybe already
   * summarized); they sit between the system prompt and the goal.
   */
  constructor(
    system: string,
    goal: string,
    private maxToolResultChars: number,
    earlier: readonly ModelMessage[] = [],
  ) {
    this.goal = { role: 'user', content: goal };
    this.list = [{ role: 'system', content: system }, ...withoutUserSummaries(earlier), this.goal];
  }

  get messages(): readonly ModelMessage[] {
    return this.list;
  }

  /** Bumped by every rewrite (not by appends). */
  get version(): number {
    return this.rewrites;
  }

  /** The cap on a tool result entering from now on (it follows the token budget). */
  set toolResultLimit(chars: number) {
    this.maxToolResultChars = chars;
  }

  /** The cap in force: read_file fills its reply up to it, so a read is never cut after the fact. */
  get toolResultLimit(): number {
    return this.maxToolResultChars;
  }

  /**
   * `reasoning` rides along for providers that need it back within a tool loop (llm/reasoningReplay.ts);
   * `thinkingBlocks`: the reply's signed reasoning, kept as it came (Anthropic checks it within a tool loop).
   */
  addAssistant(text: string, toolCalls: readonly ModelToolCall[], reasoning?: string, thinkingBlocks?: readonly ThinkingBlock[]): void {
    this.list.push({
      role: 'assistant',
      content: text || null,
      ...(toolCalls.length ? { toolCalls } : {}),
      ...(reasoning ? { reasoning } : {}),
      ...(thinkingBlocks?.length ? { thinkingBlocks } : {}),
    });
  }

  /** `tool`: names the kept file of a cut result. Returns the result as it entered (what the model reads). */
  addToolResult(toolCallId: string, output: string, tool = 'tool'): string {
    const keptAt = output.length > this.maxToolResultChars ? this.keeper?.keep(output, tool) : undefined;
    const content = cutOutput(output, this.maxToolResultChars, { shape: 'headTail', keptAt }).text;
    this.list.push({ role: 'tool', toolCallId, content });
    return content;
  }

  addUser(text: string): void {
    this.list.push({ role: 'user', content: text });
  }

  /**
   * A new system prompt (rules files that came in when the run touched their folder or glob): a
   * rewrite, so the next count starts over. Compaction keeps the system prompt whole, so they stay.
   */
  setSystem(text: string): void {
    this.list = [{ role: 'system', content: text }, ...this.list.slice(1)];
    this.rewrites++;
  }

  /** Replaces the whole list (a compaction); the caller keeps the pairs and the system prompt. */
  replace(messages: readonly ModelMessage[]): void {
    this.list = [...messages];
    this.rewrites++;
  }
}
