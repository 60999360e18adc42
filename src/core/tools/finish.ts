import { ok, type Tool } from './types';

interface Args {
  summary: string;
}

/** Ends the run. The orchestrator stops after this call; the summary is the run's answer. */
export const finishTool: Tool<Args> = {
  name: 'finish',
  loop: { endsRun: true },
  description: 'Call when the goal is done (or cannot be done): summarize what changed, how it was verified, and anything left open.',
  schema: {
    type: 'object',
    properties: { summary: { type: 'string', minLength: 1 } },
    required: ['summary'],
    additionalProperties: false,
  },
  readOnly: true,
  async run(args) {
    return ok(args.summary, { finished: true });
  },
};
