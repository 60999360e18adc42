import { resolveWorkspacePath } from './paths';
import { ToolError, ok, type Tool, type ToolContext } from './types';
import type { WorkspaceDirEntry } from '../ports';

export const LIST_MAX_ENTRIES = 500;
const MAX_DEPTH = 6;

interface Args {
  path?: string;
  depth?: number;
}

export const listDirTool: Tool<Args> = {
  name: 'list_dir',
  loop: { hookName: 'LS' },
  description:
    'List a workspace directory as a tree (directories end with "/"). depth 1 lists only the directory itself; default 2. ' +
    'Files ignored by .gitignore or .patchpilotignore are left out.',
  schema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Workspace-relative directory; default the workspace root' },
      depth: { type: 'integer', minimum: 1, maximum: MAX_DEPTH },
    },
    additionalProperties: false,
  },
  readOnly: true,
  async run(args, ctx) {
    const target = await resolveWorkspacePath(ctx, args.path ?? '.', 'list');
    const info = await ctx.fs.stat(target.rel).catch(() => undefined);
    if (!info?.exists) throw new ToolError(`${args.path}: no such directory`);
    if (info.type !== 'directory') throw new ToolError(`${args.path} is a file; use read_file`);
    const lines: string[] = [];
    const state = { count: 0, truncated: false };
    await walk(ctx, target.rel, args.depth ?? 2, '', lines, state);
    const title = target.rel === '' ? './' : `${target.rel}/`;
    if (lines.length === 0) return ok(`${title} (empty)`);
    const more = state.truncated ? `\n[... listing stopped at ${LIST_MAX_ENTRIES} entries; list a subdirectory or use glob]` : '';
    return ok(`${title}\n${lines.join('\n')}${more}`, { entries: state.count, truncated: state.truncated });
  },
};

async function walk(
  ctx: ToolContext,
  rel: string,
  depth: number,
  indent: string,
  lines: string[],
  state: { count: number; truncated: boolean },
): Promise<void> {
  // A link is listed as a link, never followed (the port's entry types are the link's own).
  const entries = await ctx.fs.list(rel).catch(() => []);
  const isDirectory = (e: WorkspaceDirEntry) => e.type === 'directory' && !e.symlink;
  entries.sort((a, b) => Number(isDirectory(b)) - Number(isDirectory(a)) || (a.name < b.name ? -1 : 1));
  for (const entry of entries) {
    ctx.signal.throwIfAborted();
    const childRel = rel ? `${rel}/${entry.name}` : entry.name;
    const isDir = isDirectory(entry);
    if (ctx.workspace.ignore.isGitIgnored(childRel, isDir) || ctx.workspace.ignore.isAgentIgnored(childRel, isDir)) continue;
    if (state.count >= LIST_MAX_ENTRIES) {
      state.truncated = true;
      return;
    }
    state.count++;
    const suffix = isDir ? '/' : entry.symlink ? ' -> (link)' : '';
    lines.push(`${indent}${entry.name}${suffix}`);
    if (isDir && depth > 1) await walk(ctx, childRel, depth - 1, indent + '  ', lines, state);
  }
}
