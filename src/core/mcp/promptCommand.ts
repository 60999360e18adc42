/**
 * MCP prompts as slash commands: `/mcp.<server>.<prompt> name=value name2="two words"` (a prompt
 * with a single argument also takes the rest of the line as it is). The prompt's messages become
 * the user's turn. Required arguments not given are asked through the host (the chat's input box,
 * the terminal); with nobody to ask, the command is refused naming them. Hosts: chatController.ts
 * (the chat), the CLI's CliChat; test/integration/mcp/promptsResources.test.ts.
 */
import type { McpPromptDefinition } from './clientFeatures';

export const PROMPT_COMMAND_PREFIX = '/mcp.';

export interface PromptCatalog {
  server: string;
  prompts: readonly McpPromptDefinition[];
}

export interface PromptCommand {
  server: string;
  prompt: McpPromptDefinition;
  args: Record<string, string>;
  /** Required arguments not given. */
  missing: McpPromptDefinition['arguments'];
}

export function promptCommandName(server: string, prompt: string): string {
  return `${PROMPT_COMMAND_PREFIX}${server}.${prompt}`;
}

export function isPromptCommand(text: string): boolean {
  return text.trimStart().startsWith(PROMPT_COMMAND_PREFIX);
}

/** The command in `text` against the servers' prompts: what to get, or why it cannot be. */
export function parsePromptCommand(text: string, catalog: readonly PromptCatalog[]): PromptCommand | { error: string } {
  const line = text.trim();
  const head = line.split(/\s/, 1)[0]!;
  const rest = line.slice(head.length).trim();
  // Server names may hold dots: the longest configured name that fits wins.
  const hit = catalog.filter((c) => head.startsWith(`${PROMPT_COMMAND_PREFIX}${c.server}.`)).sort((a, b) => b.server.length - a.server.length)[0];
  if (!hit) return { error: `no connected MCP server for ${head} (servers with prompts: ${catalog.map((c) => c.server).join(', ') || 'none'})` };
  const name = head.slice(PROMPT_COMMAND_PREFIX.length + hit.server.length + 1);
  const prompt = hit.prompts.find((p) => p.name === name);
  if (!prompt) return { error: `MCP server "${hit.server}" has no prompt "${name}" (it has: ${hit.prompts.map((p) => p.name).join(', ') || 'none'})` };
  const parsed = parseArguments(rest, prompt);
  if ('error' in parsed) return parsed;
  const missing = prompt.arguments.filter((a) => a.required && !(a.name in parsed.args));
  return { server: hit.server, prompt, args: parsed.args, missing };
}

/** `a=1 b="two words" c='x'`; a prompt with one argument takes free text as it is. */
export function parseArguments(rest: string, prompt: McpPromptDefinition): { args: Record<string, string> } | { error: string } {
  if (!rest) return { args: {} };
  const pairs = [...rest.matchAll(/([A-Za-z_][\w.-]*)=("([^"]*)"|'([^']*)'|(\S*))/g)];
  const covered = pairs.reduce((n, m) => n + m[0].length, 0);
  const leftover = rest.replace(/([A-Za-z_][\w.-]*)=("([^"]*)"|'([^']*)'|(\S*))/g, '').trim();
  if (pairs.length === 0 || (leftover && covered === 0)) {
    if (prompt.arguments.length === 1) return { args: { [prompt.arguments[0]!.name]: rest } };
    return { error: `arguments go as name=value (${prompt.arguments.map((a) => `${a.name}${a.required ? '' : '?'}`).join(' ') || 'this prompt takes none'})` };
  }
  if (leftover) return { error: `cannot read "${leftover}": arguments go as name=value, quoted when they hold spaces` };
  const known = new Set(prompt.arguments.map((a) => a.name));
  const args: Record<string, string> = {};
  for (const m of pairs) {
    const key = m[1]!;
    if (!known.has(key)) return { error: `prompt "${prompt.name}" has no argument "${key}" (it has: ${[...known].join(', ') || 'none'})` };
    args[key] = m[3] ?? m[4] ?? m[5] ?? '';
  }
  return { args };
}
