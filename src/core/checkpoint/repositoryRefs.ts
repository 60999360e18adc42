/**
 * A kept file whose bytes are the repository's object (tracked and unchanged) is known by a reference,
 * `git:<object id>`, not copied: the first checkpoint of a repository copies only what git does not
 * already hold. A reference never reaches a step's record: when a step changes such a file, its bytes
 * before are read back from git (one `cat-file --batch` for the step) into the blob store, so a restore
 * point stands on the store alone, whatever later happens to the repository's history.
 */
import type { BlobStore } from './blobStore';
import type { StatRow } from './workspaceState';
import type { FileState, RepositoryObjects } from './types';

const PREFIX = 'git:';

export function referenceState(row: StatRow, objectId: string): FileState {
  return { kind: row.kind, hash: `${PREFIX}${objectId}`, mode: row.mode, size: row.size };
}

export function isReference(state: FileState | 'uncaptured' | null): state is FileState {
  return state !== null && state !== 'uncaptured' && state.hash.startsWith(PREFIX);
}

/**
 * The states with their bytes copied into the store from the repository (keyed as given); a state
 * whose object is gone (history rewritten and collected) maps to 'uncaptured': a restore refuses it.
 */
export async function materialize(
  states: ReadonlyMap<string, FileState>,
  objects: RepositoryObjects | undefined,
  blobs: BlobStore,
): Promise<{ states: Map<string, FileState | 'uncaptured'>; addedBytes: number }> {
  const ids = [...new Set([...states.values()].map((s) => s.hash.slice(PREFIX.length)))];
  const bytes = ids.length && objects ? await objects.read(ids).catch(() => new Map<string, Buffer>()) : new Map<string, Buffer>();
  const out = new Map<string, FileState | 'uncaptured'>();
  let addedBytes = 0;
  for (const [key, state] of states) {
    const content = bytes.get(state.hash.slice(PREFIX.length));
    if (!content) {
      out.set(key, 'uncaptured');
      continue;
    }
    const { hash, added } = blobs.put(content);
    addedBytes += added;
    out.set(key, { ...state, hash, size: content.length });
  }
  return { states: out, addedBytes };
}
