import type { SlashCommandView } from '../../src/protocol/chat';

/** The commands that fit what is typed: only while the box holds a single `/` word; prefix matches first. */
export function matchingCommands(commands: readonly SlashCommandView[], value: string): SlashCommandView[] {
  if (!/^\/\S*$/.test(value)) return [];
  const typed = value.toLowerCase();
  const prefix = commands.filter((c) => c.command.toLowerCase().startsWith(typed));
  const inside = commands.filter((c) => !prefix.includes(c) && c.command.toLowerCase().includes(typed.slice(1)));
  return [...prefix, ...inside].slice(0, 50);
}

/** Resources to attach (`@server:uri`) that fit the `@` word being typed at the end of the box; where that word starts. */
export function matchingMentions(mentions: readonly SlashCommandView[], value: string): { items: SlashCommandView[]; from: number } {
  const m = /(^|\s)(@\S*)$/.exec(value);
  if (!m) return { items: [], from: -1 };
  const typed = m[2]!.toLowerCase();
  const prefix = mentions.filter((c) => c.command.toLowerCase().startsWith(typed));
  const inside = mentions.filter((c) => !prefix.includes(c) && c.command.toLowerCase().includes(typed.slice(1)));
  return { items: [...prefix, ...inside].slice(0, 50), from: value.length - m[2]!.length };
}
