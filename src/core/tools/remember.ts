import { errorMessage } from '../base/errors';
import { MAX_FACT_CHARS, MEMORY_FILE, cleanFact, rememberFact } from '../context/memory/memoryFiles';
import { ToolError, ok, type Tool } from './types';

interface Args {
  fact: string;
}

/**
 * Keeps a lasting fact in `.patchpilot/MEMORY.md` (context/memory). What it writes reaches every
 * later prompt, so it is a write like any other: asked in `ask` mode, refused in plan mode.
 */
export const rememberTool: Tool<Args> = {
  name: 'remember',
  // Writes the state folder's MEMORY.md only, which checkpoints leave out.
  loop: { changesFiles: () => 'none' },
  description:
    `Save one lasting fact about this workspace for later runs (a build or test quirk, a convention, where something lives, a preference the user stated). ` +
    `It is added to ${MEMORY_FILE}, which every later prompt includes and the user edits. One or two sentences; not for notes on the current task.`,
  schema: {
    type: 'object',
    properties: { fact: { type: 'string', minLength: 1, maxLength: MAX_FACT_CHARS * 2 } },
    required: ['fact'],
    additionalProperties: false,
  },
  readOnly: false,
  async run(args, ctx) {
    let fact: string;
    try {
      fact = cleanFact(args.fact);
    } catch (err) {
      throw new ToolError(errorMessage(err));
    }
    const reason = `adds a line to ${MEMORY_FILE}, which every later prompt includes`;
    await ctx.ask({ kind: 'write', title: `remember: ${fact}`, reason }, { verdict: 'allow', rule: 'allow:memory', reason });
    const outcome = await rememberFact(ctx.root, fact, { goal: ctx.state.goal }).catch((err: unknown) => {
      throw new ToolError(`not remembered: ${errorMessage(err)}`);
    });
    switch (outcome.status) {
      case 'added':
        return ok(`remembered in ${MEMORY_FILE} (journal: ${outcome.notesFile})`, { status: outcome.status });
      case 'present':
        return ok(`already in ${MEMORY_FILE}; nothing written`, { status: outcome.status });
      case 'deleted-by-user':
        throw new ToolError(`not remembered: the user deleted this fact from ${MEMORY_FILE} after it was saved on ${outcome.day}, so it stays deleted`);
    }
  },
};
