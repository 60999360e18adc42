/**
 * propose_patch: check (path policy, dry run) -> ask (the review, when the mode or a path asks) ->
 * apply (the engine, the run's changed files, the after-write hook) -> describe (patchOutcome.ts,
 * the one place that words the result). Each step either hands the next what it needs or ends the
 * call with a PatchOutcome.
 */
import { parsePatch } from '../patch/parse';
import type { PatchEngine } from '../ports';
import { applyPatch } from './patchApply';
import { checkPatch } from './patchCheck';
import { describePatch, type PatchOutcome } from './patchOutcome';
import { reviewPatch } from './patchReview';
import { ToolError, type PatchData, type Tool, type ToolContext, type ToolResult } from './types';

interface Args {
  patch: string;
}

export const proposePatchTool: Tool<Args, PatchData> = {
  name: 'propose_patch',
  loop: {
    hookName: 'Edit',
    planModeDryRun: true,
    patchOf: (args, result) => (typeof args.patch === 'string' ? { text: args.patch, data: result.data } : undefined),
    changesFiles: (args) => patchPaths(args.patch),
  },
  description:
    'Change files with a patch: a unified diff (preferred; ---/+++ headers and @@ hunks with 3 lines of context), an apply_patch ' +
    'envelope (*** Begin Patch), or SEARCH/REPLACE blocks. Paths are workspace-relative. The patch is checked first; every hunk ' +
    'must match the current file exactly or it is refused with the reason. The user may accept some hunks and reject others; ' +
    'the result lists applied and rejected hunks, and what the engine forgave. Read the file before patching it. For a ' +
    'change by exact text, edit_file is simpler. Example: "--- a/src/math.js\\n+++ b/src/math.js\\n@@ -1,3 +1,3 @@\\n ' +
    'function add(a, b) {\\n-  return a - b;\\n+  return a + b;\\n }\\n"',
  schema: {
    type: 'object',
    properties: { patch: { type: 'string', minLength: 1 } },
    required: ['patch'],
    additionalProperties: false,
  },
  readOnly: false,
  run: (args, ctx) => proposeUnifiedPatch(args.patch, ctx),
};

/** The one write path of every edit tool: a patch text in, the outcome worded for the model (edit_file derives its diff and comes here too). */
export async function proposeUnifiedPatch(patch: string, ctx: ToolContext): Promise<ToolResult<PatchData>> {
  if (!ctx.services.patches) throw new ToolError('patching is not available in this host');
  return describePatch(await propose(patch, ctx, ctx.services.patches), patch);
}

async function propose(patch: string, ctx: ToolContext, engine: PatchEngine): Promise<PatchOutcome> {
  const checked = await checkPatch(patch, ctx, engine);
  if (checked.kind !== 'checked') return checked;
  if (ctx.ask.planOnly) return { kind: 'planned', preview: checked.preview };
  const review = await reviewPatch(patch, checked, ctx);
  if ('kind' in review) return review;
  return applyPatch(patch, checked, review, ctx, engine);
}

/** The paths a patch names (both sides of a rename); nothing when it does not parse (then nothing is applied). */
function patchPaths(patch: unknown): readonly string[] | 'none' {
  if (typeof patch !== 'string') return 'none';
  const parsed = parsePatch(patch);
  if (!parsed.ok) return 'none';
  return [...new Set(parsed.value.files.flatMap((f) => [f.oldPath, f.newPath]).filter((p): p is string => !!p))];
}
