/**
 * The chats to go back to, from the history store alone: each chat message that started a run is a
 * run; a follow-up run records where its earlier turns came from (step `context/earlier`: a
 * reference to the previous run, or a copy). A conversation is shown once, as its newest run (whose
 * end holds the whole conversation, core/session/resume.ts), titled by its first message.
 */
import type { HistoryStore, RunSummary, StepRecord } from '../history/types';
import { EARLIER_STEP } from '../orchestrator/contextSteps';

export interface ConversationSummary {
  /** The newest run: continuing the conversation continues from its end. */
  runId: string;
  /** The conversation's first message (or the run's goal when that is not known). */
  title: string;
  /** The newest message. */
  lastGoal: string;
  /** Runs of the conversation among the ones looked at. */
  runs: number;
  status: RunSummary['status'];
  startedAt: number;
  model: string | null;
}

/** How many recent runs are read to find the conversations (each read is one getRun). */
const RUNS_LOOKED_AT = 40;

export async function listConversations(store: Pick<HistoryStore, 'listRuns' | 'getRun'>, limit = 10): Promise<ConversationSummary[]> {
  const runs = (await store.listRuns({ limit: RUNS_LOOKED_AT })).filter((r) => !r.parentRunId);
  const earlier = new Map<string, { fromRun?: string; firstMessage?: string }>();
  for (const r of runs) {
    const detail = await store.getRun(r.id);
    earlier.set(r.id, earlierOf(detail?.steps ?? []));
  }
  const continued = new Set([...earlier.values()].map((e) => e.fromRun).filter((id): id is string => !!id));
  const byId = new Map(runs.map((r) => [r.id, r]));
  const out: ConversationSummary[] = [];
  for (const r of runs) {
    if (continued.has(r.id)) continue;
    let title = r.goal;
    let count = 1;
    let at: string | undefined = r.id;
    for (let hops = 0; at && hops < RUNS_LOOKED_AT; hops++) {
      const e = earlier.get(at);
      const prev: RunSummary | undefined = e?.fromRun ? byId.get(e.fromRun) : undefined;
      if (e?.firstMessage) title = e.firstMessage;
      else if (!e?.fromRun) title = byId.get(at)?.goal ?? title;
      if (!prev) break;
      count++;
      title = prev.goal;
      at = prev.id;
    }
    out.push({ runId: r.id, title: oneLine(title), lastGoal: oneLine(r.goal), runs: count, status: r.status, startedAt: r.startedAt, model: r.reasoningModel });
    if (out.length >= limit) break;
  }
  return out;
}

function earlierOf(steps: readonly StepRecord[]): { fromRun?: string; firstMessage?: string } {
  const step = steps.find((s) => s.role === 'system' && s.tool === EARLIER_STEP);
  const args = step?.arguments as unknown;
  if (args && typeof args === 'object' && !Array.isArray(args) && typeof (args as { fromRun?: unknown }).fromRun === 'string') {
    return { fromRun: (args as { fromRun: string }).fromRun };
  }
  if (Array.isArray(args)) {
    const first = args.find((m): m is { role: 'user'; content: string } => !!m && typeof m === 'object' && m.role === 'user' && typeof m.content === 'string');
    if (first) return { firstMessage: first.content };
  }
  return {};
}

function oneLine(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > 120 ? `${t.slice(0, 117)}...` : t;
}
