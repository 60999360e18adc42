/**
 * Tool calls whose arguments were not valid JSON: nothing runs. The conversation keeps '{}' in their
 * place (endpoints parse replayed arguments), so each error result quotes what the model sent, and
 * the viewers show the call as a failed one.
 */
import type { AgentEvent } from '../../protocol/agentEvents';
import type { Conversation } from '../context/conversation';
import type { InvalidToolCall } from '../llm/types';
import type { RunRecorder } from './recorder';

const SENT_MAX = 2_000;

export function answerInvalidCalls(
  invalid: readonly InvalidToolCall[],
  conversation: Conversation,
  recorder: RunRecorder,
  emit: (e: AgentEvent) => void,
): void {
  for (const c of invalid) {
    const sent = c.argumentsJson.length > SENT_MAX ? `${c.argumentsJson.slice(0, SENT_MAX)}...` : c.argumentsJson;
    const text = `error: the arguments of ${c.name} were not valid JSON (${c.problem}); nothing was run. You sent: ${sent}\nSend the call again with valid JSON arguments.`;
    emit({ type: 'tool/started', callId: c.id, name: c.name, args: { invalidArguments: sent } });
    emit({ type: 'tool/finished', callId: c.id, name: c.name, ok: false, output: text, durationMs: 0 });
    conversation.addToolResult(c.id, text);
    recorder.step({ role: 'tool', tool: c.name, result: text });
  }
}
