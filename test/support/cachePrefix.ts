/**
 * How much of each request a provider's prompt cache could serve: the longest common prefix of
 * consecutive requests' serialized messages, in tokens by the project's estimate
 * (src/core/llm/contextWindows.ts). A rewrite of an early message (a compaction, a re-cut tool
 * result, a timestamp) ends the prefix there; appends keep it. Used by the end-to-end window test
 * and by `npm run bench:agent`.
 */
import { estimateTokens } from '../../src/core/llm/contextWindows';

export interface PrefixReuse {
  requests: number;
  /** Prompt tokens of all requests (messages only). */
  promptTokens: number;
  /** Of those, tokens in a prefix the previous request had sent too. */
  reusableTokens: number;
  /** reusableTokens / promptTokens. */
  share: number;
  /** Per request: its tokens and how many of them were a cached prefix. */
  perRequest: { tokens: number; reusable: number }[];
}

function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** `requests`: each request's `messages` as sent on the wire, in order (the agent's requests only). */
export function cachePrefixReuse(requests: readonly unknown[]): PrefixReuse {
  const perRequest: PrefixReuse['perRequest'] = [];
  let previous: string | undefined;
  for (const messages of requests) {
    const text = JSON.stringify(messages);
    const tokens = estimateTokens(text);
    const reusable = previous === undefined ? 0 : estimateTokens(text.slice(0, commonPrefixLength(previous, text)));
    perRequest.push({ tokens, reusable });
    previous = text;
  }
  const promptTokens = perRequest.reduce((n, r) => n + r.tokens, 0);
  const reusableTokens = perRequest.reduce((n, r) => n + r.reusable, 0);
  return { requests: perRequest.length, promptTokens, reusableTokens, share: promptTokens ? reusableTokens / promptTokens : 0, perRequest };
}
