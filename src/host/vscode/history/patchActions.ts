import * as vscode from 'vscode';
import { createIgnoreFilter } from '../../../core/policy';
import { mcpProtectedGlobs } from '../../../core/mcp';
import { hookProtectedGlobs } from '../../../core/approvals';
import type { Approver, DiffPreview, PatchEngine } from '../../../core/ports';
import { REAPPLY_STEP, UNDO_STEP, type PatchRecord } from '../../../core/history';
import { undoKeyOf } from '../../../core/patch';
import { errorMessage } from '../../../core/base';
import type { PatchStates } from '../patches/patchStates';
import { createPathPolicy } from '../../../core/tools';
import type { OperationResult } from '../../../protocol/history';
import type { HostConfig } from '../config/hostConfig';
import type { HistoryService } from './historyService';
import { patchSideUri } from './patchDocuments';
import { patchSides } from './patchSidesLogic';
import { proposedDiff } from '../../../core/patch';
import { recordedHunkIds } from './reappliedHunks';

export interface PatchActionsDeps {
  service: HistoryService;
  config: HostConfig;
  /** The run's approver (the chat's host): in VS Code its patch review is the native diff review. */
  approver: Approver;
  review?: DiffPreview;
  /** The window's patch engine over VS Code's files (one undo journal for the window). */
  patches(root: string, review?: DiffPreview): PatchEngine;
  log: vscode.LogOutputChannel;
  /** The window's patch states: Apply Again and Revert change a patch's state in every view. */
  states?: PatchStates;
  /** Apply Again went in: the chat says so (as it says an undo) and the model hears of it. */
  reapplied?(label: string, files: readonly string[]): void;
}

const done = (message: string): OperationResult => ({ ok: true, message });
const refused = (message: string): OperationResult => ({ ok: false, message });

/**
 * What the history panel does with a recorded patch: show the recorded before and after, apply its
 * applied hunks again, or apply its reverse patch. Both writes take the road a run's propose_patch
 * takes (tools/proposePatch.ts): Workspace Trust, the approval mode (plan writes nothing), the path
 * policy (deny refuses, a protected path always asks), the run's approver (the per-hunk diff review)
 * in `ask` mode, and the extension's PatchManager over VS Code's files (unsaved buffers, WorkspaceEdit,
 * the undo journal of "Undo Last Patch").
 */
export class PatchActions {
  constructor(private readonly d: PatchActionsDeps) {}

  async open(runId: string, patchId: string): Promise<OperationResult> {
    const patch = await this.find(runId, patchId);
    if (!patch) return refused('That patch is no longer in the history.');
    const sides = patchSides(patch);
    for (const [i, s] of sides.entries()) {
      const title = `${s.path} (recorded ${s.source === 'recorded' ? 'before ↔ after' : 'hunks only'}${sides.length > 1 ? `, ${i + 1}/${sides.length}` : ''})`;
      await vscode.commands.executeCommand(
        'vscode.diff',
        patchSideUri(runId, patchId, 'before', s.path),
        patchSideUri(runId, patchId, 'after', s.path),
        title,
        { preview: sides.length === 1, preserveFocus: i > 0 },
      );
    }
    return done(`Opened ${sides.length} file${sides.length === 1 ? '' : 's'} of the patch.`);
  }

  async applyAgain(runId: string, patchId: string): Promise<OperationResult> {
    const patch = await this.find(runId, patchId);
    if (!patch) return refused('That patch is no longer in the history.');
    const applied = patch.acceptedHunks.filter((h): h is string => typeof h === 'string');
    if (patch.appliedAt === null || applied.length === 0) return refused('Nothing of this patch was applied, so there is nothing to apply again.');
    // The files already show it (it was never undone, or applied again): say that, not "does not apply".
    if (patch.reversePatch?.trim() && !(await this.wouldApply(patch.text, new Set(applied))) && (await this.wouldApply(patch.reversePatch))) {
      return refused(`The files already have this patch's changes to ${patch.files.join(', ')}; nothing to apply again.`);
    }
    // The review card, the diff and the write all show the same thing: the hunks that were applied, as they land now.
    const only = await this.appliedPart(patch.text, new Set(applied));
    // The review's hunk decisions are this patch's (not the newest proposal's with the same ids).
    const recorded = { runId, patchId, applied };
    const result = only
      ? await this.applyLikeARun(only, undefined, `the patch to ${patch.files.join(', ')}`, recorded)
      : await this.applyLikeARun(patch.text, new Set(applied), `the patch to ${patch.files.join(', ')}`, recorded);
    if (result.ok) await this.outcome(runId, patch, 'reapplied');
    else this.d.states?.change({ kind: 'review-closed', runId, patchId, at: Date.now() });
    return result;
  }

  /**
   * Apply Again or Revert went in: recorded with the run (the timeline's state after a reload), then
   * every view hears of it from the one store of patch states.
   */
  private async outcome(runId: string, patch: PatchRecord, outcome: 'reapplied' | 'reverted'): Promise<void> {
    const undoKey = patch.reversePatch?.trim() ? undoKeyOf(patch.reversePatch) : undefined;
    const label = patch.files.join(', ');
    try {
      if (undoKey)
        await (
          await this.d.service.store()
        ).addStep(runId, {
          role: 'system',
          tool: outcome === 'reapplied' ? REAPPLY_STEP : UNDO_STEP,
          text: outcome === 'reapplied' ? `The user applied the patch to ${label} again.` : `The user reverted the patch to ${label}.`,
          arguments: { undoKey, files: patch.files },
        });
    } catch (err) {
      this.d.log.warn(`the ${outcome === 'reapplied' ? 'Apply Again' : 'Revert'} of the patch to ${label} is not in the history: ${errorMessage(err)}`);
    }
    if (outcome === 'reapplied') this.d.reapplied?.(label, patch.files);
    const at = Date.now();
    this.d.states?.change(
      outcome === 'reapplied'
        ? { kind: 'reapplied', runId, patchId: patch.id, files: patch.files, at, ...(undoKey ? { undoKey } : {}) }
        : { kind: 'reverted', runId, patchId: patch.id, files: patch.files, at },
    );
  }

  /**
   * The applied hunks of a recorded patch as a unified diff of the files as they are now (what Accept
   * will write, rejected hunks left out); undefined when they do not apply (applyLikeARun says why).
   */
  private async appliedPart(text: string, applied: ReadonlySet<string>): Promise<string | undefined> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder || folder.uri.scheme !== 'file') return undefined;
    const preview = await this.d.patches(folder.uri.fsPath, this.d.review).apply(text, { dryRun: true, acceptedHunks: applied });
    const diff = preview.ok ? proposedDiff(preview) : '';
    return diff.trim() ? diff : undefined;
  }

  async revert(runId: string, patchId: string): Promise<OperationResult> {
    const patch = await this.find(runId, patchId);
    if (!patch) return refused('That patch is no longer in the history.');
    if (!patch.reversePatch?.trim()) return refused('This patch has no recorded reverse patch (it was not applied).');
    // Undone already (Undo Last Patch, a Revert before, or by hand): the files have its before text again.
    const applied = new Set(patch.acceptedHunks.filter((h): h is string => typeof h === 'string'));
    if (!(await this.wouldApply(patch.reversePatch)) && applied.size && (await this.wouldApply(patch.text, applied))) {
      return refused(`The files already have the text from before this patch to ${patch.files.join(', ')}: it was undone. Nothing to revert.`);
    }
    const result = await this.applyLikeARun(patch.reversePatch, undefined, `the revert of the patch to ${patch.files.join(', ')}`);
    if (result.ok) await this.outcome(runId, patch, 'reverted');
    return result;
  }

  /** A dry run in the workspace as it is now: every chosen hunk would apply. */
  private async wouldApply(text: string, only?: ReadonlySet<string>): Promise<boolean> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder || folder.uri.scheme !== 'file') return false;
    const preview = await this.d.patches(folder.uri.fsPath, this.d.review).apply(text, { dryRun: true, ...(only ? { acceptedHunks: only } : {}) });
    return preview.ok && preview.files.some((f) => f.hunks.some((h) => h.status === 'would-apply'));
  }

  private async find(runId: string, patchId: string): Promise<PatchRecord | undefined> {
    const detail = await (await this.d.service.store()).getRun(runId);
    return detail?.patches.find((p) => p.id === patchId);
  }

  /** `recorded`: the recorded patch written again (Apply Again), for its review. */
  private async applyLikeARun(
    text: string,
    only: ReadonlySet<string> | undefined,
    what: string,
    recorded?: { runId: string; patchId: string; applied: readonly string[] },
  ): Promise<OperationResult> {
    if (!vscode.workspace.isTrusted) return refused('Restricted Mode: PatchPilot applies no patch until you trust this workspace.');
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder || folder.uri.scheme !== 'file') return refused('Open the workspace folder the patch belongs to.');
    const root = folder.uri.fsPath;
    const { config } = await this.d.config.load();
    const mode = config.settings.approval.mode;
    if (mode === 'plan') return refused('The approval mode is "plan": PatchPilot writes nothing.');
    const engine = this.d.patches(root, this.d.review);
    const preview = await engine.apply(text, { dryRun: true, ...(only ? { acceptedHunks: only } : {}) });
    if (!preview.ok) return refused(`${capital(what)} does not apply to the files as they are now; nothing was changed.\n${preview.error ?? ''}`.trim());
    const hunks = preview.files.flatMap((f) => f.hunks.filter((h) => h.status === 'would-apply').map((h) => h.id));
    if (hunks.length === 0) return refused(`${capital(what)} changes nothing.`);

    const ignore = createIgnoreFilter(root);
    // The files MCP servers run are protected here as in the agent's own writes (session/agent.ts).
    const protectedPaths = [
      ...config.settings.policy.protectedPaths,
      ...mcpProtectedGlobs(root, config.settings.mcp.servers),
      ...hookProtectedGlobs(root, config.settings.hooks),
    ];
    const policy = createPathPolicy(root, { protectedPaths, denyPaths: config.settings.policy.denyPaths }, (rel, isDir) => ignore.isIgnored(rel, isDir));
    const paths = [...new Set(preview.files.flatMap((f) => [f.oldPath, f.newPath]).filter((p): p is string => !!p))];
    const decisions = await Promise.all(paths.map(async (p) => ({ path: p, decision: await policy.check(p, 'write') })));
    const denied = decisions.filter((x) => x.decision.verdict === 'deny');
    if (denied.length) return refused(`Refused by the path policy, nothing was changed: ${denied.map((x) => `${x.path}: ${x.decision.reason}`).join('; ')}`);
    const asks = decisions.some((x) => x.decision.verdict === 'ask');

    let accepted = hunks;
    let edited: string | undefined;
    const reviewed = mode === 'ask' || asks;
    if (reviewed) {
      const patch = recorded && { runId: recorded.runId, patchId: recorded.patchId, hunkIds: recordedHunkIds(preview, recorded.applied) };
      const answer = await this.d.approver.approvePatch({ patchText: text, preview, ...(patch ? { patch } : {}) }, new AbortController().signal);
      accepted = answer.acceptedHunks.filter((id) => hunks.includes(id));
      edited = answer.editedPatch?.trim() ? answer.editedPatch : undefined;
      if (accepted.length === 0 && !edited) return refused('Nothing was applied: the change was rejected in the review.');
    }
    const result = edited ? await engine.apply(edited, { reviewed }) : await engine.apply(text, { acceptedHunks: new Set(accepted), reviewed });
    if (!result.ok) return refused(`${capital(what)} could not be applied (the files changed meanwhile); nothing was changed.\n${result.error ?? ''}`.trim());
    const count = result.files.flatMap((f) => f.hunks).filter((h) => h.status === 'applied').length;
    this.d.log.info(`history: applied ${what} (${count} hunk(s))`);
    return done(`Applied ${what}${edited ? ' as you edited it' : ` (${count} hunk${count === 1 ? '' : 's'})`}.`);
  }
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
