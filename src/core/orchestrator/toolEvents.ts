/** What the tools report during a call, as the run's events and history (and the tally of unattended edits). */
import type { HunkView } from '../../protocol/agentEvents';
import type { ApplyResult, HunkResult } from '../patch/types';
import { proposedDiff } from '../patch/proposedDiff';
import type { ToolEvent } from '../tools/types';
import type { RunState } from './runState';
import { notifyHooks } from './hookSteps';

export function forwardToolEvent(e: ToolEvent, run: RunState): void {
  const { emit } = run;
  switch (e.type) {
    case 'patch-proposed': {
      const diff = e.preview.ok ? proposedDiff(e.preview) : '';
      const warnings = e.preview.warnings ?? [];
      // The history keeps a patch with at least one file (patchRecord.ts): only then is there a row to name.
      const patchId = e.preview.files.length > 0 ? run.recorder.nextPatchId() : run.recorder.clearPatchId();
      emit({
        type: 'patch/proposed',
        ...(patchId ? { patchId } : {}),
        hunks: hunkViews(e.preview),
        ok: e.preview.ok,
        error: e.preview.error,
        ...(diff ? { diff } : {}),
        ...(warnings.length ? { warnings } : {}),
      });
      break;
    }
    case 'approval-needed':
      emit({ type: 'approval/needed', kind: e.request.kind, title: e.request.title, reason: 'reason' in e.request ? e.request.reason : undefined });
      notifyHooks(run, `PatchPilot needs your approval: ${e.request.title}`, 'permission_prompt');
      break;
    case 'approval-answered':
      if (e.unattended && e.edit) run.unattendedEdits++;
      emit({
        type: 'approval/answered',
        kind: e.kind,
        approved: e.approved,
        accepted: e.accepted,
        ...(e.rejected?.length ? { rejected: e.rejected } : {}),
        ...(e.unattended ? { unattended: true } : {}),
        ...(e.edited ? { edited: true } : {}),
        ...(e.total !== undefined ? { total: e.total } : {}),
      });
      break;
    case 'patch-applied': {
      const patchId = run.recorder.pendingPatch;
      emit({
        type: 'patch/applied',
        ...(patchId ? { patchId } : {}),
        files: e.files,
        hunks: e.hunks.map((h) => hunkView(h)),
        total: e.total,
        ...(e.edited ? { edited: true } : {}),
        ...(e.undoKey ? { undoKey: e.undoKey } : {}),
      });
      break;
    }
    case 'test-started':
      emit({ type: 'test/started', command: e.command, ...(e.note ? { note: e.note } : {}) });
      break;
    case 'test-finished':
      emit({
        type: 'test/finished',
        command: e.command,
        exitCode: e.exitCode,
        durationMs: e.durationMs,
        summary: e.summary,
        ...(e.whole !== undefined ? { whole: e.whole } : {}),
      });
      break;
    case 'policy':
      break;
  }
  run.recorder.toolEvent(e);
}

function hunkViews(r: ApplyResult): HunkView[] {
  return r.files.flatMap((f) => f.hunks.map((h) => hunkView(h, f.reason)));
}

function hunkView(h: HunkResult, fileReason?: string): HunkView {
  return { id: h.id, path: h.path, status: h.status, startLine: h.range?.start, endLine: h.range?.end, reason: h.reason ?? fileReason };
}
