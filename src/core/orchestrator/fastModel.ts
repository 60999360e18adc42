import { errorMessage } from '../base/errors';
import type { CompleteRequest } from '../llm/modelClient';
import type { ModelTurn } from '../llm/types';
import type { UsageMeter } from '../llm/usageMeter';
import { briefArgs } from '../base/truncate';

/** One fast request may not hold up the end of a run (or a step) longer than this. */
export const FAST_TIMEOUT_MS = 30_000;
/** Characters of each tool result shown to the fast model: enough for a fact, cheap to send. */
const RESULT_EXCERPT_CHARS = 1_200;
const MAX_INSIGHT_CHARS = 300;
const MAX_ANSWER_CHARS = 2_000;

export interface InsightItem {
  tool: string;
  args: Record<string, unknown>;
  output: string;
}

/** What the run did, for the Q&A summary (the loop collects it as it goes). */
export interface RunFacts {
  goal: string;
  status: string;
  reason: string;
  summary?: string;
  steps: number;
  changedFiles: string[];
  /** One line per tool call, oldest first ("read_file path=... -> ok: ..."). */
  journal: string[];
  /** Insights written for this run's observations. */
  insights: string[];
}

/**
 * The cheap model's side jobs: short insights for tool results (many per request) and the run's
 * Q&A summary. Every method always returns usable text: when the fast model is off, fails, or
 * answers in a shape we cannot trust, the plain fallback is returned and `warn` says why (once).
 */
export class FastModelWork {
  private warned = false;

  constructor(
    private readonly model: { complete?(req: CompleteRequest): Promise<ModelTurn> } | undefined,
    private readonly meter: UsageMeter,
    private readonly warn: (message: string) => void,
    /** Each fast reply, for live usage reporting. */
    private readonly onTurn: (turn: ModelTurn) => void = () => {},
  ) {}

  get enabled(): boolean {
    return typeof this.model?.complete === 'function';
  }

  /** One insight per item, in order, from a single request. */
  async insights(goal: string, items: readonly InsightItem[], signal: AbortSignal): Promise<string[]> {
    const fallback = items.map(fixedInsight);
    if (!items.length || !this.enabled || signal.aborted) return fallback;
    const text = await this.ask(
      {
        system:
          'You write memory notes for a coding agent. For each tool result, write ONE sentence (at most 25 words) stating the fact ' +
          'it revealed that would help a later task in this codebase: where something is defined, what a file does, what a search found or did not find. ' +
          'Name files and symbols. Answer with JSON only: {"insights": ["...", ...]}, exactly one string per result, in order.',
        prompt: `The agent's goal: ${goal}\n\n${items.map((it, i) => `Result ${i + 1}: ${it.tool} ${briefArgs(it.args)}\n${excerpt(it.output)}`).join('\n\n')}`,
        maxOutputTokens: 80 * items.length + 40,
      },
      signal,
      'observation insights',
    );
    if (text === undefined) return fallback;
    const parsed = parseInsights(text, items.length);
    if (!parsed) {
      this.warnOnce(`the fast model's insights were not ${items.length} JSON strings; plain descriptions are stored instead`);
      return fallback;
    }
    return parsed.map((s, i) => s || fallback[i]!);
  }

  /** The answer stored with the goal as its question: what was done and what was learned. */
  async qaAnswer(facts: RunFacts, signal: AbortSignal): Promise<string> {
    const fallback = fixedAnswer(facts);
    if (!this.enabled || signal.aborted) return fallback;
    const text = await this.ask(
      {
        system:
          'You summarize a finished coding-agent run for a searchable Q&A memory. The question is the goal. Answer in at most 120 words, plain text: ' +
          'what was done (files changed, outcome, tests) and what was learned about the codebase that would help next time. No preamble.',
        prompt: [
          `Goal: ${facts.goal}`,
          `Outcome: ${facts.status} after ${facts.steps} step(s): ${facts.reason}`,
          facts.summary ? `Agent's final summary: ${facts.summary}` : '',
          `Files changed: ${facts.changedFiles.join(', ') || 'none'}`,
          facts.insights.length
            ? `Notes:\n${facts.insights
                .slice(-20)
                .map((s) => `- ${s}`)
                .join('\n')}`
            : '',
          `Tool calls (latest last):\n${facts.journal.slice(-40).join('\n')}`,
        ]
          .filter(Boolean)
          .join('\n'),
        maxOutputTokens: 300,
      },
      signal,
      'Q&A summary',
    );
    const answer = text?.trim();
    return answer ? clip(answer, MAX_ANSWER_CHARS) : fallback;
  }

  private async ask(req: Pick<CompleteRequest, 'system' | 'prompt' | 'maxOutputTokens'>, signal: AbortSignal, what: string): Promise<string | undefined> {
    const deadline = AbortSignal.any([signal, AbortSignal.timeout(FAST_TIMEOUT_MS)]);
    try {
      const turn = await this.model!.complete!({ ...req, role: 'fast', temperature: 0, signal: deadline, meter: this.meter });
      this.onTurn(turn);
      return turn.text;
    } catch (err) {
      // A cancelled run says nothing: the user knows. Anything else: the run goes on with the plain text.
      if (!signal.aborted) this.warnOnce(`the fast model failed (${what}; plain text stored instead): ${errorMessage(err)}`);
      return undefined;
    }
  }

  private warnOnce(message: string): void {
    if (this.warned) return;
    this.warned = true;
    this.warn(message);
  }
}

/** The insight when no model writes one: the tool and its arguments. */
export function fixedInsight(item: InsightItem): string {
  return `${item.tool} ${briefArgs(item.args)}`.trim();
}

/** The Q&A answer when no model writes one, from the facts alone. */
export function fixedAnswer(f: RunFacts): string {
  const counts = new Map<string, number>();
  for (const line of f.journal) {
    const tool = line.split(' ', 1)[0]!;
    counts.set(tool, (counts.get(tool) ?? 0) + 1);
  }
  const lines = [
    `${f.status} after ${f.steps} step(s): ${f.summary ?? f.reason}`,
    f.changedFiles.length ? `Files changed: ${f.changedFiles.join(', ')}` : 'No files changed.',
    counts.size ? `Tools: ${[...counts].map(([t, n]) => (n > 1 ? `${t} x${n}` : t)).join(', ')}` : '',
  ];
  return clip(lines.filter(Boolean).join('\n'), MAX_ANSWER_CHARS);
}

/** `{"insights": [...]}` or a bare array, possibly fenced; undefined unless exactly `count` strings. */
export function parseInsights(text: string, count: number): string[] | undefined {
  const body = text.replace(/^\s*```[a-z]*\s*/i, '').replace(/\s*```\s*$/, '');
  const start = body.search(/[[{]/);
  if (start < 0) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(body.slice(start, Math.max(body.lastIndexOf('}'), body.lastIndexOf(']')) + 1));
  } catch {
    return undefined;
  }
  const list = Array.isArray(value) ? value : (value as { insights?: unknown } | null)?.insights;
  if (!Array.isArray(list) || list.length !== count || !list.every((s) => typeof s === 'string')) return undefined;
  return list.map((s: string) => clip(s.replace(/\s+/g, ' ').trim(), MAX_INSIGHT_CHARS));
}

function excerpt(output: string): string {
  return output.length > RESULT_EXCERPT_CHARS
    ? `${output.slice(0, RESULT_EXCERPT_CHARS)}\n[... ${output.length - RESULT_EXCERPT_CHARS} more characters]`
    : output;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}
