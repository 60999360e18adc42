/**
 * A finished reply's usage, the same for every client: what the server reported, else an estimate
 * from what was sent and received; priced, told to the viewers and added to the run's meter.
 */
import { estimatePromptTokens, estimateTokens } from './contextWindows';
import { costOf, type ModelPrice } from './prices';
import type { ChatRequest, ModelStreamEvent, ModelToolCall, ModelTurn, ModelUsage } from './types';

/** The turn with how long it took, retries and recovery included (telemetry's chat span and duration metric). */
export async function timedTurn(turn: Promise<ModelTurn>): Promise<ModelTurn> {
  const started = Date.now();
  const done = await turn;
  return { ...done, durationMs: Date.now() - started };
}

export interface ReplyOutput {
  /** Everything the model wrote: text, reasoning, a refusal. */
  text: string;
  calls: readonly Pick<ModelToolCall, 'name' | 'argumentsJson'>[];
}

/**
 * Before each attempt (retries too): the run's meter hears the request's estimated prompt and price,
 * and its budget may refuse to let it go out (the guard stops the run and throws).
 */
export function admitRequest(req: ChatRequest, price: ModelPrice | undefined): void {
  if (!req.meter) return;
  req.meter.admit({ role: req.role, promptTokens: estimatePromptTokens(req.messages, req.tools), price });
}

export function settleUsage(
  req: ChatRequest,
  model: string,
  reported: ModelUsage | undefined,
  output: ReplyOutput,
  price: ModelPrice | undefined,
  emit: (e: ModelStreamEvent) => void,
): { usage: ModelUsage; cost: number | undefined } {
  const usage: ModelUsage = reported ?? {
    promptTokens: estimatePromptTokens(req.messages, req.tools),
    completionTokens: estimateTokens(output.text + output.calls.map((c) => c.name + c.argumentsJson).join('')),
    estimated: true,
  };
  const cost = costOf(usage, price);
  emit({ type: 'usage', usage, cost });
  req.meter?.record({ role: req.role, model, usage, cost });
  return { usage, cost };
}
