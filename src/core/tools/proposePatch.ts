import type { ApplyResult, HunkResult } from '../patch/types';
import { parsePatch } from '../patch/parse';
import { undoKeyOf } from '../patch/undoKey';
import { pathPolicyOf } from './paths';
import { ToolError, fail, ok, type Tool, type ToolContext } from './types';
import type { PolicyDecision } from '../policy/types';

interface Args {
  patch: string;
}

export const proposePatchTool: Tool<Args> = {
  name: 'propose_patch',
  loop: { planModeDryRun: true, patchOf: (args) => (typeof args.patch === 'string' ? args.patch : undefined) },
  description:
    'Change files with a patch: a unified diff (preferred; ---/+++ headers and @@ hunks with 3 lines of context), an apply_patch ' +
    'envelope (*** Begin Patch), or SEARCH/REPLACE blocks. Paths are workspace-relative. The patch is checked first; every hunk ' +
    'must match the current file exactly or it is refused with the reason. The user may accept some hunks and reject others; ' +
    'the result lists applied and rejected hunks. Read the file before patching it.',
  schema: {
    type: 'object',
    properties: { patch: { type: 'string', minLength: 1 } },
    required: ['patch'],
    additionalProperties: false,
  },
  readOnly: false,
  async run(args, ctx) {
    if (!ctx.patches) throw new ToolError('patching is not available in this host');
    // The path policy goes first: the dry run reads the target files, and its refusal quotes the
    // nearest lines it found, which would show the model an ignored file such as .env (attacks.paths).
    const parsed = parsePatch(args.patch);
    const early = parsed.ok
      ? await checkPaths(ctx, [...new Set(parsed.value.files.flatMap((f) => [f.oldPath, f.newPath]).filter((p): p is string => !!p))])
      : [];
    const deniedEarly = early.filter((d) => d.decision.verdict === 'deny');
    if (deniedEarly.length) return fail(`patch refused, nothing was changed:\n${deniedEarly.map((d) => `  ${d.path}: ${d.decision.reason}`).join('\n')}`);
    const preview = await ctx.patches.apply(args.patch, { dryRun: true });
    ctx.emit?.({ type: 'patch-proposed', preview });
    const hunks = allHunks(preview);
    if (!preview.ok || hunks.length === 0) {
      // All or nothing for the engine: half a patch leaves code the model did not intend.
      return fail(`patch refused, nothing was changed.\n${preview.error ?? describeRefusals(preview) ?? 'the patch contains no hunks'}`, { preview });
    }

    const paths = touchedPaths(preview);
    const checked = new Map(early.map((d) => [d.path, d]));
    const decisions = [
      ...early.filter((d) => paths.includes(d.path)),
      ...(await checkPaths(
        ctx,
        paths.filter((p) => !checked.has(p)),
      )),
    ];
    const denied = decisions.filter((d) => d.decision.verdict === 'deny');
    if (denied.length)
      return fail(`patch refused, nothing was changed:\n${denied.map((d) => `  ${d.path}: ${d.decision.reason}`).join('\n')}`, {
        preview,
        denied: denied.map((d) => ({ path: d.path, reason: d.decision.reason })),
      });
    if (ctx.mode === 'plan') return ok(`plan mode: the patch applies cleanly but was NOT applied.\n${listHunks(hunks)}`, { preview, planned: true });

    const asks = decisions.filter((d) => d.decision.verdict === 'ask');
    let accepted = hunks.map((h) => h.id);
    let feedback: string | undefined;
    let reasons: Readonly<Record<string, string>> = {};
    let edited: string | undefined;
    if (ctx.mode === 'ask' || asks.length > 0) {
      ctx.emit?.({ type: 'approval-needed', request: { kind: 'patch', title: `apply a patch to ${paths.join(', ')}`, hunks: accepted } });
      const answer = await ctx.approver.approvePatch({ patchText: args.patch, preview }, ctx.signal);
      if (answer.unattended !== undefined) {
        ctx.emit?.({ type: 'approval-answered', kind: 'patch', approved: false, accepted: [], unattended: true, edit: true });
        const why = asks.length
          ? `\nIt needed approval:\n${asks.map((d) => `  ${d.path} (${d.decision.rule}): ${d.decision.reason}`).join('\n')}`
          : `\nIt needed approval: ${ctx.mode} mode asks before every patch.`;
        return fail(`nobody could approve the patch, so nothing was changed: ${answer.unattended}${why}`, { preview, applied: [], unattended: true });
      }
      const known = new Set(accepted);
      accepted = answer.acceptedHunks.filter((id) => known.has(id));
      feedback = answer.feedback;
      reasons = answer.hunkReasons ?? {};
      edited = answer.editedPatch?.trim() ? answer.editedPatch : undefined;
      const rejectedIds = [...known].filter((id) => !accepted.includes(id));
      const rejected = rejectedIds.map((id) => (reasons[id] ? { id, reason: reasons[id] } : { id }));
      ctx.emit?.({
        type: 'approval-answered',
        kind: 'patch',
        approved: accepted.length > 0 || !!edited,
        accepted,
        total: known.size,
        ...(rejected.length ? { rejected } : {}),
        ...(edited ? { edited: true } : {}),
      });
    }
    const said = feedback ? `\nThe user said: ${feedback}` : '';
    const why = asks.length ? `\nIt needed approval:\n${asks.map((d) => `  ${d.path} (${d.decision.rule}): ${d.decision.reason}`).join('\n')}` : '';
    const rejectedList = (ids: string[]) => ids.map((id) => `  ${id}${reasons[id] ? `: ${reasons[id]}` : ''}`).join('\n');
    if (accepted.length === 0 && !edited) {
      const rejectedIds = hunks.map((h) => h.id);
      const withReasons = rejectedIds.some((id) => reasons[id]) ? `\nrejected hunks:\n${rejectedList(rejectedIds)}` : '';
      return fail(`the user rejected the patch; nothing was changed.${withReasons}${said}${why}`, {
        preview,
        applied: [],
        ...(Object.keys(reasons).length ? { hunkReasons: reasons } : {}),
      });
    }
    if (edited) {
      // The user's own version of the change (typed into the review) is what gets written; it may only touch the files already checked.
      const editedParsed = parsePatch(edited);
      const outside = editedParsed.ok
        ? editedParsed.value.files.flatMap((f) => [f.oldPath, f.newPath]).filter((p): p is string => !!p && !paths.includes(p))
        : [];
      if (!editedParsed.ok || outside.length)
        return fail(
          `the user's edited version could not be applied${outside.length ? ` (it touches ${outside.join(', ')})` : ''}; nothing was changed.${said}`,
          { preview },
        );
    }

    const reviewed = ctx.mode === 'ask' || asks.length > 0;
    const result = edited ? await ctx.patches.apply(edited, { reviewed }) : await ctx.patches.apply(args.patch, { acceptedHunks: new Set(accepted), reviewed });
    if (!result.ok) {
      // The files changed between the preview and the apply (an editor save): the engine wrote nothing.
      return fail(`patch refused when applying, nothing was changed.\n${result.error ?? describeRefusals(result) ?? ''}`, { preview, result });
    }
    const applied = allHunks(result).filter((h) => h.status === 'applied');
    const rejected = edited ? hunks.filter((h) => !accepted.includes(h.id)) : allHunks(result).filter((h) => h.status === 'rejected');
    const changed = touchedPaths({
      ...result,
      files: result.files.filter((f) => f.status === 'ok' && (f.hunks.length === 0 || f.hunks.some((h) => h.status === 'applied'))),
    });
    for (const p of changed) ctx.run.changedFiles.add(p);
    ctx.emit?.({
      type: 'patch-applied',
      files: changed,
      hunks: applied,
      total: hunks.length,
      edited: !!edited,
      ...(result.reversePatch.trim() ? { undoKey: undoKeyOf(result.reversePatch) } : {}),
    });

    let output = edited
      ? `the user edited the change before accepting it; this is what was written to ${changed.join(', ')} (a diff from the files as they were):\n${edited.trimEnd()}`
      : `applied ${applied.length} hunk${applied.length === 1 ? '' : 's'} to ${changed.join(', ')}`;
    if (applied.length && !edited) output += `\n${listHunks(applied)}`;
    if (rejected.length) output += `\nrejected by the user (not applied):\n${rejectedList(rejected.map((h) => h.id))}`;
    output += said;
    const after = await ctx.run.afterWrite?.(changed, `patch to ${changed.join(', ')}`);
    if (after) output += `\n\n${after}`;
    return ok(output, {
      preview,
      result,
      applied: applied.map((h) => h.id),
      rejected: rejected.map((h) => h.id),
      files: changed,
      ...(edited ? { editedPatch: edited } : {}),
      ...(Object.keys(reasons).length ? { hunkReasons: reasons } : {}),
    });
  },
};

function allHunks(r: ApplyResult): HunkResult[] {
  return r.files.flatMap((f) => f.hunks);
}

function touchedPaths(r: ApplyResult): string[] {
  return [...new Set(r.files.flatMap((f) => [f.oldPath, f.newPath]).filter((p): p is string => !!p))];
}

async function checkPaths(ctx: ToolContext, paths: string[]): Promise<{ path: string; decision: PolicyDecision }[]> {
  const out: { path: string; decision: PolicyDecision }[] = [];
  const policy = pathPolicyOf(ctx);
  for (const p of paths) {
    const decision = await policy.check(p, 'write');
    out.push({ path: p, decision });
    if (decision.verdict !== 'allow') ctx.emit?.({ type: 'policy', kind: 'path', subject: p, decision });
  }
  return out;
}

function listHunks(hunks: HunkResult[]): string {
  return hunks
    .map((h) => {
      const where = h.range ? ` at lines ${h.range.start}-${Math.max(h.range.start, h.range.end)}` : '';
      const how = h.strategy && h.strategy !== 'exact' ? ` (matched: ${h.strategy})` : '';
      return `  ${h.id}${where}${how}`;
    })
    .join('\n');
}

function describeRefusals(r: ApplyResult): string | undefined {
  const lines = r.files.flatMap((f) => [
    ...(f.reason ? [`${f.newPath ?? f.oldPath}: ${f.reason}`] : []),
    ...f.hunks.filter((h) => h.status === 'refused').map((h) => `${h.id}: ${h.reason ?? 'refused'}`),
  ]);
  return lines.length ? lines.join('\n') : undefined;
}
