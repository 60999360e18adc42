/**
 * Resuming a session after a restart, from the history store alone. A run records the context it
 * ended with (step `context/transcript`: the conversation without the system prompt, summaries
 * included), so the next message continues from exactly that. A run that never ended (the process
 * was killed) has no such step: its conversation is rebuilt from the chat's earlier turns (step
 * `context/earlier`) and its own user, assistant and tool steps, and the summarizer compacts it
 * at the first step if it no longer fits.
 */
import { UserError } from '../base/errors';
import { completePairs, withoutUserSummaries } from '../context/compaction';
import { MAX_TOOL_RESULT_CHARS } from '../context/contextManager';
import type { HistoryStore, RunSummary, StepRecord } from '../history/types';
import type { ModelMessage, ModelToolCall } from '../llm/types';
import { EARLIER_STEP, TRANSCRIPT_STEP } from '../orchestrator/contextSteps';
import { cutOutput } from '../base/outputCut';

export interface ResumedSession {
  run: RunSummary;
  transcript: ModelMessage[];
  /** False when the run never ended and its conversation was rebuilt from its steps. */
  recorded: boolean;
}

/** `last` (the newest run), a run id, or a unique prefix of one. */
export async function findRun(store: Pick<HistoryStore, 'listRuns'>, ref: string): Promise<RunSummary> {
  const wanted = ref.trim();
  if (!wanted) throw new UserError('no run named: give a run id or "last"');
  const runs = await store.listRuns({ limit: 10_000 });
  if (wanted === 'last') {
    if (!runs[0]) throw new UserError('no runs recorded in this workspace');
    return runs[0];
  }
  const exact = runs.find((r) => r.id === wanted);
  if (exact) return exact;
  // A unique prefix is enough, as with git hashes.
  const matches = runs.filter((r) => r.id.startsWith(wanted));
  if (matches.length > 1) throw new UserError(`run id prefix '${wanted}' is ambiguous (${matches.length} runs)`);
  if (!matches[0]) throw new UserError(`no run with id ${wanted}`);
  return matches[0];
}

/** Runs followed back through `context/earlier` references to rebuild a killed run. */
const MAX_REFERENCE_DEPTH = 20;

type Store = Pick<HistoryStore, 'listRuns' | 'getRun'>;

export async function loadSession(store: Store, ref: string): Promise<ResumedSession> {
  const run = await findRun(store, ref);
  const { transcript, recorded } = await transcriptOfRun(store, run.id, 0);
  return { run, transcript, recorded };
}

async function transcriptOfRun(store: Store, runId: string, depth: number): Promise<{ transcript: ModelMessage[]; recorded: boolean }> {
  const detail = await store.getRun(runId);
  if (!detail) throw new UserError(`no run with id ${runId}`);
  const recorded = [...detail.steps].reverse().find((s) => s.role === 'system' && s.tool === TRANSCRIPT_STEP);
  const saved = recorded ? asMessages(recorded.arguments) : undefined;
  if (saved) return { transcript: completePairs(saved), recorded: true };
  // Killed before its end: its earlier turns (a copy, or the previous run's transcript by reference), then its own steps.
  const step = detail.steps.find((s) => s.role === 'system' && s.tool === EARLIER_STEP);
  const from = (step?.arguments as { fromRun?: unknown } | null | undefined)?.fromRun;
  let earlier: ModelMessage[] = [];
  if (typeof from === 'string' && depth < MAX_REFERENCE_DEPTH)
    earlier = await transcriptOfRun(store, from, depth + 1).then(
      (t) => t.transcript,
      () => [],
    );
  else if (step) earlier = asMessages(step.arguments) ?? [];
  return { transcript: transcriptFromSteps(detail.steps, earlier), recorded: false };
}

/** The conversation of a run rebuilt from its steps (in the order they were recorded), after `earlier`. */
export function transcriptFromSteps(steps: readonly StepRecord[], earlier?: readonly ModelMessage[]): ModelMessage[] {
  const copied = steps.find((s) => s.role === 'system' && s.tool === EARLIER_STEP);
  const messages: ModelMessage[] = [...(earlier ?? (copied ? (asMessages(copied.arguments) ?? []) : []))];
  let open: string[] = [];
  for (const s of steps) {
    if (s.role === 'user' && s.text) messages.push({ role: 'user', content: s.text });
    else if (s.role === 'assistant' && !s.text?.startsWith('[interrupted]')) {
      const toolCalls = callsOf(s.arguments);
      messages.push({ role: 'assistant', content: s.text, ...(toolCalls.length ? { toolCalls } : {}) });
      open = toolCalls.map((c) => c.id);
    } else if (s.role === 'tool') {
      // Tool steps follow their assistant step in call order.
      const id = open.shift();
      if (id) messages.push({ role: 'tool', toolCallId: id, content: cutOutput(s.result ?? '', MAX_TOOL_RESULT_CHARS, { shape: 'headTail' }).text });
    }
  }
  return completePairs(messages);
}

function callsOf(value: unknown): ModelToolCall[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((c: unknown) => {
    const call = c as { id?: unknown; name?: unknown; arguments?: unknown; invalid?: unknown };
    if (typeof call?.id !== 'string' || typeof call.name !== 'string') return [];
    return [{ id: call.id, name: call.name, argumentsJson: call.invalid !== undefined || typeof call.arguments !== 'string' ? '{}' : call.arguments }];
  });
}

/** Stored messages, checked for shape; undefined when they are not a message list. */
function asMessages(value: unknown): ModelMessage[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: ModelMessage[] = [];
  for (const m of value as Record<string, unknown>[]) {
    // A summary recorded by an older version as a user message comes back as what it is: a note, not the user's words.
    if (m?.role === 'user' && typeof m.content === 'string')
      out.push(...withoutUserSummaries([{ role: 'user', content: m.content, ...(m.summary === true ? { summary: true } : {}) } as ModelMessage]));
    else if (m?.role === 'assistant' && (typeof m.content === 'string' || m.content === null)) {
      const toolCalls = callsOf(
        (m.toolCalls as unknown[] | undefined)?.map((c) => ({ ...(c as object), arguments: (c as { argumentsJson?: unknown }).argumentsJson })),
      );
      const summary = m.summary === true && !toolCalls.length && typeof m.content === 'string';
      out.push({ role: 'assistant', content: m.content as string | null, ...(toolCalls.length ? { toolCalls } : {}), ...(summary ? { summary: true } : {}) });
    } else if (m?.role === 'tool' && typeof m.toolCallId === 'string' && typeof m.content === 'string')
      out.push({ role: 'tool', toolCallId: m.toolCallId, content: m.content });
    else return undefined;
  }
  return out;
}
