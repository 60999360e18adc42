/**
 * The JSON a hook reads on stdin, with Claude Code's field names so its scripts work unchanged:
 * every event has `session_id`, `cwd`, `permission_mode` and `hook_event_name`; then
 *   PreToolUse        tool_name, tool_input, tool_use_id
 *   PostToolUse       tool_name, tool_input, tool_use_id, tool_response ({ success, output })
 *   UserPromptSubmit  prompt
 *   Stop              stop_hook_active (true when the run already goes on because of a Stop hook)
 *   Notification      message, notification_type
 * PatchPilot has no transcript file, so `transcript_path` is absent; `session_id` is the run's id.
 */
import type { ApprovalMode } from '../config/settings';

/** What the event is about; each event reads its own part. */
export type HookSubject =
  | { event: 'PreToolUse'; tool: ToolSubject }
  | { event: 'PostToolUse'; tool: ToolSubject; response: { ok: boolean; output: string } }
  | { event: 'UserPromptSubmit'; prompt: string }
  | { event: 'Stop'; stopHookActive: boolean }
  | { event: 'Notification'; message: string; notificationType: string };

export interface ToolSubject {
  /** PatchPilot's name (`run_command`); a matcher also sees its Claude Code name (`Bash`). */
  name: string;
  input: Record<string, unknown>;
  callId: string;
}

export interface HookRunInfo {
  sessionId: string;
  /** The workspace root, where hooks run. */
  cwd: string;
  mode: ApprovalMode;
}

/** Claude Code's names for PatchPilot's approval modes. */
const PERMISSION_MODE: Record<ApprovalMode, string> = { ask: 'default', 'auto-edit': 'acceptEdits', auto: 'bypassPermissions', plan: 'plan' };

export function hookInput(session: HookRunInfo, subject: HookSubject): Record<string, unknown> {
  const common = { session_id: session.sessionId, cwd: session.cwd, permission_mode: PERMISSION_MODE[session.mode], hook_event_name: subject.event };
  switch (subject.event) {
    case 'PreToolUse':
      return { ...common, ...toolFields(subject.tool) };
    case 'PostToolUse':
      return { ...common, ...toolFields(subject.tool), tool_response: { success: subject.response.ok, output: subject.response.output } };
    case 'UserPromptSubmit':
      return { ...common, prompt: subject.prompt };
    case 'Stop':
      return { ...common, stop_hook_active: subject.stopHookActive };
    case 'Notification':
      return { ...common, message: subject.message, notification_type: subject.notificationType };
  }
}

function toolFields(t: ToolSubject): Record<string, unknown> {
  return { tool_name: t.name, tool_input: t.input, tool_use_id: t.callId };
}
