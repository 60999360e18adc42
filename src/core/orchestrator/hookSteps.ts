/**
 * Where the run meets its hooks (patchpilot.hooks, src/core/hooks): before and after each tool call,
 * on the goal, when the model ends the run, and when the user is asked something. Each hook that ran
 * is a `hook/ran` event and a step of the run's history; an error is a warning too (shown, never
 * blocking). Plan mode runs no hook (it runs nothing); subagents have their tools' hooks only.
 */
import { errorMessage } from '../base/errors';
import type { HookReport, HookSubject, HookVerdict } from '../hooks';
import { HOOK_STEP } from '../history/types';
import type { ModelToolCall } from '../llm/types';
import type { Tool, ToolEvent, ToolResult } from '../tools/types';
import { asJson } from './recorder';
import type { RunState } from './runState';

/** Stop hooks may send the run on this many times; after that the run ends as the model ended it (no endless loop). */
export const MAX_STOP_CONTINUATIONS = 3;

/** At a top-level run's start: the workspace hooks not approved yet are asked about (their events go to the run). */
export async function askHookApprovals(run: RunState, onToolEvent: (e: ToolEvent) => void): Promise<void> {
  const hooks = active(run);
  if (!hooks || run.options.subagent) return;
  await hooks.askApprovals({
    approver: run.deps.approver,
    signal: run.signal,
    asked: (request, answer) =>
      onToolEvent(
        answer
          ? { type: 'approval-answered', kind: request.kind, approved: answer.approved, ...(answer.unattended ? { unattended: true } : {}) }
          : { type: 'approval-needed', request },
      ),
    warn: run.warn,
  });
}

/** PreToolUse: the reason a hook blocked the call (it then does not run), or undefined. */
export async function hookBeforeTool(
  run: RunState,
  tool: Tool<any> | undefined,
  call: ModelToolCall,
  args: Record<string, unknown>,
): Promise<string | undefined> {
  const v = await fire(run, { event: 'PreToolUse', tool: { name: call.name, input: args, callId: call.id } }, toolNames(tool, call));
  return v.kind === 'block' ? v.reason : undefined;
}

/** PostToolUse: the result, with a blocking hook's reason appended for the model. */
export async function hookAfterTool(
  run: RunState,
  tool: Tool<any> | undefined,
  call: ModelToolCall,
  args: Record<string, unknown>,
  result: ToolResult,
): Promise<ToolResult> {
  const subject: HookSubject = {
    event: 'PostToolUse',
    tool: { name: call.name, input: args, callId: call.id },
    response: { ok: result.ok, output: result.output },
  };
  const v = await fire(run, subject, toolNames(tool, call));
  return v.kind === 'block' ? { ...result, output: `${result.output}\n\nA PostToolUse hook says: ${v.reason}` } : result;
}

/** UserPromptSubmit on the goal of a top-level run: the reason the prompt was refused, or undefined. */
export async function hookOnPrompt(run: RunState): Promise<string | undefined> {
  if (run.options.subagent) return undefined;
  const v = await fire(run, { event: 'UserPromptSubmit', prompt: run.goal }, []);
  return v.kind === 'block' ? v.reason : undefined;
}

/** Stop, when the model ends a top-level run: what to tell the model when a hook sends the run on (at most MAX_STOP_CONTINUATIONS times). */
export async function hookOnStop(run: RunState): Promise<string | undefined> {
  if (run.options.subagent || run.stopContinuations >= MAX_STOP_CONTINUATIONS) return undefined;
  const v = await fire(run, { event: 'Stop', stopHookActive: run.stopContinuations > 0 }, []);
  if (v.kind !== 'block') return undefined;
  run.stopContinuations++;
  return `A Stop hook did not let the run end yet: ${v.reason}`;
}

/** Notification (the user is asked something): not awaited, never blocking; a failure is a warning. */
export function notifyHooks(run: RunState, message: string, notificationType: string): void {
  const done = fire(run, { event: 'Notification', message, notificationType }, [notificationType]).then(
    () => undefined,
    (err: unknown) => {
      if (!run.signal.aborted) run.warn(`a Notification hook failed: ${errorMessage(err)}`);
    },
  );
  run.backgroundHooks.add(done);
  void done.finally(() => run.backgroundHooks.delete(done));
}

/** At the run's very end: the Notification hooks still running finish (each within its timeout), so none outlives the run. */
export async function settleNotifications(run: RunState): Promise<void> {
  await Promise.all([...run.backgroundHooks]);
}

function active(run: RunState): RunState['deps']['hooks'] {
  const hooks = run.deps.hooks;
  return hooks && hooks.configured.length > 0 && run.deps.settings.approval.mode !== 'plan' ? hooks : undefined;
}

async function fire(run: RunState, subject: HookSubject, names: readonly string[]): Promise<HookVerdict> {
  const hooks = active(run);
  if (!hooks) return { kind: 'ok' };
  const session = { sessionId: run.checkpointRunId, mode: run.deps.settings.approval.mode };
  return hooks.fire(session, subject, names, run.signal, (r) => reportHook(run, r));
}

/** The tool's own name and the Claude Code name it declares. */
function toolNames(tool: Tool<any> | undefined, call: ModelToolCall): string[] {
  return [call.name, ...(tool?.loop?.hookName ? [tool.loop.hookName] : [])];
}

function reportHook(run: RunState, r: HookReport): void {
  run.emit({ type: 'hook/ran', ...r });
  const verdict = r.outcome === 'ok' ? 'ok' : `${r.outcome}: ${r.reason ?? ''}`;
  run.recorder.step({
    role: 'system',
    tool: HOOK_STEP,
    text: `${r.event} hook ${r.command}${r.tool ? ` on ${r.tool}` : ''}: ${verdict}`,
    arguments: asJson(r),
    durationMs: r.durationMs,
  });
  if (r.outcome === 'error' || r.outcome === 'refused')
    run.warn(`${r.event} hook "${r.command}" ${r.outcome === 'refused' ? 'was refused' : 'failed'}: ${r.reason}`);
}
