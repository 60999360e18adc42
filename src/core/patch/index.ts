/** Public surface of the patch engine. */
export type * from './types';
export { parsePatch } from './parse';
export { applyPatchToTexts, applyParsedPatch, planPatch } from './plan';
export { PatchManager, type PatchManagerOptions } from './patchManager';
export { inlinePlanner, type PatchPlanner, type PlanJob } from './planner';
export { OffThreadPlanner, OFF_THREAD_MIN_WORK } from './offThreadPlanner';
export { CONFIDENCE_THRESHOLD } from './applyHunks';
export type { AtomicIo } from '../policy/path/confinedCommit';
export { applyStringEdits, deriveUnifiedDiff, type StringEdit, type StringEditResult } from './stringEdit';
// Used by the hosts (VS Code, the CLI), which import the core only through folder entries.
export { proposedDiff } from './proposedDiff';
export { buildReversePatch } from './reverse';
export type { ApplyOptions, ApplyResult, FileResult } from './types';
export { undoKeyOf } from './undoKey';
