import { createHash } from 'node:crypto';

/**
 * A short name for one written patch, from its reverse patch: the run's `patch/applied` event carries
 * it, and the host's undo journal files the same write under it, so the chat's "Undo Patch" button
 * finds the write it stands for without the event carrying the reverse patch itself.
 */
export function undoKeyOf(reversePatch: string): string {
  return createHash('sha256').update(reversePatch).digest('hex').slice(0, 16);
}
