/**
 * spawn_subagent's engine for one parent run: each subagent is a child Orchestrator run with its own
 * conversation and a focused prompt, a subset of the parent's tools (the read-only ones by default),
 * the parent's cancellation, and at most `patchpilot.subagents.maxConcurrent` working at once. Its
 * requests count in the parent's usage; the history records it as a run whose parent is this run.
 */
import type { AgentEvent } from '../../protocol/agentEvents';
import { Limiter } from '../base/limiter';
import type { UsageMeter } from '../llm/usageMeter';
import type { ToolRegistry } from '../tools/registry';
import { fail, ok, type SubagentSpawner, type Tool, type ToolResult } from '../tools/types';
import type { OrchestratorDeps, RunOptions, RunOutcome } from './types';
import type { GitSnapshot } from '../git/gitSnapshot';
import type { WorkspaceFacts } from '../context/systemPrompt';

export interface SubagentsOptions {
  deps: OrchestratorDeps;
  /** The parent run's registry (MCP tools included). */
  registry: ToolRegistry;
  /** The tools the parent was offered (its mode applied). */
  offered: readonly Tool<any>[];
  parentRunId: () => string | null;
  /** The parent's snapshot and facts, reused by every subagent of the run. */
  git?: GitSnapshot;
  facts?: WorkspaceFacts;
  /** The parent's meter: a subagent's requests are added to it as they happen (tagged `subagent N`). */
  meter: UsageMeter;
  emit: (e: AgentEvent) => void;
  /** Runs a child (the Orchestrator; passed in to keep the import one-way). */
  runChild: (deps: OrchestratorDeps, goal: string, options: RunOptions) => Promise<RunOutcome>;
}

/** Events of a child that the parent's viewers must see: questions waiting for the user, warnings, and what it wrote (with its undo). */
const FORWARDED = new Set<AgentEvent['type']>(['approval/needed', 'approval/answered', 'patch/applied']);

export class Subagents implements SubagentSpawner {
  readonly available: readonly string[];
  readonly defaults: readonly string[];
  private readonly limiter: Limiter;
  private count = 0;

  constructor(private readonly o: SubagentsOptions) {
    const candidates = o.offered.filter((t) => !t.loop?.notForSubagents && !t.loop?.endsRun);
    this.available = candidates.map((t) => t.name);
    this.defaults = candidates.filter((t) => t.readOnly).map((t) => t.name);
    this.limiter = new Limiter(o.deps.settings.subagents.maxConcurrent);
  }

  async spawn(request: { task: string; tools?: readonly string[] }, signal: AbortSignal): Promise<ToolResult> {
    const names = request.tools ? [...new Set(request.tools)] : [...this.defaults];
    const unknown = names.filter((n) => !this.available.includes(n));
    if (unknown.length) {
      return fail(`no such tool for a subagent: ${unknown.join(', ')}. Available: ${this.available.join(', ')}`);
    }
    const index = ++this.count;
    const { deps, emit } = this.o;
    return this.limiter.run(async () => {
      emit({ type: 'subagent/started', index, task: request.task, tools: names });
      const childDeps: OrchestratorDeps = {
        ...deps,
        // The child ends the way any run does: with the tool that ends runs.
        tools: this.o.registry.only([
          ...names,
          ...this.o.registry
            .list()
            .filter((t) => t.loop?.endsRun)
            .map((t) => t.name),
        ]),
        // The parent gathered its outside tools (MCP) already; the child uses those, asks nothing new.
        toolSources: undefined,
        // The parent's checkpoint around spawn_subagent covers all the child changes.
        checkpoints: undefined,
        onEvent: (e) => {
          if (FORWARDED.has(e.type)) emit(e);
          else if (e.type === 'warning') emit({ type: 'warning', message: `subagent ${index}: ${e.message}` });
        },
      };
      const outcome = await this.o.runChild(childDeps, request.task, {
        signal,
        // The child's requests reach the parent's meter as they happen, so the parent's budget stops a subagent too.
        subagent: { parentRunId: this.o.parentRunId(), git: this.o.git, facts: this.o.facts, meter: this.o.meter.withSource(`subagent ${index}`) },
      });
      const totals = this.o.meter.total();
      emit({
        type: 'usage',
        role: 'reasoning',
        promptTokens: outcome.usage.promptTokens,
        completionTokens: outcome.usage.completionTokens,
        totalPromptTokens: totals.promptTokens,
        totalCompletionTokens: totals.completionTokens,
        totalCost: totals.cost,
      });
      emit({ type: 'subagent/finished', index, status: outcome.status, reason: outcome.reason, steps: outcome.steps, runId: outcome.runId });
      signal.throwIfAborted();
      // The child's edits and tests count for the parent's end state (spawn_subagent's loop.testsOutcome).
      const tests = outcome.changedFiles.length > 0 || outcome.tests !== 'not-run' ? { tests: outcome.tests } : {};
      const data = {
        runId: outcome.runId,
        status: outcome.status,
        steps: outcome.steps,
        tokens: outcome.usage.promptTokens + outcome.usage.completionTokens,
        ...tests,
      };
      if (outcome.status === 'finished') return ok(outcome.summary ?? '(the subagent finished without an answer)', data);
      return fail(`the subagent stopped (${outcome.status}: ${outcome.reason})${outcome.summary ? `; its last words: ${outcome.summary}` : ''}`, data);
    }, signal);
  }
}
