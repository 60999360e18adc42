import { resolveWorkspacePath } from './paths';
import { headTail } from '../base/truncate';
import { ToolError, ok, type Tool } from './types';

export const WRITE_MAX_BYTES = 1024 * 1024;

interface Args {
  path: string;
  content: string;
}

export const writeFileTool: Tool<Args> = {
  name: 'write_file',
  loop: { changesFiles: (args) => (typeof args.path === 'string' ? [args.path] : 'none'), hookName: 'Write' },
  description:
    'Create a new file with the given content (parent directories are created). Overwriting an existing file needs the ' +
    "user's approval: to change a file, use edit_file or propose_patch instead.",
  schema: {
    type: 'object',
    properties: {
      path: { type: 'string', minLength: 1 },
      content: { type: 'string' },
    },
    required: ['path', 'content'],
    additionalProperties: false,
  },
  readOnly: false,
  async run(args, ctx) {
    if (Buffer.byteLength(args.content) > WRITE_MAX_BYTES) throw new ToolError(`content is over ${WRITE_MAX_BYTES} bytes`);
    const target = await resolveWorkspacePath(ctx, args.path, 'write');
    // The host's view: an unsaved editor buffer is what the user sees, so it is what an overwrite replaces.
    const st = await ctx.fs.stat(target.rel);
    if (st.exists && st.type === 'directory') throw new ToolError(`${args.path} is a directory`);
    const old = st.exists ? Buffer.from(await ctx.fs.readFile(target.rel)).toString('utf8') : undefined;
    if (old === args.content) return ok(`${target.rel} already has this content; nothing written`);

    const overwrite = old !== undefined;
    // An overwrite always asks: it replaces work the model may not have read in full.
    const decision = overwrite
      ? { verdict: 'ask' as const, rule: 'ask:overwrite', reason: `${target.rel} exists; write_file would replace all ${old!.split('\n').length} lines` }
      : target.decision;
    const { feedback } = await ctx.ask(
      { kind: 'write', title: `${overwrite ? 'overwrite' : 'create'} ${target.rel}`, reason: decision.reason, detail: headTail(args.content, 4000).text },
      decision,
      { edit: true },
    );
    // The port's write is the one confined commit (policy/path/confinedCommit.ts): it walks the path again from the
    // root without following links, so a link swapped in after the check fails the write (attacks.paths).
    await ctx.state.beforeFirstChange?.();
    ctx.state.beforeWrite?.([target.rel]);
    await ctx.fs.writeFile(target.rel, args.content);
    ctx.state.changedFiles.add(target.rel);
    const lines = args.content === '' ? 0 : args.content.split('\n').length - (args.content.endsWith('\n') ? 1 : 0);
    let output = `${overwrite ? 'overwrote' : 'created'} ${target.rel} (${lines} lines)`;
    if (feedback) output += `\nThe user said: ${feedback}`;
    const after = await ctx.state.afterWrite?.([target.rel], output);
    if (after) output += `\n${after}`;
    return ok(output, { path: target.rel, created: !overwrite });
  },
};
