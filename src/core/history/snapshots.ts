/** The files a patch changed, before and after, as the patches row keeps them (JSON text, capped). */
import { UserError } from '../base';
import { PATCH_SNAPSHOT_MAX_CHARS, type PatchFileSnapshot } from './types';

/**
 * JSON text for the snapshots column, or null when there are none. A file whose sides are over
 * PATCH_SNAPSHOT_MAX_CHARS is left out (the panel then shows the patch's own hunks), so one huge
 * generated file cannot bloat a database that is held in memory and saved whole.
 */
export function snapshotsOf(input: PatchFileSnapshot[] | null | undefined): string | null {
  if (input === undefined || input === null) return null;
  if (!Array.isArray(input)) throw new UserError('snapshots must be an array', 'invalid-input');
  const kept: PatchFileSnapshot[] = [];
  for (const s of input) {
    if (!s || typeof s.path !== 'string' || !s.path) throw new UserError('each snapshot needs a path', 'invalid-input');
    const before = typeof s.before === 'string' ? s.before : null;
    const after = typeof s.after === 'string' ? s.after : null;
    if ((before?.length ?? 0) > PATCH_SNAPSHOT_MAX_CHARS || (after?.length ?? 0) > PATCH_SNAPSHOT_MAX_CHARS) continue;
    kept.push({ path: s.path, before, after });
  }
  return kept.length ? JSON.stringify(kept) : null;
}
