/**
 * The chat's and the history panel's restore, over the core's (src/core/checkpoint): the same plan,
 * write, redo record and note for the agent as `patchpilot restore`. What it adds is the host's view:
 * the preview, files with unsaved edits in an editor counted as blocking (a restore would lose them),
 * and the steps of a run that changed files. No `vscode` import: unit-tested in plain Node.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { errorMessage } from '../../../core/base';
import { CheckpointStore, describeItem, planRedo, planRestore, redo, restore, type FileState, type RestorePlan } from '../../../core/checkpoint';
import { text } from '../../../core/checkpoint';
import { STATE_DIR } from '../../../core/session';
import type { RestoreDone, RestoreOutcome, RestorePointView, RestorePreview, RestoreRequest } from '../../../protocol/restore';

/** Why the chat and the history panel refuse a restore during a run (its steps would race the writes). */
export const RUNNING_REASON = 'A run is working: restore when it has ended (or stop it first).';

export class WorkspaceRestores {
  readonly root: string;
  readonly store: CheckpointStore;

  constructor(root: string) {
    this.root = realpathSync(root);
    this.store = new CheckpointStore(path.join(this.root, STATE_DIR));
  }

  /** The core's plan for the request; unsaved files move from the items to the blocked list. Throws a message. */
  plan(request: RestoreRequest, unsaved: ReadonlySet<string> = new Set()): RestorePlan {
    let plan: RestorePlan;
    if (request.redo) {
      const saved = planRedo(this.store, this.root);
      if (!saved || saved.runId !== request.runId || saved.beforeStep !== request.beforeStep)
        throw new Error('This restore can no longer be redone: only the last restore can, and it was redone already or another restore came after it.');
      plan = saved;
    } else plan = planRestore(this.store, this.root, request.runId, request.beforeStep);
    const dirty = plan.items.filter((i) => unsaved.has(i.path));
    if (dirty.length === 0) return plan;
    return {
      ...plan,
      items: plan.items.filter((i) => !unsaved.has(i.path)),
      blocked: [...plan.blocked, ...dirty.map((i) => ({ path: i.path, reason: 'it has unsaved changes in an editor; save or revert them first' }))],
    };
  }

  preview(request: RestoreRequest, unsaved?: ReadonlySet<string>): RestorePreview {
    let plan: RestorePlan;
    try {
      plan = this.plan(request, unsaved);
    } catch (err) {
      return { ok: false, message: errorMessage(err) };
    }
    const files = plan.items.map((item) => ({
      path: item.path,
      line: describeItem(item).replace(/\s+/, ' '),
      diff: isTextChange(this.store, item.current, item.target),
    }));
    return { ok: true, request, steps: plan.steps, files, blocked: plan.blocked };
  }

  /** Both sides of one file of the plan: on disk now and after the restore (undefined: binary); undefined when the file is not in it. */
  sides(request: RestoreRequest, file: string): { now: FileState | null; after: FileState | null; afterText: string | undefined } | undefined {
    const item = this.plan(request).items.find((i) => i.path === file);
    if (!item) return undefined;
    return { now: item.current, after: item.target, afterText: text(this.store, item.target) };
  }

  /** Plans again (the disk may have changed since the preview) and writes through the core; nothing is written when a file blocks, unless `restoreRest`. */
  apply(request: RestoreRequest, restoreRest: boolean, unsaved?: ReadonlySet<string>): RestoreOutcome & { done?: RestoreDone } {
    let plan: RestorePlan;
    try {
      plan = this.plan(request, unsaved);
    } catch (err) {
      return { ok: false, message: errorMessage(err), restored: [], blocked: [] };
    }
    if (plan.blocked.length > 0 && !restoreRest) {
      const names = plan.blocked.map((b) => b.path).join(', ');
      return {
        ok: false,
        message: `Nothing was restored: ${names} ${plan.blocked.length === 1 ? 'blocks' : 'block'} it.`,
        restored: [],
        blocked: plan.blocked,
      };
    }
    if (plan.items.length === 0) return { ok: false, message: 'Nothing to restore: every file is already as it was.', restored: [], blocked: plan.blocked };
    const result = request.redo ? redo(this.store, this.root, plan, { restoreRest }) : restore(this.store, this.root, plan, { restoreRest });
    if (!result.ok) return { ok: false, message: capitalize(result.reason), restored: [], blocked: result.blocked };
    const restored = [...result.restored].sort(); // in path order, not the order of writing
    const n = restored.length;
    const what = request.redo
      ? `Put back what the run changed from step ${request.beforeStep} on`
      : `Restored ${n} file${n === 1 ? '' : 's'} to before step ${request.beforeStep}`;
    const left = result.skipped.length ? `; left ${result.skipped.map((b) => b.path).join(', ')} as ${result.skipped.length === 1 ? 'it is' : 'they are'}` : '';
    return {
      ok: true,
      message: `${what} (${restored.join(', ')})${left}.`,
      restored,
      blocked: result.skipped,
      done: { request, restored, skipped: result.skipped, at: Date.now() },
    };
  }

  /** The steps of a run that changed files, in order (several calls of one step are one point). */
  points(runId: string): RestorePointView[] {
    let records;
    try {
      records = this.store.records(runId);
    } catch {
      return []; // not a run id the store could hold
    }
    const byStep = new Map<number, RestorePointView>();
    for (const r of records) {
      if (r.changes.length === 0) continue;
      const p = byStep.get(r.step) ?? { step: r.step, tools: [], paths: [], at: r.at };
      if (!p.tools.includes(r.tool)) p.tools.push(r.tool);
      for (const c of r.changes) if (!p.paths.includes(c.path)) p.paths.push(c.path);
      byStep.set(r.step, p);
    }
    return [...byStep.values()].sort((a, b) => a.step - b.step);
  }
}

function isTextChange(store: CheckpointStore, now: FileState | null, after: FileState | null): boolean {
  if (now?.kind === 'dir' || after?.kind === 'dir' || now?.kind === 'link' || after?.kind === 'link') return false;
  if (now && after && now.hash === after.hash) return false;
  return text(store, now) !== undefined && text(store, after) !== undefined;
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
