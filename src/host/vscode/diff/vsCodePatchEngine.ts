import { PatchManager } from '../../../core/patch/patchManager';
import { OffThreadPlanner } from '../../../core/patch/offThreadPlanner';
import type { PatchPlanner } from '../../../core/patch/planner';
import type { ApplyOptions, ApplyResult } from '../../../core/patch/types';
import type { DiffPreview, PatchEngine } from '../../../core/ports';
import { VsCodeWorkspaceFs } from '../workspace/vsCodeWorkspaceFs';
import { PatchJournal } from './patchJournal';
import { diffReviewServices } from './vsCodeDiffPreview';

let journal: PatchJournal | undefined;
/** The window's undo journal (shared by every engine and the Undo Last Patch command). */
export function patchJournal(): PatchJournal {
  return (journal ??= new PatchJournal());
}

let planner: OffThreadPlanner | undefined;
/**
 * The window's patch planner: large patches are computed in a worker thread, so they never block
 * the extension host (small ones inline; the result is the same either way).
 */
export function patchPlanner(): PatchPlanner {
  return (planner ??= new OffThreadPlanner());
}

/**
 * OrchestratorDeps.patches in VS Code: the core PatchManager over VsCodeWorkspaceFs (dry runs see
 * unsaved buffers; applies are a WorkspaceEdit and a save). Each write is recorded for undo; a
 * write the user did not review (auto-edit) is shown with `preview.showApplied`.
 */
export function createVsCodePatchEngine(root: string, preview?: DiffPreview, fs = new VsCodeWorkspaceFs(root)): PatchEngine & { manager: PatchManager } {
  const manager = new PatchManager({ root, fs, planner: patchPlanner() });
  const reviewed = diffReviewServices().reviewed;
  return {
    manager,
    async apply(text: string, options: ApplyOptions): Promise<ApplyResult> {
      const result = await manager.apply(text, options);
      if (options.dryRun || !result.ok) return result;
      const after = new Map(result.files.flatMap((f) => [...(f.oldPath && f.oldPath !== f.newPath ? [[f.oldPath, null] as const] : []), ...(f.newPath || f.oldPath ? [[(f.newPath ?? f.oldPath)!, f.newText ?? null] as const] : [])]));
      const paths = [...after.keys()];
      patchJournal().record({ reversePatch: result.reversePatch, after, label: paths.join(', '), at: Date.now() });
      if (reviewed.has(text)) reviewed.delete(text);
      else await preview?.showApplied(result).catch(() => undefined);
      return result;
    },
  };
}
