import { listWorkspaceFiles } from '../git/listFiles';
import type { Matcher } from '../base/wildcard';
import { fileGlob } from './globPattern';
import { ToolError, ok, type Tool } from './types';
import { errorMessage } from '../base';

export const GLOB_MAX_RESULTS = 500;

interface Args {
  pattern: string;
}

export const globTool: Tool<Args> = {
  name: 'glob',
  loop: { worthRemembering: true, hookName: 'Glob' },
  description:
    'Find workspace files by name pattern: "src/**/*.ts", "*.test.ts" (no "/" = any depth), "{a,b}.json". ' +
    `Returns sorted workspace-relative file paths (a folder is matched by the files in it: "src/plugin/utc*/**"), at most ${GLOB_MAX_RESULTS}. ` +
    'Ignored files (.gitignore, .patchpilotignore) are left out.',
  schema: {
    type: 'object',
    properties: { pattern: { type: 'string', minLength: 1 } },
    required: ['pattern'],
    additionalProperties: false,
  },
  readOnly: true,
  async run(args, ctx) {
    let re: Matcher;
    try {
      re = fileGlob(args.pattern);
    } catch (err) {
      throw new ToolError(errorMessage(err));
    }
    const listing = await listWorkspaceFiles(ctx.root, { rules: ctx.workspace.ignore, signal: ctx.signal });
    const matches = listing.files.filter((f) => re.test(f));
    if (matches.length === 0) return ok(`no files match ${args.pattern}`, { count: 0 });
    const shown = matches.slice(0, GLOB_MAX_RESULTS);
    const more = matches.length > shown.length ? `\n[... ${matches.length - shown.length} more; narrow the pattern]` : '';
    return ok(`${shown.join('\n')}${more}`, { count: matches.length });
  },
};
