/**
 * propose_patch's first step: the path policy on every path the patch names, the engine's dry run,
 * and the policy on what the dry run says it touches. Ends the call (a PatchOutcome) when a path is
 * denied or the engine refuses; otherwise says what the review must cover.
 */
import type { ApplyResult, HunkResult } from '../patch/types';
import { parsePatch } from '../patch/parse';
import type { PatchEngine } from '../ports';
import { pathPolicyOf } from './paths';
import { allHunks, touchedPaths, type PatchOutcome, type PathVerdict } from './patchOutcome';
import type { ToolContext } from './types';

/** A patch the dry run accepts and the policy allows or asks for. */
export interface CheckedPatch {
  kind: 'checked';
  preview: ApplyResult;
  hunks: HunkResult[];
  /** Every path the dry run touches. */
  paths: string[];
  /** The policy's verdict on each of them. */
  decisions: PathVerdict[];
}

export async function checkPatch(patch: string, ctx: ToolContext, engine: PatchEngine): Promise<CheckedPatch | PatchOutcome> {
  // The path policy goes first: the dry run reads the target files, and its refusal quotes the
  // nearest lines it found, which would show the model an ignored file such as .env (attacks.paths).
  const parsed = parsePatch(patch);
  const early = parsed.ok ? await checkPaths(ctx, touchedPaths(parsed.value.files)) : [];
  const deniedEarly = denied(early);
  if (deniedEarly.length) return { kind: 'denied', denied: deniedEarly };
  const preview = await engine.apply(patch, { dryRun: true });
  ctx.emit?.({ type: 'patch-proposed', preview });
  const hunks = allHunks(preview);
  // All or nothing for the engine: half a patch leaves code the model did not intend.
  if (!preview.ok || hunks.length === 0) return { kind: 'refused', preview };
  const paths = touchedPaths(preview.files);
  const checked = new Set(early.map((d) => d.path));
  const decisions = [
    ...early.filter((d) => paths.includes(d.path)),
    ...(await checkPaths(
      ctx,
      paths.filter((p) => !checked.has(p)),
    )),
  ];
  const deniedNow = denied(decisions);
  if (deniedNow.length) return { kind: 'denied', denied: deniedNow, preview };
  return { kind: 'checked', preview, hunks, paths, decisions };
}

function denied(verdicts: PathVerdict[]): PathVerdict[] {
  return verdicts.filter((d) => d.decision.verdict === 'deny');
}

/** The policy's write verdict on each path; every verdict but allow goes to the audit trail. */
async function checkPaths(ctx: ToolContext, paths: string[]): Promise<PathVerdict[]> {
  const out: PathVerdict[] = [];
  const policy = pathPolicyOf(ctx);
  for (const p of paths) {
    const decision = await policy.check(p, 'write');
    out.push({ path: p, decision });
    if (decision.verdict !== 'allow') ctx.emit?.({ type: 'policy', kind: 'path', subject: p, decision });
  }
  return out;
}
