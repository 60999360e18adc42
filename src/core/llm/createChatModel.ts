/**
 * The one place that chooses the model client: a local program when `patchpilot.llm.command` is set
 * (it speaks chat completions on stdin/stdout), Anthropic's Messages API when
 * `patchpilot.llm.provider` is "anthropic", else any OpenAI-compatible endpoint.
 */
import type { ChatModel } from '../ports/chatModel';
import { AnthropicChatModel } from './anthropic/anthropicChatModel';
import type { ModelClientConfig } from './config';
import { ModelConfigError } from './errors';
import { createProgramFetch, splitCommandLine } from './localProgram/programFetch';
import { ModelClient, type ModelClientDeps } from './modelClient';

export interface ChatModelConfig extends Omit<ModelClientConfig, 'baseUrl' | 'fetch' | 'endpointLabel'> {
  /** Required for OpenAI-compatible endpoints; Anthropic defaults to its SDK's endpoint; a program needs none. */
  baseUrl?: string;
  /** "anthropic", or anything else / unset for OpenAI-compatible chat completions. */
  provider?: string;
  /** The model program's command line and where it was set (user settings, a CLI flag or variable). */
  command?: { line: string; origin: string; preflight?: () => string | undefined };
  /** Anthropic's extended thinking budget (tokens). */
  thinkingBudget?: number;
}

/** The request's `model` when the user named none: most programs serve one model and ignore it. */
export const DEFAULT_PROGRAM_MODEL = 'local-program';

/** The program is reached through a fetch of its own: this URL only gives the SDK something to build requests on. */
const PROGRAM_BASE_URL = 'http://model-program.localhost/v1';

export function createChatModel(config: ChatModelConfig, deps: ModelClientDeps = {}): ChatModel {
  const { provider, command, thinkingBudget, ...rest } = config;
  if (command) return programModel(rest, command, deps);
  if (provider === 'anthropic') return new AnthropicChatModel({ ...rest, thinkingBudget }, deps);
  return new ModelClient({ ...rest, baseUrl: rest.baseUrl ?? '' }, deps);
}

function programModel(
  rest: Omit<ChatModelConfig, 'provider' | 'command' | 'thinkingBudget'>,
  command: NonNullable<ChatModelConfig['command']>,
  deps: ModelClientDeps,
): ModelClient {
  let argv: string[];
  try {
    argv = splitCommandLine(command.line);
  } catch (err) {
    throw new ModelConfigError([`patchpilot.llm.command (${command.origin}): ${(err as Error).message}`]);
  }
  if (!argv.length) throw new ModelConfigError([`patchpilot.llm.command (${command.origin}) names no program`]);
  // Elide the middle, not the end: the arguments that tell two programs apart are last.
  const shown = command.line.length > 80 ? `${command.line.slice(0, 38)}...${command.line.slice(-39)}` : command.line;
  const label = `the model program \`${shown}\``;
  return new ModelClient(
    {
      ...rest,
      model: rest.model?.trim() || DEFAULT_PROGRAM_MODEL,
      baseUrl: PROGRAM_BASE_URL,
      // The program is the user's; the endpoint's key is not handed to it.
      apiKey: undefined,
      fastBaseUrl: undefined,
      fastApiKey: undefined,
      fetch: createProgramFetch({ argv, label, origin: command.origin, ...(command.preflight ? { preflight: command.preflight } : {}) }),
      endpointLabel: label,
      origins: { ...rest.origins, baseUrl: command.origin },
    },
    deps,
  );
}
