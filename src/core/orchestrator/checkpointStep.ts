/**
 * A checkpoint around one tool call: the tool declares what it may change (ToolLoopTraits.changesFiles),
 * the run's checkpoint store keeps it before the call and records what changed after. The loop never
 * names a tool: a tool without the declaration that is not read-only counts as changing anything.
 */
import { errorMessage } from '../base/errors';
import type { CheckpointScope, OpenCapture } from '../checkpoint/types';
import type { ModelToolCall } from '../llm/types';
import type { Tool } from '../tools/types';
import type { RunState } from './runState';

export function checkpointScope(tool: Tool<any> | undefined, call: ModelToolCall): CheckpointScope {
  if (!tool) return 'none';
  if (!tool.loop?.changesFiles) return tool.readOnly ? 'none' : 'workspace';
  let args: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(call.argumentsJson || '{}');
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) args = parsed as Record<string, unknown>;
  } catch {
    return 'none'; // the registry refuses it before anything runs
  }
  return tool.loop.changesFiles(args);
}

/** Runs `body` between the checkpoint's begin and end; a checkpoint that fails is a warning, never a failed step. */
export async function withCheckpoint<R>(run: RunState, tool: Tool<any> | undefined, call: ModelToolCall, body: () => Promise<R>): Promise<R> {
  const checkpoints = run.deps.checkpoints;
  const scope = checkpoints ? checkpointScope(tool, call) : 'none';
  if (!checkpoints || scope === 'none') return body();
  const runId = run.checkpointRunId;
  const step = run.steps;
  let open: OpenCapture | undefined;
  try {
    open = await checkpoints.begin({
      runId,
      step,
      tool: call.name,
      scope,
      signal: run.signal,
      progress: (done, total) => run.emit({ type: 'checkpoint/progress', callId: call.id, done, total }),
      notice: (message) => run.warn(message),
    });
  } catch (err) {
    run.warn(`no checkpoint was taken before ${call.name} (step ${step}): ${errorMessage(err)}; a restore cannot undo this step`);
  }
  try {
    return await body();
  } finally {
    if (open) {
      try {
        const record = await open.end();
        if (record) run.emit({ type: 'checkpoint/saved', runId, step, callId: call.id, tool: call.name, paths: record.changes.map((c) => c.path) });
      } catch (err) {
        run.warn(`the checkpoint of ${call.name} (step ${step}) was not saved: ${errorMessage(err)}; a restore cannot undo this step`);
      }
    }
  }
}
