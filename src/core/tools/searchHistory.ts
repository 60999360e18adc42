import { markAuthorityClaims } from '../context/untrustedNotes';
import { ToolError, ok, type Tool } from './types';

const LIMIT = 10;

interface Args {
  query: string;
  days?: number;
}

export const searchHistoryTool: Tool<Args> = {
  name: 'search_history',
  description: 'Search what earlier runs in this workspace learned (observations, answered questions). days limits to recent runs.',
  schema: {
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1 },
      days: { type: 'integer', minimum: 1 },
    },
    required: ['query'],
    additionalProperties: false,
  },
  readOnly: true,
  async run(args, ctx) {
    if (!ctx.services.history) throw new ToolError('no history database is open');
    const hits = await ctx.services.history.search(args.query, { days: args.days, limit: LIMIT });
    if (hits.length === 0) return ok(`nothing found for "${args.query}"`, { count: 0 });
    const lines = hits.map((h) => {
      const when = new Date(h.time).toISOString().slice(0, 10);
      const where = [h.tool, h.path].filter(Boolean).join(' ');
      return `- [${when}${where ? `, ${where}` : ''}] ${h.text}${h.detail ? `\n    ${h.detail.replace(/\n/g, '\n    ').slice(0, 600)}` : ''}`;
    });
    // Earlier runs' notes were written by a model: a line claiming an approval is marked as carrying none.
    return ok(markAuthorityClaims(lines.join('\n')), { count: hits.length });
  },
};
