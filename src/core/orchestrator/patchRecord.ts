/**
 * What the history keeps of one propose_patch call: which hunks were applied, which were not and
 * why (rejected by the user with their reason, refused by the engine, the path policy or plan mode
 * with its reason), the reverse patch, and each file before and after for a later read-only diff.
 * Pure: the recorder (recorder.ts) writes what this returns; the data is what the tool's own
 * `loop.patchOf` hands over (tools/patchOutcome.ts words it).
 */
import type { HunkNote, JsonValue, PatchFileSnapshot, PatchInput } from '../history/types';
import type { ApplyResult, FileResult } from '../patch/types';
import type { PatchData } from '../tools/types';

export function patchRecordOf(patchText: string, data: PatchData | undefined, now: number): PatchInput | undefined {
  const preview = data?.preview;
  if (!preview || preview.files.length === 0) return undefined;
  const files = data.files?.length ? data.files : pathsOf(preview.files);
  const applied = data.result?.ok ? data.result : undefined;
  const base = { text: data.editedPatch ?? patchText, files, reversePatch: applied?.reversePatch ?? null, appliedAt: applied ? now : null, time: now };
  if (!preview.ok) return { ...base, acceptedHunks: [], rejectedHunks: notes(engineRefusals(preview)), snapshots: null };
  if (data.result && !data.result.ok)
    return { ...base, acceptedHunks: [], rejectedHunks: notes(engineRefusals(data.result)), snapshots: snapshots(preview.files) };
  const ids = preview.files.flatMap((f) => f.hunks.map((h) => h.id));
  const refusedAll = (reason: string) => ({
    ...base,
    acceptedHunks: [],
    rejectedHunks: notes(ids.map((id) => ({ id, state: 'refused' as const, reason }))),
    snapshots: snapshots(preview.files),
  });
  if (data.planned) return refusedAll('plan mode: proposals are not applied');
  if (data.denied?.length) return refusedAll(`denied by the path policy: ${data.denied.map((d) => `${d.path}: ${d.reason}`).join('; ')}`);
  const reasons = data.hunkReasons ?? {};
  const accepted = data.applied ?? [];
  const rejected = data.rejected ?? ids.filter((id) => !accepted.includes(id));
  return {
    ...base,
    acceptedHunks: accepted,
    rejectedHunks: notes(rejected.map((id) => ({ id, state: 'rejected' as const, ...(reasons[id] ? { reason: reasons[id] } : {}) }))),
    snapshots: snapshots((applied ?? preview).files),
  };
}

function pathsOf(files: FileResult[]): string[] {
  return [...new Set(files.map((f) => f.newPath ?? f.oldPath ?? '').filter(Boolean))];
}

function engineRefusals(r: ApplyResult): HunkNote[] {
  return r.files.flatMap((f): HunkNote[] => {
    if (f.hunks.length === 0) return [{ id: f.newPath ?? f.oldPath ?? '?', state: 'refused', reason: f.reason ?? 'refused' }];
    return f.hunks.map((h) => ({
      id: h.id,
      state: 'refused',
      reason: h.status === 'refused' ? (h.reason ?? f.reason ?? 'refused') : 'not applied: another part of the patch was refused',
    }));
  });
}

function notes(list: HunkNote[]): JsonValue[] {
  return list.map((n) => ({ ...n }));
}

function snapshots(files: FileResult[]): PatchFileSnapshot[] | null {
  const out = files
    .filter((f) => f.status === 'ok' && (f.oldText !== undefined || f.newText !== undefined))
    .map((f) => ({ path: f.newPath ?? f.oldPath ?? '?', before: f.oldText ?? null, after: f.newText ?? null }));
  return out.length ? out : null;
}
