import { PatchManager } from '../../../core/patch';
import type { PatchPlanner } from '../../../core/patch';
import { undoKeyOf } from '../../../core/patch';
import type { ApplyOptions, ApplyResult } from '../../../core/patch';
import type { DiffPreview, PatchEngine } from '../../../core/ports';
import { VsCodeWorkspaceFs } from '../workspace/vsCodeWorkspaceFs';
import type { PatchJournal } from './patchJournal';

/**
 * OrchestratorDeps.patches in VS Code: the core PatchManager over VsCodeWorkspaceFs (dry runs see
 * unsaved buffers; applies are a WorkspaceEdit and a save). Each write is recorded for undo; a
 * write the user did not review (auto-edit) is shown with `preview.showApplied`.
 */
export function createVsCodePatchEngine(
  root: string,
  journal: PatchJournal,
  planner: PatchPlanner,
  preview?: DiffPreview,
  fs = new VsCodeWorkspaceFs(root),
): PatchEngine & { manager: PatchManager } {
  // Large patches are planned in a worker thread (the window's one OffThreadPlanner), so they never block the extension host.
  const manager = new PatchManager({ root, fs, planner });
  return {
    manager,
    async apply(text: string, options: ApplyOptions): Promise<ApplyResult> {
      const result = await manager.apply(text, options);
      if (options.dryRun || !result.ok) return result;
      const after = new Map(
        result.files.flatMap((f) => [
          ...(f.oldPath && f.oldPath !== f.newPath ? [[f.oldPath, null] as const] : []),
          ...(f.newPath || f.oldPath ? [[(f.newPath ?? f.oldPath)!, f.newText ?? null] as const] : []),
        ]),
      );
      const paths = [...after.keys()];
      journal.record({ reversePatch: result.reversePatch, after, label: paths.join(', '), at: Date.now(), key: undoKeyOf(result.reversePatch) });
      if (!options.reviewed) await preview?.showApplied(result).catch(() => undefined);
      return result;
    },
  };
}
