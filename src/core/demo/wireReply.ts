/**
 * The server side of the OpenAI chat completions wire format: turns a reply into what a provider
 * would send, streamed chunks (role first, then text, then tool calls with id+name first and
 * arguments split into several deltas) or one JSON completion. Used by the demo model and by the
 * tests' scripted model server, so both speak exactly what the `openai` client parses.
 */

export interface ReplyToolCall {
  /** Defaults to `call_<turn>_<index>`. */
  id?: string;
  name: string;
  /** An object is sent as its JSON text; a string is sent verbatim (tests use it to send broken JSON). */
  arguments: string | Record<string, unknown>;
}

export interface ReplyUsage {
  promptTokens: number;
  completionTokens: number;
  cachedTokens?: number;
}

/** One model reply, before it is put on the wire. */
export interface WireReply {
  text?: string;
  /** Streamed as `reasoning_content` deltas, like DeepSeek/vLLM. */
  reasoning?: string;
  toolCalls?: ReplyToolCall[];
  /** Defaults to `tool_calls` when there are tool calls, else `stop`. */
  finishReason?: string;
  /** Omitted: estimated (chars/4). null: no usage at all. */
  usage?: ReplyUsage | null;
  /** Characters per text delta. Default 8. */
  textChunkSize?: number;
  /** Deltas each tool call's arguments are split into. Default 3. */
  argumentChunks?: number;
  /** Interleave parallel tool calls' chunks by index (as some providers do). Default true. */
  interleave?: boolean;
}

export interface WireUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens: number };
}

interface ResolvedCall {
  id: string;
  name: string;
  args: string;
}

function resolveCalls(reply: WireReply, turn: number): ResolvedCall[] {
  return (reply.toolCalls ?? []).map((c, i) => ({
    id: c.id ?? `call_${turn}_${i}`,
    name: c.name,
    args: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
  }));
}

function split(text: string, pieces: number): string[] {
  if (!text) return [];
  const n = Math.max(1, Math.min(pieces, text.length));
  const size = Math.ceil(text.length / n);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

export function finishReasonOf(reply: WireReply): string {
  return reply.finishReason ?? (reply.toolCalls?.length ? 'tool_calls' : 'stop');
}

/** Usage to report: the scripted figures, or a chars/4 estimate of the request and the reply. */
function toolsLength(requestBody: unknown): number {
  const tools = (requestBody as { tools?: unknown })?.tools;
  return tools === undefined ? 0 : JSON.stringify(tools).length;
}

export function usageFor(reply: WireReply, requestBody: unknown): WireUsage | undefined {
  if (reply.usage === null) return undefined;
  const u: ReplyUsage = reply.usage ?? {
    // Like a real server, everything in the prompt counts: the messages and the tool schemas.
    promptTokens: Math.ceil((JSON.stringify((requestBody as { messages?: unknown })?.messages ?? []).length + toolsLength(requestBody)) / 4),
    completionTokens: Math.ceil(((reply.text ?? '') + (reply.toolCalls ?? []).map((c) => c.name + JSON.stringify(c.arguments)).join('')).length / 4),
  };
  return {
    prompt_tokens: u.promptTokens,
    completion_tokens: u.completionTokens,
    total_tokens: u.promptTokens + u.completionTokens,
    ...(u.cachedTokens !== undefined ? { prompt_tokens_details: { cached_tokens: u.cachedTokens } } : {}),
  };
}

export interface ChunkContext {
  id: string;
  model: string;
  turn: number;
  created: number;
}

/** The `delta`s of a streamed reply, followed by the finish chunk and (optionally) the usage chunk. */
export function streamChunks(reply: WireReply, ctx: ChunkContext, usage: WireUsage | undefined): object[] {
  const base = { id: ctx.id, object: 'chat.completion.chunk', created: ctx.created, model: ctx.model };
  const chunk = (delta: object, finish: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  const out: object[] = [chunk({ role: 'assistant', content: '' })];
  for (const piece of split(reply.reasoning ?? '', Math.ceil((reply.reasoning ?? '').length / (reply.textChunkSize ?? 8)))) {
    out.push(chunk({ reasoning_content: piece }));
  }
  for (const piece of split(reply.text ?? '', Math.ceil((reply.text ?? '').length / (reply.textChunkSize ?? 8)))) {
    out.push(chunk({ content: piece }));
  }
  const calls = resolveCalls(reply, ctx.turn);
  const perCall = calls.map((c, index) => [
    chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] }),
    ...split(c.args, reply.argumentChunks ?? 3).map((args) => chunk({ tool_calls: [{ index, function: { arguments: args } }] })),
  ]);
  if (reply.interleave === false) {
    for (const list of perCall) out.push(...list);
  } else {
    const longest = Math.max(0, ...perCall.map((l) => l.length));
    for (let i = 0; i < longest; i++) for (const list of perCall) if (list[i]) out.push(list[i]!);
  }
  out.push(chunk({}, finishReasonOf(reply)));
  if (usage) out.push({ ...base, choices: [], usage });
  return out;
}

/** The non-streaming `chat.completion` object for a reply. */
export function completionBody(reply: WireReply, ctx: ChunkContext, usage: WireUsage | undefined): object {
  const calls = resolveCalls(reply, ctx.turn);
  return {
    id: ctx.id,
    object: 'chat.completion',
    created: ctx.created,
    model: ctx.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: reply.text ?? null,
          ...(calls.length ? { tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.args } })) } : {}),
        },
        logprobs: null,
        finish_reason: finishReasonOf(reply),
      },
    ],
    ...(usage ? { usage } : {}),
  };
}
