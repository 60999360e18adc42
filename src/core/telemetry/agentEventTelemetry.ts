/**
 * The agent's event stream (the events `patchpilot run --json` prints and the history records) in
 * OpenTelemetry's terms: an `invoke_agent` span per run with `chat` and `execute_tool` children
 * (GenAI semantic conventions), the GenAI client metrics, and PatchPilot's own counters. Only types
 * come from @opentelemetry/api here; the SDK that gives the tracer and meter is loaded when
 * telemetry is on (otelSdk.ts). What each name means: docs/telemetry.md.
 */
import type { Attributes, Context, Counter, Histogram, Meter, Span, Tracer } from '@opentelemetry/api';
import type { AgentEvent } from '../../protocol/agentEvents';

/** The few values of @opentelemetry/api this needs, handed over by the loader (no top-level import). */
export interface OtelApi {
  setSpan(parent: Context, span: Span): Context;
  rootContext: Context;
  spanKindClient: number;
  spanKindInternal: number;
  statusError: number;
}

const AGENT_NAME = 'patchpilot';
/** Bucket bounds the GenAI conventions advise for token counts and for seconds. */
const TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];
const SECOND_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];

interface Instruments {
  tokens: Histogram;
  duration: Histogram;
  patchesProposed: Counter;
  patchesApplied: Counter;
  hunks: Counter;
  testRuns: Counter;
  checkpointsRestored: Counter;
  cost: Counter;
  runs: Counter;
}

function instruments(meter: Meter): Instruments {
  return {
    tokens: meter.createHistogram('gen_ai.client.token.usage', {
      unit: '{token}',
      description: 'Tokens used per model request, by gen_ai.token.type (input, output)',
      advice: { explicitBucketBoundaries: TOKEN_BUCKETS },
    }),
    duration: meter.createHistogram('gen_ai.client.operation.duration', {
      unit: 's',
      description: 'Duration of a model request (chat) or of a whole agent run (invoke_agent)',
      advice: { explicitBucketBoundaries: SECOND_BUCKETS },
    }),
    patchesProposed: meter.createCounter('patchpilot.patches.proposed', { description: 'Patches the model proposed, by outcome (valid, invalid)' }),
    patchesApplied: meter.createCounter('patchpilot.patches.applied', {
      description: 'What became of proposed patches, by outcome (applied, edited, rejected, refused)',
    }),
    hunks: meter.createCounter('patchpilot.hunks', { description: 'Patch hunks by decision (accepted, rejected, refused)' }),
    testRuns: meter.createCounter('patchpilot.test_runs', { description: 'Test command runs, by outcome (passed, failed, error)' }),
    checkpointsRestored: meter.createCounter('patchpilot.checkpoints.restored', { description: 'Checkpoint restores that wrote files' }),
    cost: meter.createCounter('patchpilot.cost', { unit: 'USD', description: 'Money spent on model requests, for models with a known price' }),
    runs: meter.createCounter('patchpilot.runs', { description: 'Agent runs ended, by status' }),
  };
}

interface RunTrace {
  span: Span;
  context: Context;
  model: string;
  startedMs: number;
  tools: Map<string, Span>;
  /** The reply text of the current step (only with includeContent). */
  reply: string;
  lastTotalCost: number;
}

export class AgentEventTelemetry {
  private readonly m: Instruments;
  private run: RunTrace | undefined;

  constructor(
    private readonly tracer: Tracer,
    meter: Meter,
    private readonly api: OtelApi,
    private readonly includeContent: boolean,
  ) {
    this.m = instruments(meter);
  }

  /** One event of the agent's stream; never throws (a telemetry fault must not break the run). */
  onEvent(e: AgentEvent): void {
    try {
      this.handle(e);
    } catch {
      /* telemetry is best effort */
    }
  }

  /** A checkpoint restore (the CLI's `patchpilot restore`, the chat's Restore to Here) that wrote files. */
  checkpointRestored(files: number): void {
    this.m.checkpointsRestored.add(1, { 'patchpilot.files': files });
  }

  private handle(e: AgentEvent): void {
    switch (e.type) {
      case 'run/started':
        return this.startRun(e);
      case 'step/started':
        if (this.run) this.run.reply = '';
        return;
      case 'text/delta':
        if (this.run && this.includeContent) this.run.reply += e.text;
        return;
      case 'text/restart':
        if (this.run) this.run.reply = '';
        return;
      case 'tool/started':
        return this.startTool(e);
      case 'tool/finished':
        return this.endTool(e);
      case 'usage':
        return this.recordUsage(e);
      case 'patch/proposed':
        this.m.patchesProposed.add(1, { 'patchpilot.outcome': e.ok ? 'valid' : 'invalid' });
        return;
      case 'patch/applied':
        this.m.patchesApplied.add(1, { 'patchpilot.outcome': e.edited ? 'edited' : 'applied' });
        if (e.hunks.length) this.m.hunks.add(e.hunks.length, { 'patchpilot.hunk.decision': 'accepted' });
        return;
      case 'patch/refused':
        return this.recordRefusal(e);
      case 'test/finished':
        this.m.testRuns.add(1, { 'patchpilot.outcome': e.exitCode === 0 ? 'passed' : e.exitCode === null ? 'error' : 'failed' });
        return;
      case 'run/finished':
        return this.endRun(e);
      default:
        return;
    }
  }

  private startRun(e: Extract<AgentEvent, { type: 'run/started' }>): void {
    if (this.run) this.run.span.end();
    const attributes: Attributes = {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': AGENT_NAME,
      'gen_ai.request.model': e.model,
      'patchpilot.approval.mode': e.mode,
    };
    if (e.runId) attributes['gen_ai.conversation.id'] = e.runId;
    if (this.includeContent) attributes['gen_ai.input.messages'] = messages('user', e.goal);
    const span = this.tracer.startSpan(`invoke_agent ${AGENT_NAME}`, { kind: this.api.spanKindInternal, attributes }, this.api.rootContext);
    const context = this.api.setSpan(this.api.rootContext, span);
    this.run = { span, context, model: e.model, startedMs: Date.now(), tools: new Map(), reply: '', lastTotalCost: 0 };
  }

  private startTool(e: Extract<AgentEvent, { type: 'tool/started' }>): void {
    const run = this.run;
    if (!run) return;
    const attributes: Attributes = {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': e.name,
      'gen_ai.tool.call.id': e.callId,
      'gen_ai.tool.type': 'function',
    };
    if (this.includeContent) attributes['gen_ai.tool.call.arguments'] = JSON.stringify(e.args ?? null);
    run.tools.set(e.callId, this.tracer.startSpan(`execute_tool ${e.name}`, { kind: this.api.spanKindInternal, attributes }, run.context));
  }

  private endTool(e: Extract<AgentEvent, { type: 'tool/finished' }>): void {
    const span = this.run?.tools.get(e.callId);
    if (!span) return;
    this.run!.tools.delete(e.callId);
    if (this.includeContent) span.setAttribute('gen_ai.tool.call.result', e.output);
    if (!e.ok) span.setStatus({ code: this.api.statusError, message: 'the tool call failed' });
    span.end();
  }

  private recordUsage(e: Extract<AgentEvent, { type: 'usage' }>): void {
    const run = this.run;
    const requestModel = e.model ?? run?.model ?? 'unknown';
    const common: Attributes = { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': requestModel };
    if (e.responseModel) common['gen_ai.response.model'] = e.responseModel;
    this.m.tokens.record(e.promptTokens, { ...common, 'gen_ai.token.type': 'input' });
    this.m.tokens.record(e.completionTokens, { ...common, 'gen_ai.token.type': 'output' });
    if (e.durationMs !== undefined) this.m.duration.record(e.durationMs / 1000, common);
    if (e.totalCost !== undefined && run) {
      const spent = e.totalCost - run.lastTotalCost;
      run.lastTotalCost = e.totalCost;
      if (spent > 0) this.m.cost.add(spent, { 'gen_ai.request.model': requestModel });
    }
    // A subagent's totals (no model named) are many requests: counted in the metrics, not one chat span.
    if (!run || !e.model) return;
    const attributes: Attributes = {
      ...common,
      'gen_ai.usage.input_tokens': e.promptTokens,
      'gen_ai.usage.output_tokens': e.completionTokens,
      'patchpilot.model.role': e.role ?? 'reasoning',
    };
    if (e.cachedTokens !== undefined) attributes['gen_ai.usage.cache_read.input_tokens'] = e.cachedTokens;
    if (e.cost !== undefined) attributes['patchpilot.cost_usd'] = e.cost;
    if (this.includeContent && e.role !== 'fast' && run.reply) attributes['gen_ai.output.messages'] = messages('assistant', run.reply);
    const end = Date.now();
    const span = this.tracer.startSpan(`chat ${e.model}`, { kind: this.api.spanKindClient, attributes, startTime: end - (e.durationMs ?? 0) }, run.context);
    span.end(end);
  }

  private recordRefusal(e: Extract<AgentEvent, { type: 'patch/refused' }>): void {
    const rejected = e.hunks.filter((h) => h.state === 'rejected').length;
    const refused = e.hunks.length - rejected;
    this.m.patchesApplied.add(1, { 'patchpilot.outcome': rejected > 0 && refused === 0 ? 'rejected' : 'refused' });
    if (rejected) this.m.hunks.add(rejected, { 'patchpilot.hunk.decision': 'rejected' });
    if (refused) this.m.hunks.add(refused, { 'patchpilot.hunk.decision': 'refused' });
  }

  private endRun(e: Extract<AgentEvent, { type: 'run/finished' }>): void {
    this.m.runs.add(1, { 'patchpilot.run.status': e.status });
    const run = this.run;
    if (!run) return;
    this.run = undefined;
    for (const span of run.tools.values()) span.end();
    const { span } = run;
    span.setAttributes({ 'patchpilot.run.status': e.status, 'patchpilot.run.steps': e.steps });
    if (e.tests) span.setAttribute('patchpilot.tests.outcome', e.tests);
    const usage = e.usage;
    if (usage) {
      span.setAttributes({
        'gen_ai.usage.input_tokens': usage.reasoning.promptTokens + usage.fast.promptTokens,
        'gen_ai.usage.output_tokens': usage.reasoning.completionTokens + usage.fast.completionTokens,
        'gen_ai.usage.cache_read.input_tokens': (usage.reasoning.cachedTokens ?? 0) + (usage.fast.cachedTokens ?? 0),
      });
      if (usage.totalCost !== undefined) span.setAttribute('patchpilot.cost_usd', usage.totalCost);
    }
    if (this.includeContent && e.summary) span.setAttribute('gen_ai.output.messages', messages('assistant', e.summary));
    if (e.status === 'failed' || e.status === 'interrupted') span.setStatus({ code: this.api.statusError, message: e.reason });
    const attributes: Attributes = { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': AGENT_NAME, 'gen_ai.request.model': run.model };
    this.m.duration.record((Date.now() - run.startedMs) / 1000, attributes);
    span.end();
  }
}

/** The GenAI conventions' message shape, as a JSON string attribute. */
function messages(role: 'user' | 'assistant', text: string): string {
  return JSON.stringify([{ role, parts: [{ type: 'text', content: text }] }]);
}
