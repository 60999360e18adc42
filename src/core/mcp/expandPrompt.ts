/**
 * A user's message that is a prompt command (`/mcp.<server>.<prompt> ...`, promptCommand.ts)
 * becomes the prompt's messages: the approved servers are reached, the command parsed, missing
 * required arguments asked through the host, and the prompt fetched and filtered. Shared by the
 * chat (chatController.ts) and the CLI (CliChat).
 */
import { errorMessage } from '../base/errors';
import type { McpManager } from './manager';
import { parsePromptCommand } from './promptCommand';
import type { McpPromptDefinition } from './clientFeatures';

/** Asks the user for one argument; undefined when they cancelled (or nobody can be asked). */
export type AskPromptArgument = (argument: McpPromptDefinition['arguments'][number], command: string) => Promise<string | undefined>;

export async function expandPromptCommand(
  manager: McpManager,
  text: string,
  ask: AskPromptArgument | undefined,
  signal: AbortSignal,
): Promise<{ text: string; command: string } | { error: string }> {
  await manager.inspect(signal);
  const parsed = parsePromptCommand(
    text,
    manager.catalog().map((c) => ({ server: c.server, prompts: c.prompts })),
  );
  if ('error' in parsed) return parsed;
  const command = `/mcp.${parsed.server}.${parsed.prompt.name}`;
  for (const a of parsed.missing) {
    const value = ask ? await ask(a, command) : undefined;
    if (value === undefined || (value.trim() === '' && a.required))
      return {
        error: `${command} needs ${parsed.missing.map((m) => m.name).join(', ')}: give ${parsed.missing.map((m) => `${m.name}=...`).join(' ')} after the command`,
      };
    parsed.args[a.name] = value;
  }
  try {
    const expanded = await manager.getPrompt(parsed.server, parsed.prompt.name, parsed.args, signal);
    return expanded.trim() ? { text: expanded, command } : { error: `${command} gave no messages` };
  } catch (err) {
    if (signal.aborted) throw err;
    return { error: `${command} failed: ${errorMessage(err)}` };
  }
}
