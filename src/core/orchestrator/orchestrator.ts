import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { AgentEvent, HunkView, RunEndStatus, RunFailure } from '../../protocol/agentEvents';
import { CancelledError } from '../base/cancellation';
import { errorMessage } from '../base/errors';
import { systemClock } from '../ports';
import { buildSubagentPrompt } from '../context/subagentPrompt';
import { completePairs } from '../context/compaction';
import type { Conversation } from '../context/conversation';
import { createRunContext, loadRunSkills } from '../context/runContext';
import { TokenCalibration } from '../context/tokenCounter';
import { snapshotGit } from '../git/gitSession';
import { listWorkspaceFiles } from '../git/listFiles';
import type { IgnoreRules } from '../git/ignoreRules';
import type { ModelMessage, ModelRole, ModelToolCall, ModelToolSpec, ModelTurn } from '../llm/types';
import { UsageMeter, type UsageTotals } from '../llm/usageMeter';
import type { ApplyResult } from '../patch/types';
import { proposedDiff } from '../patch/proposedDiff';
import type { ToolRegistry } from '../tools/registry';
import type { Tool, ToolEvent, ToolResult } from '../tools/types';
import { executeCalls } from './executeCalls';
import { askModel, notesOnReply, recordReasoning } from './modelStep';
import { answerInvalidCalls } from './invalidCalls';
import { FastModelWork } from './fastModel';
import { EARLIER_STEP, TRANSCRIPT_STEP, recordCompaction, resolveWindows } from './contextSteps';
import { RunRecorder, asJson } from './recorder';
import { briefArgs } from '../base/truncate';
import { RunMemory } from './runMemory';
import { Subagents } from './subagents';
import { createToolContext } from './toolContext';
import { TestsAfterLastChange, describeTestsOutcome } from './testsOutcome';
import { TESTS_STEP } from '../history/types';
import { pathPolicyOf } from '../tools/paths';
import type { OrchestratorDeps, RunOptions, RunOutcome } from './types';

interface Executed {
  call: ModelToolCall;
  args: Record<string, unknown>;
  result: ToolResult;
  durationMs: number;
}

/**
 * The agent loop: ask the model, run its tool calls (policy and approval inside the tools), feed
 * the results back, until the model finishes or a limit stops it. Owns the loop only: the UI
 * listens to events, the host supplies the ports, the history store gets every step as it happens.
 */
export class Orchestrator {
  constructor(private readonly deps: OrchestratorDeps) {}

  async run(goal: string, options: RunOptions = {}): Promise<RunOutcome> {
    const { deps } = this;
    const { settings } = deps;
    const clock = deps.clock ?? systemClock;
    const emit = (e: AgentEvent) => {
      try {
        deps.onEvent?.(e);
      } catch {
        /* a broken viewer must not break the run */
      }
    };
    const warn = (message: string) => emit({ type: 'warning', message });
    const recorder = new RunRecorder(deps.history, warn);
    const meter = new UsageMeter();
    const mode = settings.approval.mode;
    // The fast model's side jobs need one configured: unasked, they would bill the reasoning model.
    const fast = new FastModelWork(settings.llm.fastModel ? deps.model : undefined, meter, warn, (turn) => emitUsage(emit, meter, turn));
    const memory = new RunMemory(goal, fast, recorder);
    const changedFiles = new Set<string>();
    const tests = new TestsAfterLastChange();

    const stop = new AbortController();
    const cancel = () => stop.abort(new CancelledError());
    const external = options.signal;
    const onExternalAbort = cancel;
    if (external?.aborted) cancel();
    else external?.addEventListener('abort', onExternalAbort, { once: true });
    let timeUp = false;
    const timer = setTimeout(() => {
      timeUp = true;
      cancel();
    }, settings.limits.wallClockMinutes * 60_000);
    timer.unref?.();
    const signal = stop.signal;

    let steps = 0;
    let conversation: Conversation | undefined;
    const approvals: ApprovalTally = { unattendedEdits: 0 };
    const end = async (finalStatus: RunEndStatus, finalReason: string, summary?: string, failure?: RunFailure): Promise<RunOutcome> => {
      let status = finalStatus;
      let reason = finalReason;
      if (status === 'finished' && approvals.unattendedEdits > 0 && changedFiles.size === 0) {
        // Nothing was changed because nobody could approve a change: whatever the model concluded, the goal was not reached.
        status = 'blocked';
        reason = `every edit needed approval and nobody could give it (${approvals.unattendedEdits} refused); nothing was changed`;
      }
      // A cancelled run (or one out of time) has an aborted signal: its memory is written without the fast model.
      await memory.finish({ status, reason, summary, steps, changedFiles: [...changedFiles] }, signal).catch((err: unknown) => warn(`the run's memory was not written: ${errorMessage(err)}`));
      const totals = meter.total();
      const byRole = usageByRole(meter);
      const transcript = transcriptOf(conversation, goal, summary);
      // The history's timeline says how the run left the tests (run/finished says it to the UI and the CLI).
      recorder.step({ role: 'system', tool: TESTS_STEP, text: describeTestsOutcome(tests.outcome) });
      // What a resumed session continues from (core/session/resume.ts).
      recorder.step({ role: 'system', tool: TRANSCRIPT_STEP, text: `${transcript.length} message(s)`, arguments: asJson(transcript) });
      await recorder.finish({ status, steps, tokensIn: totals.promptTokens, tokensOut: totals.completionTokens, costUsd: totals.cost, endedAt: clock.now() });
      const view = (role: ModelRole) => ({ model: deps.model.modelFor(role), requests: byRole[role].requests, promptTokens: byRole[role].promptTokens, ...(byRole[role].cachedTokens ? { cachedTokens: byRole[role].cachedTokens } : {}), completionTokens: byRole[role].completionTokens, cost: byRole[role].cost });
      emit({ type: 'run/finished', status, reason, summary, steps, tests: tests.outcome, ...(failure && status === 'failed' ? { failure } : {}), usage: { reasoning: view('reasoning'), fast: view('fast'), totalCost: totals.cost } });
      return { status, reason, summary, steps, tests: tests.outcome, changedFiles: [...changedFiles], runId: recorder.runId, usage: totals, usageByRole: byRole, transcript, usageRecords: meter.requests, ...(failure && status === 'failed' ? { failure } : {}) };
    };

    try {
      const root = await realpath(deps.root);
      const git = options.subagent?.git ?? (await snapshotGit(root));
      await recorder.start(goal, { reasoning: deps.model.modelFor('reasoning'), fast: deps.model.modelFor('fast') }, options.subagent?.parentRunId);
      const windows = await resolveWindows(deps.model, signal);
      emit({ type: 'run/started', runId: recorder.runId, goal, mode, model: deps.model.modelFor('reasoning'), contextWindow: windows.window.tokens, contextWindowNote: windows.note, git });
      windows.warnings.forEach(warn);
      if (git.warning) warn(git.warning); // a tampered repository: no git, so no auto-commit this run

      const onToolEvent = (e: ToolEvent) => this.forwardToolEvent(e, emit, recorder, approvals);
      const toolCtx = createToolContext(deps, root, git, signal, onToolEvent, tests);
      toolCtx.run.changedFiles = changedFiles;
      toolCtx.run.goal = goal;
      const pathPolicy = pathPolicyOf(toolCtx);
      const skills = await loadRunSkills({ root, pathPolicy, bundledSkillsDir: deps.bundledSkillsDir });
      toolCtx.skills = skills;
      const tools = await this.gatherTools(signal, onToolEvent, warn);
      const offered = tools.list().filter((t) => (mode !== 'plan' || t.readOnly || t.loop?.planModeDryRun) && (t.loop?.offeredWhen?.({ skills: skills.skills.length }) ?? true));
      const specs: ModelToolSpec[] = offered.map((t) => ({ name: t.name, description: t.description, parameters: t.schema }));
      const readOnly = new Set(offered.filter((t) => t.readOnly).map((t) => t.name));
      const facts = options.subagent?.facts ?? (await workspaceFacts(root, git, settings, toolCtx.ignore));
      if (!options.subagent && offered.some((t) => t.loop?.spawnsRuns)) {
        toolCtx.subagents = new Subagents({ deps, registry: tools, offered, parentRunId: () => recorder.runId, git, facts, meter, emit, runChild: (d, g, o) => new Orchestrator(d).run(g, o) });
      }
      if (options.earlier?.length) {
        // What a killed run is rebuilt from (core/session/resume.ts): a reference when the previous run recorded it.
        const earlier = options.earlierRunId ? { fromRun: options.earlierRunId } : options.earlier;
        recorder.step({ role: 'system', tool: EARLIER_STEP, text: `${options.earlier.length} message(s)`, arguments: asJson(earlier) });
      }
      const run = await createRunContext(
        {
          root,
          goal,
          mode,
          facts,
          // A subagent gets its focused prompt; the workspace's rules, memory and skills still follow.
          basePrompt: options.subagent ? buildSubagentPrompt(facts, mode, offered.map((t) => t.name)) : undefined,
          settings,
          model: deps.model,
          pathPolicy,
          history: toolCtx.history,
          bundledSkillsDir: deps.bundledSkillsDir,
          calibration: deps.calibration ?? new TokenCalibration(),
          earlier: options.earlier,
          meter,
          onTurn: (turn) => emitUsage(emit, meter, turn),
          onCompacted: (report) => recordCompaction(report, recorder, emit),
          warn,
        },
        skills,
        specs,
      );
      conversation = run.conversation;
      recorder.step({ role: 'system', text: `git ${git.isRepo ? `${git.branch ?? '-'} ${git.head ?? '(no commits)'}, dirty: ${git.dirty.join(', ') || 'none'}` : 'not a repository'}` });
      recorder.step({ role: 'user', text: goal });
      let failures = 0;
      let unusableReplies = 0;

      for (;;) {
        if (steps >= settings.limits.maxSteps) return await end('limit', `reached the step limit (${settings.limits.maxSteps})`);
        signal.throwIfAborted();
        if (steps > 0) deliverInbox(options.inbox, conversation, recorder, emit);
        steps++;
        emit({ type: 'step/started', step: steps });
        const started = clock.now();
        const asked = await askModel({ model: deps.model, context: run.context, tools: specs, signal, meter, recorder, emit });
        if ('end' in asked) return await end(asked.end.status, asked.end.reason, undefined, asked.end.failure);
        const { turn, prepared } = asked;
        emitUsage(emit, meter, turn, { countedPromptTokens: prepared.tokens, budgetTokens: run.context.budget.tokens });
        run.context.observe(prepared, turn.usage);

        const calls = turn.toolCalls;
        const invalid = turn.invalidToolCalls;
        recordReasoning(turn, recorder);
        recorder.step({
          role: 'assistant',
          text: turn.text || turn.refusal || null,
          arguments: asJson([...calls.map((c) => ({ id: c.id, name: c.name, arguments: c.argumentsJson })), ...invalid.map((c) => ({ id: c.id, name: c.name, invalid: c.problem }))]),
          durationMs: clock.now() - started,
        });
        const notes = notesOnReply(turn, emit);
        if (calls.length === 0 && invalid.length === 0) {
          if (notes.finalUnusable && notes.toModel) {
            // Not an answer: asked again (a few times), never ended as a silent "finished".
            if (++unusableReplies > MAX_UNUSABLE_REPLIES) return await end('failed', `the model sent no usable answer ${unusableReplies} times in a row (reasoning only, empty, or unreadable)`);
            if (turn.text) conversation.addAssistant(turn.text, [], turn.reasoning, turn.thinkingBlocks);
            conversation.addUser(notes.toModel);
            recorder.step({ role: 'user', text: notes.toModel });
            continue;
          }
          conversation.addAssistant(turn.text || turn.refusal || '', [], turn.reasoning, turn.thinkingBlocks);
          const summary = (turn.text || turn.refusal || '').trim() || undefined;
          return await end('finished', turn.refusal && !turn.text ? 'the model refused' : turn.finishReason === 'length' ? 'the reply hit the output limit' : 'the model replied without a tool call', summary);
        }
        unusableReplies = 0;
        // Broken calls keep their place in the conversation with placeholder arguments, so every id gets its result.
        conversation.addAssistant(turn.text, [...calls, ...invalid.map((c) => ({ id: c.id, name: c.name, argumentsJson: '{}' }))], turn.reasoning, turn.thinkingBlocks);

        const parallel = (call: ModelToolCall) => readOnly.has(call.name) && parallelSafe(tools.get(call.name), call, readOnly);
        const executed = await executeCalls(calls, parallel, (call) => this.runCall(call, tools, offered, toolCtx, emit));
        for (const x of executed) {
          conversation.addToolResult(x.call.id, x.result.output);
          tests.noteCall(tools.get(x.call.name), x.result);
          await this.record(x, tools.get(x.call.name), recorder, memory, signal);
        }
        answerInvalidCalls(invalid, conversation, recorder, emit);
        if (notes.toModel) {
          conversation.addUser(notes.toModel);
          recorder.step({ role: 'user', text: notes.toModel });
        }

        const finished = executed.find((x) => x.result.ok && tools.get(x.call.name)?.loop?.endsRun);
        if (finished) return await end('finished', 'the model called finish', finished.result.output);
        const succeeded = executed.some((x) => x.result.ok || tools.get(x.call.name)?.loop?.isVerdict?.(x.result));
        failures = succeeded ? 0 : failures + 1;
        if (failures >= settings.limits.maxConsecutiveFailures) {
          return await end('failed', `${failures} steps in a row where every tool call failed`);
        }
      }
    } catch (err) {
      if (signal.aborted || err instanceof CancelledError) {
        return await end(timeUp ? 'limit' : 'cancelled', timeUp ? `reached the wall-clock limit (${settings.limits.wallClockMinutes} min)` : 'stopped by the user');
      }
      return await end('failed', `internal error: ${errorMessage(err)}`);
    } finally {
      clearTimeout(timer);
      external?.removeEventListener('abort', onExternalAbort);
    }
  }

  /** The host's tools plus those of the tool sources (MCP servers) for this run; a failing source is a warning, not a failed run. */
  private async gatherTools(signal: AbortSignal, emit: (e: ToolEvent) => void, warn: (message: string) => void): Promise<ToolRegistry> {
    const { deps } = this;
    if (!deps.toolSources?.length) return deps.tools;
    const extra: Tool<any>[] = [];
    for (const source of deps.toolSources) {
      try {
        extra.push(...(await source.tools({ signal, approver: deps.approver, mode: deps.settings.approval.mode, emit, warn })));
      } catch (err) {
        if (signal.aborted || err instanceof CancelledError) throw new CancelledError();
        warn(`some tools are not available: ${errorMessage(err)}`);
      }
    }
    const known = new Set(deps.tools.list().map((t) => t.name));
    return deps.tools.with(extra.filter((t) => !known.has(t.name)));
  }

  private async runCall(call: ModelToolCall, tools: ToolRegistry, offered: Tool<any>[], ctx: ReturnType<typeof createToolContext>, emit: (e: AgentEvent) => void): Promise<Executed> {
    let args: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(call.argumentsJson || '{}');
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) args = parsed as Record<string, unknown>;
    } catch {
      /* the registry reports it */
    }
    emit({ type: 'tool/started', callId: call.id, name: call.name, args });
    const started = Date.now();
    const result = offered.some((t) => t.name === call.name)
      ? await tools.invoke(call.name, call.argumentsJson, ctx)
      : { ok: false, output: `tool "${call.name}" is not available${ctx.mode === 'plan' ? ' in plan mode' : ''}. Available: ${offered.map((t) => t.name).join(', ')}` };
    const durationMs = Date.now() - started;
    const output = result.output;
    emit({ type: 'tool/finished', callId: call.id, name: call.name, ok: result.ok, output, durationMs });
    return { call, args, result, durationMs };
  }

  /** In call order (parallel calls finish in any order), so the audit trail reads like the conversation. */
  private async record(x: Executed, tool: Tool<any> | undefined, recorder: RunRecorder, memory: RunMemory, signal: AbortSignal): Promise<void> {
    const { call, args, result } = x;
    recorder.step({ role: 'tool', tool: call.name, arguments: asJson(args), result: result.output, durationMs: x.durationMs });
    memory.noteCall(`${call.name} ${briefArgs(args)} -> ${result.ok ? 'ok' : 'failed'}: ${firstLine(result.output)}`);
    const patch = tool?.loop?.patchOf?.(args);
    if (patch !== undefined) recorder.patch(patch, result);
    else if (result.ok && tool?.loop?.worthRemembering) await memory.observe({ tool: call.name, args, output: result.output }, signal);
  }

  private forwardToolEvent(e: ToolEvent, emit: (e: AgentEvent) => void, recorder: RunRecorder, approvals: ApprovalTally): void {
    switch (e.type) {
      case 'patch-proposed': {
        const diff = e.preview.ok ? proposedDiff(e.preview) : '';
        const warnings = e.preview.warnings ?? [];
        emit({ type: 'patch/proposed', hunks: hunkViews(e.preview), ok: e.preview.ok, error: e.preview.error, ...(diff ? { diff } : {}), ...(warnings.length ? { warnings } : {}) });
        break;
      }
      case 'approval-needed':
        emit({ type: 'approval/needed', kind: e.request.kind, title: e.request.title, reason: 'reason' in e.request ? e.request.reason : undefined });
        break;
      case 'approval-answered':
        if (e.unattended && e.edit) approvals.unattendedEdits++;
        emit({ type: 'approval/answered', kind: e.kind, approved: e.approved, accepted: e.accepted, ...(e.rejected?.length ? { rejected: e.rejected } : {}), ...(e.unattended ? { unattended: true } : {}) });
        break;
      case 'test-started':
        emit({ type: 'test/started', command: e.command });
        break;
      case 'test-finished':
        emit({ type: 'test/finished', command: e.command, exitCode: e.exitCode, durationMs: e.durationMs, summary: e.summary });
        break;
      case 'policy':
        break;
    }
    recorder.toolEvent(e);
  }
}

/** Replies in a row that are no answer (reasoning only, empty, unreadable) before the run fails instead of asking again. */
const MAX_UNUSABLE_REPLIES = 2;

/** Edits (patches, file writes) refused because nobody could be asked: a run made of only those is `blocked`. */
interface ApprovalTally {
  unattendedEdits: number;
}

function emitUsage(emit: (e: AgentEvent) => void, meter: UsageMeter, turn: ModelTurn, context: { countedPromptTokens?: number; budgetTokens?: number } = {}): void {
  const totals = meter.total();
  emit({ type: 'usage', role: turn.role, promptTokens: turn.usage.promptTokens, completionTokens: turn.usage.completionTokens, ...context, totalPromptTokens: totals.promptTokens, totalCachedTokens: totals.cachedTokens, totalCompletionTokens: totals.completionTokens, totalCost: totals.cost });
}

function usageByRole(meter: UsageMeter): Record<ModelRole, UsageTotals> {
  const parts: Record<ModelRole, UsageMeter> = { reasoning: new UsageMeter(), fast: new UsageMeter() };
  for (const r of meter.requests) parts[r.role].record(r);
  return { reasoning: parts.reasoning.total(), fast: parts.fast.total() };
}

/** Messages the user sent during the run, in the conversation before the next model step. */
function deliverInbox(inbox: RunOptions['inbox'], conversation: Conversation, recorder: RunRecorder, emit: (e: AgentEvent) => void): void {
  for (const text of inbox?.take() ?? []) {
    if (!text.trim()) continue;
    conversation.addUser(text);
    recorder.step({ role: 'user', text });
    emit({ type: 'user/delivered', text });
  }
}

/**
 * What the next turn of the chat keeps: the whole conversation (tool pairs intact) and, when the run
 * ended in a finish call, its summary as the assistant's last word. A run that failed before its
 * conversation existed still leaves the goal, so the chat reads the same to the model as to the user.
 */
function transcriptOf(conversation: Conversation | undefined, goal: string, summary: string | undefined): ModelMessage[] {
  if (!conversation) return [{ role: 'user', content: goal }];
  // Reasoning is never sent back across turns (llm/reasoningReplay.ts): the follow-up does not carry it.
  const messages = completePairs(conversation.messages.slice(1)).map((m) => (m.role === 'assistant' && m.reasoning ? withoutReasoning(m) : m));
  const last = messages[messages.length - 1];
  if (summary && last?.role === 'tool') messages.push({ role: 'assistant', content: summary });
  return messages;
}

function withoutReasoning(m: Extract<ModelMessage, { role: 'assistant' }>): ModelMessage {
  const { reasoning: _dropped, ...rest } = m;
  return rest;
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}

/** A read-only tool whose arguments decide (spawn_subagent with write tools) runs alone; broken arguments run alone too. */
function parallelSafe(tool: Tool<any> | undefined, call: ModelToolCall, readOnly: ReadonlySet<string>): boolean {
  if (!tool?.parallelSafe) return true;
  try {
    return tool.parallelSafe(JSON.parse(call.argumentsJson || '{}'), { readOnly: (name) => readOnly.has(name) });
  } catch {
    return false;
  }
}

function hunkViews(r: ApplyResult): HunkView[] {
  return r.files.flatMap((f) =>
    f.hunks.map((h) => ({ id: h.id, path: h.path, status: h.status, startLine: h.range?.start, endLine: h.range?.end, reason: h.reason ?? f.reason })),
  );
}

async function workspaceFacts(root: string, git: Awaited<ReturnType<typeof snapshotGit>>, settings: OrchestratorDeps['settings'], rules: IgnoreRules) {
  const listing = await listWorkspaceFiles(root, { maxFiles: 5000, rules });
  const top = [...new Set(listing.files.map((f) => (f.includes('/') ? f.slice(0, f.indexOf('/') + 1) : f)))].slice(0, 60);
  return {
    name: path.basename(root),
    platform: `${process.platform}`,
    git,
    testCommands: settings.tests.commands,
    afterEdit: settings.tests.afterEdit,
    topLevel: top,
  };
}
