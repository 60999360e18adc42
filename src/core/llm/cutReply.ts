/**
 * A reply the output token limit cut (`finish_reason: "length"`, Anthropic `stop_reason:
 * "max_tokens"`): the tool call being written when it stopped is not a call the model finished,
 * even when its JSON happens to parse (`{}` before the first argument). It becomes an invalid call
 * that says why, so the model hears it was cut and can send it again, smaller; never run, never
 * lost as "the model replied without a tool call".
 */
import type { FinishReason, InvalidToolCall, ModelToolCall } from './types';

export const CUT_CALL_PROBLEM =
  'the reply was cut by the output token limit while this tool call was being written, so its arguments are incomplete and it was not run: send it again, smaller (split a large patch or file into several calls)';

export function withCutCallMarked(
  finishReason: FinishReason,
  calls: { valid: ModelToolCall[]; invalid: InvalidToolCall[] },
  lastStartedId: string | undefined,
): { valid: ModelToolCall[]; invalid: InvalidToolCall[] } {
  if (finishReason !== 'length' || lastStartedId === undefined) return calls;
  const cut = calls.valid.find((c) => c.id === lastStartedId);
  const invalid = calls.invalid.map((c) => (c.id === lastStartedId ? { ...c, problem: CUT_CALL_PROBLEM } : c));
  if (!cut) return { valid: calls.valid, invalid };
  return { valid: calls.valid.filter((c) => c !== cut), invalid: [...invalid, { ...cut, problem: CUT_CALL_PROBLEM }] };
}
