/**
 * One model request of the loop and what its reply means beyond text and tool calls: reasoning goes
 * to the viewers and the history; a prompt the server finds too long is compacted and sent once
 * more; a reply the loop cannot use as a final answer (reasoning only, empty, parts the client could
 * not read) is never a silent "finished": the user sees a notice and the model is told what to do.
 */
import type { AgentEvent, RunEndStatus, RunFailure } from '../../protocol/agentEvents';
import { errorMessage } from '../base/errors';
import { CancelledError } from '../base/cancellation';
import type { ContextManager, PreparedRequest } from '../context/contextManager';
import { ModelApiError } from '../llm/errors';
import type { ModelStreamEvent, ModelToolSpec, ModelTurn } from '../llm/types';
import type { UsageMeter } from '../llm/usageMeter';
import type { ChatModel } from '../ports';
import { REASONING_STEP } from '../history/types';
import type { RunRecorder } from './recorder';

export interface ModelStepInput {
  model: ChatModel;
  context: Pick<ContextManager, 'prepare' | 'shrinkAfterOverflow'>;
  tools: ModelToolSpec[];
  signal: AbortSignal;
  meter: UsageMeter;
  recorder: RunRecorder;
  emit: (e: AgentEvent) => void;
}

export type ModelStepResult = { turn: ModelTurn; prepared: PreparedRequest } | { end: { status: RunEndStatus; reason: string; failure?: RunFailure } };

/** Asks the model; a context-length refusal triggers one compaction and one more request. */
export async function askModel(input: ModelStepInput): Promise<ModelStepResult> {
  const { signal, emit, recorder } = input;
  for (let overflowRetried = false; ; overflowRetried = true) {
    const prepared = await input.context.prepare(signal);
    try {
      const turn = await input.model.streamChatWithRecovery({
        role: 'reasoning',
        messages: prepared.messages,
        tools: input.tools,
        signal,
        meter: input.meter,
        onEvent: (e) => forwardModelEvent(e, emit),
      });
      return { turn, prepared };
    } catch (err) {
      if (signal.aborted || (err instanceof ModelApiError && err.kind === 'cancelled')) throw new CancelledError();
      if (err instanceof ModelApiError && err.kind === 'interrupted') {
        // (test/integration/llm/interruptions.test.ts) the partial reply is void, nothing of it was executed. The client already asked once more
        // and the stream broke again: stop here, recorded as interrupted, rather than hammer a broken link.
        recorder.step({ role: 'assistant', text: `[interrupted] ${err.message}` });
        return { end: { status: 'interrupted', reason: err.message } };
      }
      if (err instanceof ModelApiError && err.kind === 'context-overflow' && !overflowRetried) {
        emit({
          type: 'model/notice',
          kind: 'context-overflow',
          message: `The server refused the prompt (about ${prepared.tokens} tokens) as too long for the model; the conversation is compacted and the step sent again. (${err.message})`,
        });
        if (await input.context.shrinkAfterOverflow(prepared.tokens, signal)) continue;
      }
      const failure = err instanceof ModelApiError ? { kind: err.kind, retryable: err.retryable } : { kind: 'internal', retryable: false };
      return { end: { status: 'failed', reason: `the model request failed: ${errorMessage(err)}`, failure } };
    }
  }
}

/** The reply's reasoning, kept in the history as its own step (shown by the timeline, left out of search). */
export function recordReasoning(turn: ModelTurn, recorder: RunRecorder): void {
  if (turn.reasoning) recorder.step({ role: 'system', tool: REASONING_STEP, text: turn.reasoning });
}

/** What to tell the model (and the user) about a reply; `finalUnusable` when a reply without tool calls cannot end the run. */
export interface ReplyNotes {
  /** Said to the model as a user message before its next step. */
  toModel?: string;
  /** The reply without tool calls is no answer: the loop asks again instead of finishing. */
  finalUnusable: boolean;
  /** The reply was stopped by the provider (a content filter): the run ends failed with this reason. */
  stoppedByProvider?: string;
}

export function notesOnReply(turn: ModelTurn, emit: (e: AgentEvent) => void): ReplyNotes {
  const hasCalls = turn.toolCalls.length > 0 || turn.invalidToolCalls.length > 0;
  const stopped = providerStop(turn, hasCalls, emit);
  if (stopped) return stopped;
  const unread = turn.unreadParts ?? [];
  if (turn.refusal) emit({ type: 'model/notice', kind: 'refusal', message: `The model refused: ${turn.refusal}` });
  if (unread.length) {
    // The viewers saw each part as it streamed (a notice per part); the model hears of all of them.
    const toModel = `[PatchPilot] Part of your last reply could not be read by the client and was not shown or run: ${unread.join('; ')}. Repeat what was lost as plain text, or as a tool call through the tools API.`;
    return { toModel, finalUnusable: !hasCalls };
  }
  if (hasCalls || turn.text.trim() || turn.refusal) return { finalUnusable: false };
  if (turn.reasoning) {
    emit({
      type: 'model/notice',
      kind: 'reasoning-only',
      message: 'The model replied with reasoning only: no answer and no tool call. It was asked to answer or act.',
    });
    return {
      toModel: '[PatchPilot] Your last reply contained only reasoning: no answer and no tool call. Now give your answer, or call a tool.',
      finalUnusable: true,
    };
  }
  emit({
    type: 'model/notice',
    kind: 'empty-reply',
    message: `The model sent an empty reply (finish reason "${turn.rawFinishReason || 'none'}"). It was asked to answer or act.`,
  });
  return { toModel: '[PatchPilot] Your last reply was empty. Give your answer, or call a tool.', finalUnusable: true };
}

/**
 * A reply the provider stopped is said plainly, never shown as a finished answer: a content filter
 * (`finish_reason: "content_filter"`, Anthropic `stop_reason: "refusal"`) ends the run; the output
 * token limit lets the model continue where it stopped (a cut tool call comes back as an invalid
 * call that says so: llm/cutReply.ts).
 */
function providerStop(turn: ModelTurn, hasCalls: boolean, emit: (e: AgentEvent) => void): ReplyNotes | undefined {
  const raw = turn.rawFinishReason || turn.finishReason;
  if (turn.finishReason === 'content_filter' && !hasCalls) {
    // The provider's own reason, when it gave one (Anthropic's stop_details.explanation).
    const why = turn.stopExplanation ? ` (the provider said: ${turn.stopExplanation})` : '';
    const message = `The provider stopped the reply (finish reason "${raw}"): ${raw === 'refusal' ? 'the model refused to continue' : 'its content filter blocked it'}${why}; what came before the stop is not an answer.`;
    emit({ type: 'model/notice', kind: 'content-filter', message });
    return {
      finalUnusable: false,
      stoppedByProvider: `the provider's ${raw === 'refusal' ? 'refusal' : 'content filter'} stopped the reply (finish reason "${raw}")${why}`,
    };
  }
  if (turn.finishReason !== 'length') return undefined;
  const what = hasCalls ? 'while a tool call was being written; that call was not run' : `after ${turn.text.length} characters`;
  emit({
    type: 'model/notice',
    kind: 'output-limit',
    message: `The output token limit cut the reply (finish reason "${raw}") ${what}. The model was asked to continue.`,
  });
  if (hasCalls) return { finalUnusable: false };
  return {
    toModel: `[PatchPilot] Your last reply was cut by the output token limit (finish reason "${raw}") ${what}. Continue from where it stopped, in shorter pieces: call a tool, or finish.`,
    finalUnusable: true,
  };
}

function forwardModelEvent(e: ModelStreamEvent, emit: (e: AgentEvent) => void): void {
  if (e.type === 'text-delta') emit({ type: 'text/delta', text: e.text });
  else if (e.type === 'reasoning-delta') emit({ type: 'reasoning/delta', text: e.text });
  else if (e.type === 'text-became-reasoning') emit({ type: 'reasoning/fromText', text: e.text });
  else if (e.type === 'notice') emit({ type: 'model/notice', kind: e.kind, message: e.message });
  else if (e.type === 'restart') emit({ type: 'text/restart', reason: e.reason });
  else if (e.type === 'retrying') emit({ type: 'model/retrying', attempt: e.attempt, delayMs: e.delayMs, reason: e.reason });
}
