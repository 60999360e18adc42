import type { PatchPilotSettings } from '../config/settings';
import { lookupByModelName, type ContextWindow } from '../llm/contextWindows';

/** Share of the context window the prompt may use by default; the rest is for the reply. */
export const DEFAULT_PROMPT_SHARE = 0.75;
/** Room always left for the reply, whatever the model's output limit (the prompt count is an estimate). */
const MIN_REPLY_SHARE = 0.1;
/** A configured budget never goes past this share of a known window (the reply needs room). */
const MAX_PROMPT_SHARE = 0.95;

export interface PromptBudget {
  tokens: number;
  /** Where the number came from, for messages: `patchpilot.context.maxTokensByModel`, ..., `75% of the 128000-token window`. */
  source: string;
}

/**
 * The prompt budget of `model`: `patchpilot.context.maxTokensByModel` (same name rules as the
 * context window table), else `patchpilot.context.maxTokens`, else a share of the model's window.
 * A configured number is capped below a known window, where the server would refuse the request.
 */
export function promptBudgetFor(settings: Pick<PatchPilotSettings, 'context'>, model: string, window: ContextWindow): PromptBudget {
  const byModel = lookupByModelName(settings.context.maxTokensByModel, model);
  const configured = byModel ?? settings.context.maxTokens;
  if (configured !== undefined) {
    const source = byModel !== undefined ? `patchpilot.context.maxTokensByModel (${model})` : 'patchpilot.context.maxTokens';
    const cap = Math.floor(window.tokens * MAX_PROMPT_SHARE);
    if (window.known && configured > cap) return { tokens: cap, source: `${source}, capped at 95% of the ${window.tokens}-token window` };
    return { tokens: configured, source };
  }
  if (window.maxOutputTokens !== undefined) {
    // The reply needs no more room than the model can write: a model with a short output limit keeps more of its window for the prompt.
    const reserve = Math.max(
      Math.ceil(window.tokens * MIN_REPLY_SHARE),
      Math.min(window.maxOutputTokens, Math.ceil(window.tokens * (1 - DEFAULT_PROMPT_SHARE))),
    );
    if (reserve < Math.ceil(window.tokens * (1 - DEFAULT_PROMPT_SHARE))) {
      return {
        tokens: window.tokens - reserve,
        source: `the ${window.tokens}-token window of ${model} less ${reserve} tokens for the reply (its output limit is ${window.maxOutputTokens})`,
      };
    }
  }
  return {
    tokens: Math.floor(window.tokens * DEFAULT_PROMPT_SHARE),
    source: `${DEFAULT_PROMPT_SHARE * 100}% of the ${window.tokens}-token window of ${model}`,
  };
}

/** Token counts for people: 41234 -> "41k", 6150 -> "6.2k", 950 -> "950". */
export function formatTokens(n: number): string {
  return n >= 10_000 ? `${Math.round(n / 1000)}k` : n >= 1_000 ? `${(n / 1000).toFixed(1).replace(/\.0$/, '')}k` : String(n);
}
