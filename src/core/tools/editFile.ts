/**
 * edit_file: exact string replacement, the edit tool models are trained on (Claude Code's Edit,
 * Cline's and Codex's replace tools), with several edits to one file in one call. It is not a
 * second write path: the edits are matched here, the unified diff is derived, and that diff goes
 * through propose_patch's steps (dry run, review per hunk, PatchManager, history) unchanged.
 */
import { applyStringEdits, deriveUnifiedDiff, type StringEdit } from '../patch';
import { resolveWorkspacePath } from './paths';
import { proposeUnifiedPatch } from './proposePatch';
import { ToolError, type PatchData, type Tool, type ToolContext, type ToolResult } from './types';

interface EditArgs {
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

interface Args extends Partial<EditArgs> {
  path: string;
  edits?: EditArgs[];
}

// The description says what each field means; repeating it per property (twice, with edits) costs every request tokens.
const editProperties = { old_string: { type: 'string' }, new_string: { type: 'string' }, replace_all: { type: 'boolean' } };

export const editFileTool: Tool<Args, PatchData> = {
  name: 'edit_file',
  loop: {
    hookName: 'Edit',
    planModeDryRun: true,
    patchOf: (_args, result) => (result.data?.patch ? { text: result.data.patch, data: result.data } : undefined),
    changesFiles: (args) => (typeof args.path === 'string' ? [args.path] : 'none'),
  },
  description:
    'Change an existing file by exact string replacement: old_string becomes new_string. Copy old_string exactly from ' +
    'the file (indentation included, without read_file line numbers); it must occur exactly once, so include enough ' +
    'surrounding lines to make it unique, or set replace_all to change every occurrence. For several changes to one file, ' +
    'pass edits: [{old_string, new_string, replace_all?}, ...], applied in order. The change is shown to the user as a ' +
    'patch and reviewed hunk by hunk like propose_patch. Example: {"path": "src/math.js", "old_string": "  return a - b;", ' +
    '"new_string": "  return a + b;"}',
  schema: {
    type: 'object',
    properties: {
      path: { type: 'string', minLength: 1 },
      ...editProperties,
      edits: {
        type: 'array',
        minItems: 1,
        items: { type: 'object', properties: editProperties, required: ['old_string', 'new_string'], additionalProperties: false },
      },
    },
    required: ['path'],
    additionalProperties: false,
  },
  readOnly: false,
  async run(args, ctx) {
    const edits = editsOf(args);
    const target = await resolveWorkspacePath(ctx, args.path, 'write');
    const text = await currentText(ctx, args.path, target.rel);
    const edited = applyStringEdits(text, edits);
    if (!edited.ok) throw new ToolError(`${target.rel}: ${edited.message}`);
    const patch = deriveUnifiedDiff(target.rel, edited.before, edited.after);
    const result: ToolResult<PatchData> = await proposeUnifiedPatch(patch, ctx);
    return { ...result, data: { ...result.data, patch } };
  },
};

/** One edit from the top-level fields, or the `edits` list; never both. */
function editsOf(args: Args): StringEdit[] {
  const single = args.old_string !== undefined || args.new_string !== undefined || args.replace_all !== undefined;
  if (args.edits && single) throw new ToolError('pass either old_string/new_string or edits, not both');
  if (args.edits) return args.edits.map(toEdit);
  if (args.old_string === undefined || args.new_string === undefined) throw new ToolError('old_string and new_string are required (or edits)');
  return [toEdit(args as EditArgs)];
}

function toEdit(e: EditArgs): StringEdit {
  return { oldString: e.old_string, newString: e.new_string, ...(e.replace_all ? { replaceAll: true } : {}) };
}

/** The file as the host sees it (an unsaved editor buffer in VS Code), which is what the engine will patch. */
async function currentText(ctx: ToolContext, input: string, rel: string): Promise<string> {
  const st = await ctx.fs.stat(rel);
  if (!st.exists) throw new ToolError(`${input} does not exist; create it with write_file`);
  if (st.type === 'directory') throw new ToolError(`${input} is a directory`);
  return Buffer.from(await ctx.fs.readFile(rel)).toString('utf8');
}
