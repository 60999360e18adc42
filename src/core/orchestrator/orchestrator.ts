import type { AgentEvent } from '../../protocol/agentEvents';
import { CancelledError } from '../base/cancellation';
import { errorMessage } from '../base/errors';
import type { Conversation } from '../context/conversation';
import type { ModelToolCall, ModelTurn } from '../llm/types';
import type { ToolRegistry } from '../tools/registry';
import type { Tool, ToolEvent, ToolResult } from '../tools/types';
import { briefArgs } from '../base/truncate';
import { executeCalls } from './executeCalls';
import { editFollows } from './replyEdits';
import { testsOwedAfterReply } from './toolContext';
import { withCheckpoint } from './checkpointStep';
import { answerInvalidCalls } from './invalidCalls';
import { askModel, notesOnReply, recordReasoning } from './modelStep';
import { hookAfterTool, hookBeforeTool, hookOnPrompt, hookOnStop, settleNotifications } from './hookSteps';
import { asJson, type RunRecorder } from './recorder';
import type { HunkNote, PatchInput } from '../history/types';
import { noteRulesOfCalls } from './rulesStep';
import { RunState } from './runState';
import { startRun, type RunSetup } from './runSetup';
import type { OrchestratorDeps, RunOptions, RunOutcome } from './types';
import { wholeSuiteBeforeFinish } from './wholeSuiteBeforeFinish';

interface Executed {
  call: ModelToolCall;
  args: Record<string, unknown>;
  result: ToolResult;
  durationMs: number;
}

/** Replies in a row that are no answer (reasoning only, empty, unreadable) before the run fails instead of asking again. */
const MAX_UNUSABLE_REPLIES = 2;

/**
 * The agent loop: ask the model, run its tool calls (policy and approval inside the tools), feed
 * the results back, until the model finishes or a limit stops it. Owns the loop only: the UI
 * listens to events, the host supplies the ports, the history store gets every step as it happens.
 * The run's state is one RunState; the loop is start (runSetup.ts), step, and end (RunState.end).
 */
export class Orchestrator {
  constructor(private readonly deps: OrchestratorDeps) {}

  async run(goal: string, options: RunOptions = {}): Promise<RunOutcome> {
    const run = new RunState(this.deps, goal, options);
    let setup: RunSetup | undefined;
    try {
      setup = await startRun(run, {
        gatherTools: (signal, emit, warn) => this.gatherTools(signal, emit, warn),
        runChild: (d, g, o) => new Orchestrator(d).run(g, o),
      });
      const refused = await hookOnPrompt(run);
      if (refused !== undefined) return await run.end('blocked', `a UserPromptSubmit hook refused the prompt: ${refused}`);
      for (;;) {
        const ended = await this.step(run, setup);
        if (ended) return ended;
      }
    } catch (err) {
      return await run.endOnError(err);
    } finally {
      // A baseline still running (the model never changed a file) is killed: the run's end does not wait for it.
      await setup?.baseline?.cancel();
      await settleNotifications(run);
      run.dispose();
    }
  }

  /** One model request and what follows from its reply; an outcome when the run ends here. */
  private async step(run: RunState, setup: RunSetup): Promise<RunOutcome | undefined> {
    const { settings } = this.deps;
    const conversation = run.conversation!;
    if (run.steps >= settings.limits.maxSteps) return run.end('limit', `reached the step limit (${settings.limits.maxSteps})`);
    run.signal.throwIfAborted();
    if (run.steps > 0) deliverInbox(run.options.inbox, conversation, run.recorder, run.emit);
    run.steps++;
    run.emit({ type: 'step/started', step: run.steps });
    const started = run.clock.now();
    const asked = await askModel({
      model: this.deps.model,
      context: setup.context,
      tools: setup.specs,
      signal: run.signal,
      meter: run.meter,
      recorder: run.recorder,
      emit: run.emit,
    });
    if ('end' in asked) return run.end(asked.end.status, asked.end.reason, undefined, asked.end.failure);
    const { turn, prepared } = asked;
    run.reportUsage(turn, { countedPromptTokens: prepared.tokens, budgetTokens: setup.context.budget.tokens });
    setup.context.observe(prepared, turn.usage);
    recordReasoning(turn, run.recorder);
    run.recorder.step({
      role: 'assistant',
      text: turn.text || turn.refusal || null,
      arguments: asJson([
        ...turn.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.argumentsJson })),
        ...turn.invalidToolCalls.map((c) => ({ id: c.id, name: c.name, invalid: c.problem })),
      ]),
      durationMs: run.clock.now() - started,
    });
    const notes = notesOnReply(turn, run.emit);
    if (turn.toolCalls.length === 0 && turn.invalidToolCalls.length === 0) return this.answer(run, turn, notes);
    run.unusableReplies = 0;
    return this.runCalls(run, setup, turn, notes.toModel);
  }

  /** A reply without tool calls: the run's answer, unless it is no answer (then the model is asked again). */
  private async answer(run: RunState, turn: ModelTurn, notes: ReturnType<typeof notesOnReply>): Promise<RunOutcome | undefined> {
    const conversation = run.conversation!;
    if (notes.stoppedByProvider) {
      conversation.addAssistant(turn.text || '', [], turn.reasoning, turn.thinkingBlocks);
      return run.end('failed', notes.stoppedByProvider, turn.text.trim() || undefined);
    }
    if (notes.finalUnusable && notes.toModel) {
      // Not an answer: asked again (a few times), never ended as a silent "finished".
      if (++run.unusableReplies > MAX_UNUSABLE_REPLIES)
        return run.end('failed', `the model sent no usable answer ${run.unusableReplies} times in a row (reasoning only, empty, or unreadable)`);
      if (turn.text) conversation.addAssistant(turn.text, [], turn.reasoning, turn.thinkingBlocks);
      conversation.addUser(notes.toModel);
      run.recorder.step({ role: 'user', text: notes.toModel });
      return undefined;
    }
    conversation.addAssistant(turn.text || turn.refusal || '', [], turn.reasoning, turn.thinkingBlocks);
    if (await goesOn(run)) return undefined;
    const summary = (turn.text || turn.refusal || '').trim() || undefined;
    return run.end(
      'finished',
      turn.refusal && !turn.text
        ? 'the model refused'
        : turn.finishReason === 'length'
          ? 'the reply hit the output limit'
          : 'the model replied without a tool call',
      summary,
    );
  }

  /** Runs the reply's tool calls (read-only ones in parallel), feeds back their results, and decides whether the run ends. */
  private async runCalls(run: RunState, setup: RunSetup, turn: ModelTurn, noteToModel: string | undefined): Promise<RunOutcome | undefined> {
    const conversation = run.conversation!;
    const { tools, readOnly } = setup;
    const calls = turn.toolCalls;
    const invalid = turn.invalidToolCalls;
    // Broken calls keep their place in the conversation with placeholder arguments, so every id gets its result.
    conversation.addAssistant(
      turn.text,
      [...calls, ...invalid.map((c) => ({ id: c.id, name: c.name, argumentsJson: '{}' }))],
      turn.reasoning,
      turn.thinkingBlocks,
    );
    const parallel = (call: ModelToolCall) => readOnly.has(call.name) && parallelSafe(tools.get(call.name), call, readOnly);
    const executed = await executeCalls(calls, parallel, (call) => {
      if (!parallel(call))
        setup.replyEdits.startCall(
          call.id,
          editFollows(calls, calls.indexOf(call), (name) => tools.get(name)),
        );
      return withCheckpoint(run, tools.get(call.name), call, () => this.runCall(call, setup, run));
    });
    const owed = await testsOwedAfterReply(setup.toolCtx, run.tests, setup.replyEdits);
    const owner = owed && executed.find((x) => x.call.id === owed.callId);
    if (owner) owner.result = { ...owner.result, output: `${owner.result.output}\n\n${owed!.text}` };
    const ruleNotes = await noteRulesOfCalls(run, setup.rules, executed, (name) => tools.get(name));
    let looping: string | undefined;
    for (const x of executed) {
      const entered = conversation.addToolResult(x.call.id, x.result.output + (ruleNotes.get(x.call.id) ?? ''), x.call.name);
      run.tests.noteCall(tools.get(x.call.name), x.result);
      await this.record(x, tools.get(x.call.name), run, entered);
      looping ??= run.repeatedFailures.note(x.call, tools.get(x.call.name), x.result);
    }
    answerInvalidCalls(invalid, conversation, run.recorder, run.emit);
    const finished = executed.find((x) => x.result.ok && tools.get(x.call.name)?.loop?.endsRun);
    // A finish while the tests fail is refused once per failure state: the model hears why and tries again.
    const suite = finished ? await wholeSuiteBeforeFinish(run, setup.toolCtx) : undefined;
    const refusal = finished ? run.finishGate.check(run.tests, finished.result.output) : undefined;
    const refused = refusal && suite ? `${refusal}\n\n${suite}` : refusal;
    for (const note of [noteToModel, refused]) {
      if (!note) continue;
      conversation.addUser(note);
      run.recorder.step({ role: 'user', text: note });
    }
    if (refused) {
      run.emit({
        type: 'model/notice',
        kind: 'finish-refused',
        message:
          run.tests.outcome === 'known-failures'
            ? 'The model called finish without mentioning tests that failed before the run and still fail; it was asked to fix or name them.'
            : 'The model called finish while tests its edits broke still fail; it was told which and asked to try again.',
      });
      return undefined;
    }
    if (finished && (await goesOn(run))) return undefined;
    if (finished) return run.end('finished', 'the model called finish', finished.result.output);
    const succeeded = executed.some((x) => x.result.ok || tools.get(x.call.name)?.loop?.isVerdict?.(x.result));
    run.failedSteps = succeeded ? 0 : run.failedSteps + 1;
    if (run.failedSteps >= this.deps.settings.limits.maxConsecutiveFailures)
      return run.end('failed', `${run.failedSteps} steps in a row where every tool call failed`);
    // The loop guard catches what the count above misses: the same failure again with other work in between.
    if (looping) return run.endStopped('repeated-failure', looping);
    return undefined;
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

  private async runCall(call: ModelToolCall, setup: RunSetup, run: RunState): Promise<Executed> {
    const { offered, toolCtx: ctx } = setup;
    const { emit } = run;
    let args: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(call.argumentsJson || '{}');
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) args = parsed as Record<string, unknown>;
    } catch {
      /* the registry reports it */
    }
    emit({ type: 'tool/started', callId: call.id, name: call.name, args });
    const started = Date.now();
    const ran = offered.some((t) => t.name === call.name)
      ? await this.invokeWithHooks(call, args, setup, run)
      : {
          ok: false,
          output: `tool "${call.name}" is not available${ctx.ask.planOnly ? ' in plan mode' : ''}. Available: ${offered.map((t) => t.name).join(', ')}`,
        };
    const durationMs = Date.now() - started;
    // The baseline ran unseen (started with the run): its one line joins the first result after it ended, once.
    const baseline = run.tests.takeBaselineNote();
    const result = baseline ? { ...ran, output: `${ran.output}\n\n${baseline}` } : ran;
    const output = result.output;
    emit({ type: 'tool/finished', callId: call.id, name: call.name, ok: result.ok, output, durationMs });
    return { call, args, result, durationMs };
  }

  /** The call between its hooks: a PreToolUse hook that blocks keeps it from running, a PostToolUse one adds to its result. */
  private async invokeWithHooks(call: ModelToolCall, args: Record<string, unknown>, setup: RunSetup, run: RunState): Promise<ToolResult> {
    const tool = setup.tools.get(call.name);
    const blocked = await hookBeforeTool(run, tool, call, args);
    if (blocked !== undefined) return { ok: false, output: `not run: a PreToolUse hook blocked this call: ${blocked}` };
    return hookAfterTool(run, tool, call, args, await setup.tools.invoke(call.name, call.argumentsJson, setup.toolCtx));
  }

  /** In call order (parallel calls finish in any order), so the audit trail reads like the conversation. */
  /** `entered`: the result as the model reads it (cut, with the note naming where the whole is kept): what a resume sends again. */
  private async record(x: Executed, tool: Tool<any> | undefined, run: RunState, entered: string): Promise<void> {
    const { recorder, memory, signal } = run;
    const { call, args, result } = x;
    recorder.step({ role: 'tool', tool: call.name, arguments: asJson(args), result: entered, durationMs: x.durationMs });
    memory.noteCall(`${call.name} ${briefArgs(args)} -> ${result.ok ? 'ok' : 'failed'}: ${firstLine(result.output)}`);
    const patch = tool?.loop?.patchOf?.(args, result);
    if (patch) refusedPatch(recorder.patch(patch), run.emit);
    else if (result.ok && tool?.loop?.worthRemembering) await memory.observe({ tool: call.name, args, output: result.output }, signal);
  }
}

/** A recorded patch of which no hunk went in is told as `patch/refused`, with the history's id and each hunk's reason. */
function refusedPatch(input: PatchInput | undefined, emit: (e: AgentEvent) => void): void {
  if (!input || input.acceptedHunks.length > 0 || input.appliedAt) return;
  const hunks = input.rejectedHunks.flatMap((n) => (n && typeof n === 'object' && !Array.isArray(n) ? [n as unknown as HunkNote] : []));
  emit({ type: 'patch/refused', ...(input.id ? { patchId: input.id } : {}), files: input.files, hunks });
}

/** A Stop hook sends the run on: its reason goes to the model as the next user message. */
async function goesOn(run: RunState): Promise<boolean> {
  const more = await hookOnStop(run);
  if (more === undefined) return false;
  run.conversation!.addUser(more);
  run.recorder.step({ role: 'user', text: more });
  return true;
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
