/**
 * The parts that let the benchmark see the orchestrator alone: an in-process model that answers
 * at once, no-op tools, and a meter that splits each step's wall time into model, tools and the
 * rest (the loop's own work: conversation, events, history writes, bookkeeping).
 */
import { performance } from 'node:perf_hooks';
import type { ChatModel } from '../../src/core/ports';
import type { ChatRequest, ModelTurn } from '../../src/core/llm/types';
import { ToolRegistry } from '../../src/core/tools/registry';
import { ok, type Tool, type ToolContext, type ToolResult } from '../../src/core/tools/types';
import type { AgentEvent } from '../../src/protocol/agentEvents';

/** Step i asks for read_file or grep (alternating); step `steps` + 1 calls finish. `latencyMs` simulates a model's think time. */
export function instantModel(steps: number, latencyMs = 0): ChatModel {
  let step = 0;
  return {
    modelFor: () => 'instant-model',
    contextWindow: () => ({ tokens: 1_000_000, known: true }),
    async streamChatWithRecovery(req: ChatRequest): Promise<ModelTurn> {
      await (latencyMs > 0 ? new Promise((r) => setTimeout(r, latencyMs)) : Promise.resolve());
      const i = step++;
      const call =
        i >= steps
          ? { id: `c${i}`, name: 'finish', argumentsJson: JSON.stringify({ summary: 'done' }) }
          : i % 2
            ? { id: `c${i}`, name: 'grep', argumentsJson: JSON.stringify({ pattern: `needle${i % 17}` }) }
            : { id: `c${i}`, name: 'read_file', argumentsJson: JSON.stringify({ path: `src/f${i % 40}.ts` }) };
      req.onEvent?.({ type: 'text-delta', text: 'Looking.' });
      return {
        role: req.role,
        model: 'instant-model',
        text: 'Looking.',
        toolCalls: [call],
        invalidToolCalls: [],
        finishReason: 'tool_calls',
        rawFinishReason: 'tool_calls',
        usage: { promptTokens: 1000, completionTokens: 20, estimated: false },
        attempts: 1,
      };
    },
  };
}

const object = { type: 'object' as const, properties: {}, additionalProperties: true };
const noop = (name: string, output: (args: Record<string, unknown>) => string): Tool<any> => ({
  name,
  description: `no-op ${name}`,
  schema: object,
  readOnly: true,
  async run(args) {
    return ok(output(args));
  },
});

/** Tools with the real names that do nothing: read_file and grep return ~600 characters, finish its summary. */
export function noopTools(): ToolRegistry {
  const body = Array.from({ length: 12 }, (_, i) => `${i + 1}\texport const value${i} = compute(${i}); // bench line`).join('\n');
  return new ToolRegistry([
    noop('read_file', (a) => `${String(a.path)} (12 lines)\n${body}`),
    noop('grep', (a) => Array.from({ length: 8 }, (_, i) => `src/f${i}.ts:${i + 3}: const ${String(a.pattern)} = lookup(${i}); // match`).join('\n')),
    { ...noop('finish', (a) => String(a.summary)), readOnly: false },
  ]);
}

export interface StepTimes {
  wall: number[];
  model: number[];
  tools: number[];
  /** wall - model - tools: the orchestrator's own time. */
  own: number[];
}

/**
 * Wraps a model and a registry so that time inside them is charged to the current step, and
 * turns step/started .. next step/started (or run/finished) into per-step wall time.
 */
export class StepMeter {
  private starts: number[] = [];
  private model: number[] = [];
  private tools: number[] = [];
  private end = 0;

  wrapModel(inner: ChatModel): ChatModel {
    return {
      modelFor: (r) => inner.modelFor(r),
      contextWindow: (r) => inner.contextWindow(r),
      streamChatWithRecovery: async (req) => {
        const t0 = performance.now();
        try {
          return await inner.streamChatWithRecovery(req);
        } finally {
          this.charge(this.model, performance.now() - t0);
        }
      },
    };
  }

  wrapTools(inner: ToolRegistry): ToolRegistry {
    const charge = (ms: number) => this.charge(this.tools, ms);
    const wrapped = Object.create(inner) as ToolRegistry;
    wrapped.invoke = async (name: string, args: unknown, ctx: ToolContext): Promise<ToolResult> => {
      const t0 = performance.now();
      try {
        return await inner.invoke(name, args, ctx);
      } finally {
        charge(performance.now() - t0);
      }
    };
    return wrapped;
  }

  onEvent = (e: AgentEvent): void => {
    if (e.type === 'step/started') this.starts.push(performance.now());
    else if (e.type === 'run/finished') this.end = performance.now();
  };

  /** From the first step's start to the end of the run: the loop, without the run's set-up. */
  get firstStepAt(): number {
    return this.starts[0] ?? this.end;
  }

  get loopSeconds(): number {
    return (this.end - (this.starts[0] ?? this.end)) / 1000;
  }

  times(): StepTimes {
    const wall = this.starts.map((t, i) => (this.starts[i + 1] ?? this.end) - t);
    const model = wall.map((_, i) => this.model[i] ?? 0);
    const tools = wall.map((_, i) => this.tools[i] ?? 0);
    // The last step ends the run: its wall time includes closing work (memory, history finish), not a step's.
    const own = wall.map((w, i) => w - model[i]! - tools[i]!).slice(0, -1);
    return { wall, model, tools, own };
  }

  private charge(list: number[], ms: number): void {
    const i = this.starts.length - 1;
    list[i] = (list[i] ?? 0) + ms;
  }
}

export const percentile = (xs: readonly number[], p: number): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

/** The longest gap between ticks of a 1 ms interval: how long the event loop was blocked. */
export function loopBlockProbe(): () => number {
  let last = performance.now();
  let max = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    max = Math.max(max, now - last);
    last = now;
  }, 1);
  return () => {
    clearInterval(timer);
    return max;
  };
}
