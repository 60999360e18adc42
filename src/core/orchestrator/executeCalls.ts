import type { ModelToolCall } from '../llm/types';

/**
 * Runs a reply's tool calls: consecutive read-only calls together, anything that writes or runs
 * alone and in order. Results come back in the order of the calls, so each call keeps its result.
 */
export async function executeCalls<R>(
  calls: readonly ModelToolCall[],
  isReadOnly: (call: ModelToolCall) => boolean,
  run: (call: ModelToolCall) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  let i = 0;
  while (i < calls.length) {
    let j = i;
    while (j < calls.length && isReadOnly(calls[j]!)) j++;
    if (j > i) {
      results.push(...(await Promise.all(calls.slice(i, j).map(run))));
      i = j;
    } else {
      results.push(await run(calls[i]!));
      i++;
    }
  }
  return results;
}
