/**
 * The model providers people bring, as the setup flow offers them (VS Code: "PatchPilot: Select
 * Model"): where each one answers by default, which wire protocol it speaks, and whether it needs a
 * key. `patchpilot.llm.provider` holds one of these ids; the wire decides the client:
 * 'anthropic' the native Anthropic client, 'vscode' VS Code's own models (host only), anything else
 * (or no provider) the OpenAI-compatible client. Public base URLs are the providers' documented
 * endpoints; local servers listen on loopback at their default ports.
 */

export type ProviderWire = 'openai' | 'anthropic' | 'vscode';

export interface ProviderInfo {
  /** The value of `patchpilot.llm.provider`. */
  id: string;
  label: string;
  /** Prefilled in the setup flow; undefined: the user types one (custom URL) or none is needed (VS Code). */
  defaultBaseUrl?: string;
  wire: ProviderWire;
  /** False for servers on this machine and for VS Code's models: the flow asks for no key. */
  needsKey: boolean;
  /** The environment variable people know the provider's key by (the CLI reads it when this provider is chosen). */
  keyEnvVar?: string;
  /** One line shown under the name in the picker. */
  hint: string;
  /** Runs on this machine: no key, and the user's cloud key is never sent to it. */
  local?: boolean;
}

export const PROVIDERS: readonly ProviderInfo[] = [
  {
    id: 'openai',
    label: 'OpenAI',
    defaultBaseUrl: 'https://api.openai.com/v1',
    wire: 'openai',
    needsKey: true,
    keyEnvVar: 'OPENAI_API_KEY',
    hint: 'GPT and o-series models; a key from your OpenAI account',
  },
  {
    id: 'anthropic',
    label: 'Anthropic',
    defaultBaseUrl: 'https://api.anthropic.com',
    wire: 'anthropic',
    needsKey: true,
    keyEnvVar: 'ANTHROPIC_API_KEY',
    hint: 'Claude models through the native Messages API',
  },
  {
    id: 'google',
    label: 'Google Gemini',
    defaultBaseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai',
    wire: 'openai',
    needsKey: true,
    keyEnvVar: 'GEMINI_API_KEY',
    hint: "Gemini models through Google's OpenAI-compatible endpoint",
  },
  {
    id: 'deepseek',
    label: 'DeepSeek',
    defaultBaseUrl: 'https://api.deepseek.com/v1',
    wire: 'openai',
    needsKey: true,
    keyEnvVar: 'DEEPSEEK_API_KEY',
    hint: 'DeepSeek chat and reasoner models',
  },
  {
    id: 'mistral',
    label: 'Mistral',
    defaultBaseUrl: 'https://api.mistral.ai/v1',
    wire: 'openai',
    needsKey: true,
    keyEnvVar: 'MISTRAL_API_KEY',
    hint: 'Mistral, Codestral and Magistral models',
  },
  {
    id: 'groq',
    label: 'Groq',
    defaultBaseUrl: 'https://api.groq.com/openai/v1',
    wire: 'openai',
    needsKey: true,
    keyEnvVar: 'GROQ_API_KEY',
    hint: 'open models served fast (Llama, Qwen, gpt-oss)',
  },
  {
    id: 'openrouter',
    label: 'OpenRouter',
    defaultBaseUrl: 'https://openrouter.ai/api/v1',
    wire: 'openai',
    needsKey: true,
    keyEnvVar: 'OPENROUTER_API_KEY',
    hint: "many providers' models behind one key",
  },
  { id: 'xai', label: 'xAI', defaultBaseUrl: 'https://api.x.ai/v1', wire: 'openai', needsKey: true, keyEnvVar: 'XAI_API_KEY', hint: 'Grok models' },
  {
    id: 'ollama',
    label: 'Ollama',
    defaultBaseUrl: 'http://127.0.0.1:11434/v1',
    wire: 'openai',
    needsKey: false,
    local: true,
    hint: 'models on this machine (ollama serve); no key',
  },
  {
    id: 'lmstudio',
    label: 'LM Studio',
    defaultBaseUrl: 'http://127.0.0.1:1234/v1',
    wire: 'openai',
    needsKey: false,
    local: true,
    hint: "LM Studio's local server; no key",
  },
  {
    id: 'vllm',
    label: 'vLLM',
    defaultBaseUrl: 'http://127.0.0.1:8000/v1',
    wire: 'openai',
    needsKey: false,
    local: true,
    hint: 'vllm serve on this machine; no key',
  },
  {
    id: 'llamacpp',
    label: 'llama.cpp',
    defaultBaseUrl: 'http://127.0.0.1:8080/v1',
    wire: 'openai',
    needsKey: false,
    local: true,
    hint: 'llama-server on this machine; no key',
  },
  { id: 'vscode', label: 'VS Code models', wire: 'vscode', needsKey: false, hint: 'the models VS Code offers (GitHub Copilot and other extensions); no key' },
  { id: 'custom', label: 'Custom URL', wire: 'openai', needsKey: true, hint: 'any OpenAI-compatible endpoint (a gateway, Azure, Together, Fireworks...)' },
];

/** The catalog entry of a `patchpilot.llm.provider` value; undefined for an unset or unknown one. */
export function providerById(id: string | undefined): ProviderInfo | undefined {
  return id === undefined ? undefined : PROVIDERS.find((p) => p.id === id.trim().toLowerCase());
}

/** Which client serves this provider: unset and unknown values mean the OpenAI-compatible one. */
export function wireOf(provider: string | undefined): ProviderWire {
  return providerById(provider)?.wire ?? 'openai';
}
