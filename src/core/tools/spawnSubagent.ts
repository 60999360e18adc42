import { ToolError, type Tool } from './types';

interface Args {
  task: string;
  tools?: string[];
}

/**
 * Hands a focused task to a subagent: its own context, read-only tools unless `tools` says
 * otherwise, and its final answer as this call's result. Several calls in one reply run at the same time.
 */
export const spawnSubagentTool: Tool<Args> = {
  name: 'spawn_subagent',
  loop: {
    hookName: 'Task',
    spawnsRuns: true,
    notForSubagents: true,
    testsOutcome: (result) => subagentTests(result.data?.tests),
    // Given tools, it may write: one checkpoint around the whole subagent covers what it did.
    changesFiles: (args) => (Array.isArray(args.tools) && args.tools.length > 0 ? 'workspace' : 'none'),
  },
  description:
    'Start a subagent on one self-contained task (research a question, find where something is done, review a file) and get its final answer back. ' +
    'It has its own context (it sees none of this conversation: say everything it needs in the task) and read-only tools unless you list others in tools. ' +
    'Call it several times in one reply to work on independent tasks in parallel.',
  schema: {
    type: 'object',
    properties: {
      task: { type: 'string', minLength: 1, description: 'The complete task, with every fact the subagent needs.' },
      tools: { type: 'array', items: { type: 'string', minLength: 1 }, description: 'Tool names for the subagent (default: the read-only ones).' },
    },
    required: ['task'],
    additionalProperties: false,
  },
  // Offered in plan mode too (a subagent there reads only); parallel unless it is given tools that write.
  readOnly: true,
  parallelSafe(args, available) {
    return !args.tools || args.tools.every((name) => available.readOnly(name));
  },
  async run(args, ctx) {
    if (!ctx.services.subagents) throw new ToolError('subagents are not available here (a subagent cannot start another)');
    // Given tools (which may write), the child could change the tree under the baseline still running: it goes first.
    if (args.tools?.length) await ctx.state.beforeFirstChange?.();
    return ctx.services.subagents.spawn({ task: args.task, ...(args.tools ? { tools: args.tools } : {}) }, ctx.signal);
  },
};

/** The tests' state a subagent left (set only when it edited files or ran tests). */
function subagentTests(value: unknown): 'passed' | 'failed' | 'known-failures' | 'not-run' | undefined {
  return value === 'passed' || value === 'failed' || value === 'known-failures' || value === 'not-run' ? value : undefined;
}
