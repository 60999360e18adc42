/**
 * How a restore plan reads to a person: one line per path (what happens to it) and a unified diff
 * from what is on disk now to what the restore writes; the note the agent gets at its next turn.
 */
import { createTwoFilesPatch } from 'diff';
import { looksBinary } from '../base/binary';
import type { CheckpointStore } from './checkpointStore';
import type { RestoreItem, RestorePlan } from './restorePlan';
import type { FileState } from './types';

export function describeItem(item: RestoreItem): string {
  const { current, target } = item;
  if (!target) return `remove   ${item.path}${current?.kind === 'dir' ? '/' : ''} (created by the run)`;
  if (!current) return `recreate ${item.path}${target.kind === 'dir' ? '/' : ''} (deleted or moved by the run)`;
  if (current.hash === target.hash && current.kind === target.kind) return `mode     ${item.path} (${octal(current.mode)} -> ${octal(target.mode)})`;
  return `restore  ${item.path}${current.mode !== target.mode ? ` (mode ${octal(current.mode)} -> ${octal(target.mode)})` : ''}`;
}

/** A unified diff of the plan's files (now -> after the restore); binary files are named, not shown. */
export function planDiff(store: CheckpointStore, plan: RestorePlan): string {
  const parts: string[] = [];
  for (const item of plan.items) {
    if (item.current?.kind === 'dir' || item.target?.kind === 'dir') continue;
    if (item.current && item.target && item.current.hash === item.target.hash) continue;
    const now = text(store, item.current);
    const then = text(store, item.target);
    if (now === undefined || then === undefined) {
      parts.push(`Binary file ${item.path} differs\n`);
      continue;
    }
    parts.push(
      createTwoFilesPatch(item.current ? `a/${item.path}` : '/dev/null', item.target ? `b/${item.path}` : '/dev/null', now, then, '', '', {
        context: 3,
      }).replace(/^=+\n/, ''),
    );
  }
  return parts.join('');
}

/** Bytes of a state as text ('' for an absent path); undefined for binary bytes. */
export function text(store: CheckpointStore, state: FileState | null): string | undefined {
  if (!state) return '';
  const bytes = store.blobs.has(state.hash) ? store.blobs.get(state.hash) : Buffer.alloc(0);
  if (looksBinary(bytes)) return undefined;
  return bytes.toString('utf8');
}

export function restoreNote(plan: RestorePlan, restored: readonly string[]): string {
  const list = restored.slice(0, 30).join(', ') + (restored.length > 30 ? `, and ${restored.length - 30} more` : '');
  return (
    `PatchPilot: the user restored the workspace to before step ${plan.beforeStep} of run ${plan.runId}: ` +
    `what steps ${plan.steps.join(', ')} changed was undone (${list}). Files are as they were before those steps; read them again before relying on earlier results.`
  );
}

function octal(mode: number): string {
  return mode.toString(8).padStart(4, '0');
}
