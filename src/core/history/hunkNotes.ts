/** Reading a patch row's rejectedHunks, written by any PatchPilot version. */
import type { HunkNote, JsonValue } from './types';

/** A stored rejectedHunks entry, old (a bare id: rejected by the user) or new (a HunkNote). */
export function hunkNoteOf(entry: JsonValue): HunkNote | undefined {
  if (typeof entry === 'string') return { id: entry, state: 'rejected' };
  if (!entry || typeof entry !== 'object' || Array.isArray(entry) || typeof entry.id !== 'string') return undefined;
  const state = entry.state === 'refused' ? 'refused' : 'rejected';
  return { id: entry.id, state, ...(typeof entry.reason === 'string' && entry.reason ? { reason: entry.reason } : {}) };
}
