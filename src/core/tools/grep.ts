import { pathPolicyOf, resolveWorkspacePath } from './paths';
import { grepWithJs } from './grepJs';
import { findRipgrep, grepWithRipgrep } from './grepRipgrep';
import { fileGlob } from './globPattern';
import { ToolError, ok, type Tool } from './types';
import type { GrepQuery } from './grepTypes';
import { errorMessage } from '../base';

export const GREP_MAX_MATCHES = 200;

interface Args {
  pattern: string;
  path?: string;
  include?: string;
}

export const grepTool: Tool<Args> = {
  name: 'grep',
  loop: { worthRemembering: true, hookName: 'Grep' },
  description:
    'Search file contents with a regular expression. Returns "path:line: text" lines, sorted by path, ' +
    `at most ${GREP_MAX_MATCHES}. path limits the search to a file or directory; include filters file names by glob ("*.ts"). ` +
    'Ignored files (.gitignore, .patchpilotignore) are not searched.',
  schema: {
    type: 'object',
    properties: {
      pattern: { type: 'string', minLength: 1 },
      path: { type: 'string' },
      include: { type: 'string' },
    },
    required: ['pattern'],
    additionalProperties: false,
  },
  readOnly: true,
  async run(args, ctx) {
    const scope = await resolveWorkspacePath(ctx, args.path ?? '.', 'search');
    let include;
    try {
      include = args.include ? fileGlob(args.include) : undefined;
    } catch (err) {
      throw new ToolError(`include: ${errorMessage(err)}`);
    }
    const query: GrepQuery = {
      root: ctx.root,
      fs: ctx.fs,
      pattern: args.pattern,
      path: scope.rel,
      include,
      maxMatches: GREP_MAX_MATCHES,
      rules: ctx.workspace.ignore,
      signal: ctx.signal,
    };
    const rg = findRipgrep();
    const outcome = rg ? await grepWithRipgrep(rg, query) : await grepWithJs(query);
    outcome.matches = await withoutHiddenTwins(ctx, outcome.matches);
    if (outcome.matches.length === 0) return ok(`no matches for /${args.pattern}/`, { count: 0, engine: outcome.engine });
    const lines = outcome.matches.map((m) => `${m.path}:${m.line}: ${m.text}`);
    const more = outcome.truncated ? `\n[... stopped at ${GREP_MAX_MATCHES} matches; narrow the pattern, path or include]` : '';
    return ok(lines.join('\n') + more, { count: outcome.matches.length, truncated: outcome.truncated, engine: outcome.engine });
  },
};

/**
 * (attacks.guard) a searched file may be another name (hard link) of an ignored one; the search engines judge
 * names only. Each file with matches is checked by the path policy, which looks at the inode, and
 * its matches are dropped when the policy would not let read_file read it either.
 */
async function withoutHiddenTwins<M extends { path: string }>(ctx: Parameters<Tool['run']>[1], matches: M[]): Promise<M[]> {
  const verdicts = new Map<string, boolean>();
  for (const file of new Set(matches.map((m) => m.path))) {
    const decision = await pathPolicyOf(ctx).check(file, 'read');
    verdicts.set(file, decision.verdict !== 'deny');
  }
  return matches.filter((m) => verdicts.get(m.path));
}
