/**
 * What "Always Allow" on a command's approval card may write to patchpilot.policy.allow: the exact
 * command, and the prefix of its program (and subcommand) with a final `*`. Only plain commands
 * qualify: a pattern is matched against the parsed argv (policy/command/rules.ts), so a command
 * with shell operators, quotes, variables or glob characters has no pattern that means exactly it.
 * No `vscode` import (unit-tested in plain Node).
 */
const WORD = /^[A-Za-z0-9_@%+=:,./~-]+$/;

export function allowPatternsFor(command: string): string[] {
  const words = command.trim().split(/\s+/);
  if (!words[0] || words.some((w) => !WORD.test(w))) return [];
  // An allow rule names a program, never a path to one (rules.ts matches the name exactly).
  if (words[0].includes('/')) return [];
  const exact = words.join(' ');
  // A second word that reads like a subcommand ("npm test", "git status"), not a file or a flag.
  const sub = words[1] && /^[a-z][a-z0-9:_-]*$/.test(words[1]) ? words[1] : undefined;
  const prefix = `${words[0]}${sub ? ` ${sub}` : ''} *`;
  return [exact, prefix];
}
