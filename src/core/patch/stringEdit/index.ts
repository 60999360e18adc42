/** Exact string edits (edit_file): matched here, then handed on as a unified diff (deriveDiff.ts). */
export type * from './types';
export { applyStringEdits } from './applyStringEdits';
export { deriveUnifiedDiff } from './deriveDiff';
