/** The shapes of the restore requests (chat and history panel share them); a path is workspace-relative, never `..`. */
import type { RestoreRequest } from './restore';
import { num, str, type Field } from './shapeValidator';

export const RESTORE_SHAPE: Record<keyof RestoreRequest, Field> = {
  runId: str(80, /^[\w.-]+$/),
  beforeStep: num(1, 1_000_000, { integer: true }),
  redo: { type: 'boolean' },
};

export const RESTORE_DIFF_SHAPE: Record<keyof RestoreRequest | 'path', Field> = {
  ...RESTORE_SHAPE,
  path: str(4_096, /^(?!\/)(?!.*(?:^|\/)\.\.(?:\/|$)).+$/),
};

export const RESTORE_APPLY_SHAPE: Record<keyof RestoreRequest | 'restoreRest', Field> = { ...RESTORE_SHAPE, restoreRest: { type: 'boolean' } };
