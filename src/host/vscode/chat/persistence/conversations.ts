import type { HistoryStore } from '../../../../core/history';
import type { ModelMessage } from '../../../../core/llm';
import { listConversations, loadSession, type ConversationSummary } from '../../../../core/session';
import type { ChatEntry, ConversationView } from '../../../../protocol/chat';

/** The conversations to go back to, for the chat's empty state and "Open Conversation". */
export async function recentConversations(store: HistoryStore | undefined, limit = 5): Promise<ConversationView[]> {
  if (!store) return [];
  return (await listConversations(store, limit)).map(toView);
}

function toView(c: ConversationSummary): ConversationView {
  return { runId: c.runId, title: c.title, when: c.startedAt, turns: c.runs, status: c.status, ...(c.model ? { model: c.model } : {}) };
}

/**
 * What continuing a conversation puts in the chat: a line that says where it comes from, then its
 * messages and the model's replies as they were (tool calls and their results stay in the history),
 * and the transcript the next message continues from (the newest run's end, core/session/resume.ts).
 */
export async function loadConversation(
  store: HistoryStore,
  runId: string,
): Promise<{ entries: ChatEntry[]; transcript: ModelMessage[]; runId: string; model?: string }> {
  const { run, transcript } = await loadSession(store, runId);
  const entries: ChatEntry[] = [
    {
      kind: 'notice',
      level: 'info',
      text: `Continued from the history (${new Date(run.startedAt).toLocaleString()}, ${run.status}): the model sees this conversation; each run's steps, patches and tests are in the history.`,
    },
  ];
  for (const m of transcript) {
    if (m.role === 'user' && m.content.trim()) entries.push({ kind: 'user', text: m.content });
    else if (m.role === 'assistant' && m.content?.trim()) entries.push({ kind: 'reply', text: m.content });
  }
  return { entries, transcript, runId: run.id, ...(run.reasoningModel ? { model: run.reasoningModel } : {}) };
}
