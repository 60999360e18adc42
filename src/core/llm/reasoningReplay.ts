/**
 * Whether the model's earlier reasoning goes back to the provider, decided per model family in this
 * one table: by the model id, with or without a router's vendor prefix (`deepseek/deepseek-reasoner`,
 * `moonshotai/kimi-k2-thinking` behind OpenRouter or a local server keep their chain of thought), or
 * by the provider's own host; never to a host known to reject unknown message fields.
 *
 * - DeepSeek (thinking mode, `deepseek-reasoner` and the V3.x models with thinking): within one user
 *   turn's tool loop the assistant messages must carry their `reasoning_content`, or the model loses
 *   its chain of thought between tool calls (DeepSeek's thinking-mode tool-call guide). Reasoning of
 *   earlier turns must NOT be sent: DeepSeek answers 400 for `reasoning_content` in the input of
 *   deepseek-reasoner, and its guide says to drop earlier turns' reasoning.
 * - Moonshot Kimi thinking models (`kimi-k2-thinking`, `kimi-k2.5`): the same rule; Moonshot's guide
 *   asks to keep `reasoning_content` on the assistant messages of a multi-step tool call.
 * - Everyone else (OpenAI, Azure, Mistral, Groq, Together, Fireworks, OpenRouter, xAI, local servers):
 *   never. OpenAI and Groq reject unknown message fields with 400, Mistral validates messages
 *   strictly, the others ignore it at best; and a model that gets no reasoning back simply
 *   reasons afresh, which is always safe.
 */

export type ReasoningReplay = 'current-tool-loop' | 'never';

interface Rule {
  provider: string;
  host?: RegExp;
  /** Model ids only the provider's own API uses (no vendor prefix). */
  model?: RegExp;
  /** On the provider's host, only these models (absent: every model). */
  hostModels?: RegExp;
  replay: ReasoningReplay;
}

const RULES: readonly Rule[] = [
  { provider: 'DeepSeek', host: /(^|\.)deepseek\.com$/i, model: /^deepseek-(reasoner|chat|v\d)/i, replay: 'current-tool-loop' },
  {
    provider: 'Moonshot Kimi',
    host: /(^|\.)moonshot\.(ai|cn)$/i,
    model: /^kimi-k2(\.\d+|-thinking)/i,
    hostModels: /thinking|k2\.\d/i,
    replay: 'current-tool-loop',
  },
];

/** Hosts that answer 400 to a message field they do not know (`reasoning_content`), whatever the model. */
const REJECTS_UNKNOWN_FIELDS = /(^|\.)(openai\.com|openai\.azure\.com|groq\.com|mistral\.ai)$/i;

export function reasoningReplayFor(baseUrl: string, model: string): ReasoningReplay {
  let host = '';
  try {
    host = new URL(baseUrl).hostname;
  } catch {
    /* a bad URL is reported elsewhere; decide by the model alone */
  }
  if (REJECTS_UNKNOWN_FIELDS.test(host)) return 'never';
  // The model's own name: a router's or a local server's vendor prefix (`moonshotai/`, `deepseek-ai/`) and an Ollama tag left out.
  const bare = model.slice(model.lastIndexOf('/') + 1);
  for (const rule of RULES) {
    if (rule.host?.test(host) && (!rule.hostModels || rule.hostModels.test(bare))) return rule.replay;
    if (rule.model?.test(bare)) return rule.replay;
  }
  return 'never';
}
