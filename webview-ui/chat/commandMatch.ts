import type { SlashCommandView } from '../../src/protocol/chat';

/** The commands that fit what is typed: only while the box holds a single `/` word; prefix matches first. */
export function matchingCommands(commands: readonly SlashCommandView[], value: string): SlashCommandView[] {
  if (!/^\/\S*$/.test(value)) return [];
  const typed = value.toLowerCase();
  const prefix = commands.filter((c) => c.command.toLowerCase().startsWith(typed));
  const inside = commands.filter((c) => !prefix.includes(c) && c.command.toLowerCase().includes(typed.slice(1)));
  return [...prefix, ...inside].slice(0, 50);
}
