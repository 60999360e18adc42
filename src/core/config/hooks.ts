/**
 * `patchpilot.hooks`: the shape of Claude Code's settings.json `hooks` object, so a block copied
 * from there works unchanged:
 *   { "PreToolUse": [ { "matcher": "Bash|Edit", "hooks": [ { "type": "command", "command": "...", "timeout": 60 } ] } ] }
 * Parsed into a flat list of hook commands, each tagged with the scope it came from: a workspace's
 * hooks run only once the user approved them (src/core/hooks/hookApprovals.ts), the user's own at once.
 */

export const HOOK_EVENTS = ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'Stop', 'Notification'] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];

/** Seconds a hook command may take unless it says otherwise (Claude Code's default). */
export const DEFAULT_HOOK_TIMEOUT_SECONDS = 60;

export interface HookCommand {
  event: HookEventName;
  /** Tool names (or a notification's type) it runs for: `*`, empty or absent is every one (matcher.ts). */
  matcher?: string;
  /** A shell command line, run like run_command's (policy, sandbox, output limits). */
  command: string;
  timeoutSeconds: number;
  /** Where it was configured: a workspace's hooks need the user's approval first. */
  fromWorkspace: boolean;
}

/** Parses the setting's value from one settings layer; every problem at once, each naming the event and entry. */
export function parseHooks(value: unknown, fromWorkspace: boolean): { ok: true; value: HookCommand[] } | { ok: false; message: string } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return {
      ok: false,
      message: 'expected an object of events, e.g. {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh"}]}]}',
    };
  }
  const out: HookCommand[] = [];
  const problems: string[] = [];
  for (const [event, groups] of Object.entries(value as Record<string, unknown>)) {
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      problems.push(`unknown event "${event}" (known: ${HOOK_EVENTS.join(', ')})`);
      continue;
    }
    if (!Array.isArray(groups)) {
      problems.push(`"${event}" must be an array of {"matcher", "hooks"} entries`);
      continue;
    }
    groups.forEach((group, i) => {
      const parsed = parseGroup(event as HookEventName, group, fromWorkspace);
      if (typeof parsed === 'string') problems.push(`${event}[${i}]: ${parsed}`);
      else out.push(...parsed);
    });
  }
  return problems.length ? { ok: false, message: problems.join('; ') } : { ok: true, value: out };
}

function parseGroup(event: HookEventName, raw: unknown, fromWorkspace: boolean): HookCommand[] | string {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return 'expected an object with "hooks" (and optionally "matcher")';
  const o = raw as Record<string, unknown>;
  const unknown = Object.keys(o).filter((k) => k !== 'matcher' && k !== 'hooks');
  if (unknown.length) return `unknown field ${unknown.map((k) => `"${k}"`).join(', ')} (known: matcher, hooks)`;
  if (o.matcher !== undefined && typeof o.matcher !== 'string') return '"matcher" must be a string';
  const matcher = typeof o.matcher === 'string' ? o.matcher.trim() : undefined;
  const problem = matcher && matcher !== '*' ? matcherProblem(matcher) : undefined;
  if (problem) return `"matcher" ${problem}`;
  if (!Array.isArray(o.hooks) || o.hooks.length === 0) return '"hooks" must be a non-empty array of {"type": "command", "command": "..."}';
  const out: HookCommand[] = [];
  for (const [j, h] of o.hooks.entries()) {
    const parsed = parseCommand(h);
    if (typeof parsed === 'string') return `hooks[${j}]: ${parsed}`;
    out.push({ event, ...(matcher ? { matcher } : {}), ...parsed, fromWorkspace });
  }
  return out;
}

function parseCommand(raw: unknown): { command: string; timeoutSeconds: number } | string {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return 'expected {"type": "command", "command": "..."}';
  const h = raw as Record<string, unknown>;
  const unknown = Object.keys(h).filter((k) => !['type', 'command', 'timeout'].includes(k));
  if (unknown.length) return `unknown field ${unknown.map((k) => `"${k}"`).join(', ')} (known: type, command, timeout)`;
  if (h.type !== 'command') return `"type" must be "command" (the only kind PatchPilot runs), got ${JSON.stringify(h.type)}`;
  if (typeof h.command !== 'string' || !h.command.trim()) return '"command" must be a non-empty string';
  const t = h.timeout;
  if (t !== undefined && (typeof t !== 'number' || !Number.isFinite(t) || t <= 0)) return '"timeout" must be a positive number of seconds';
  return { command: h.command.trim(), timeoutSeconds: typeof t === 'number' ? t : DEFAULT_HOOK_TIMEOUT_SECONDS };
}

/** Why a matcher cannot be used (an invalid regular expression), or undefined. */
export function matcherProblem(matcher: string): string | undefined {
  try {
    new RegExp(matcher);
    return undefined;
  } catch (err) {
    return `is not a valid regular expression: ${(err as Error).message}`;
  }
}
