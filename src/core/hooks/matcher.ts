/**
 * Which hooks run for a tool call (or a notification): Claude Code's matcher rules. `*`, an empty
 * or absent matcher: every one. Otherwise a regular expression over the whole name, so `Bash` is
 * exactly Bash (not BashOutput), `Bash|Edit` either, `mcp__github__.*` every tool of a server.
 * A tool is matched by its PatchPilot name (`run_command`) and by the Claude Code name it declares
 * (`Bash`, Tool.loop.hookName), so a matcher copied from Claude Code works unchanged.
 */
import type { HookCommand, HookEventName } from '../config/hooks';

export function matches(matcher: string | undefined, names: readonly string[]): boolean {
  const m = matcher?.trim();
  if (!m || m === '*') return true;
  let re: RegExp;
  try {
    re = new RegExp(`^(?:${m})$`);
  } catch {
    return false; // the settings' parser refuses such a matcher; never a reason to run a hook
  }
  return names.some((n) => re.test(n));
}

/** The hooks of `event` whose matcher takes one of `names` (the tool's names; none for events without a subject). */
export function hooksFor(hooks: readonly HookCommand[], event: HookEventName, names: readonly string[] = []): HookCommand[] {
  return hooks.filter((h) => h.event === event && (names.length === 0 || matches(h.matcher, names)));
}
