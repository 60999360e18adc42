/** Public surface of the patch engine. */
export type * from './types';
export { parsePatch } from './parse';
export { applyPatchToTexts, applyParsedPatch, planPatch } from './plan';
export { PatchManager, type PatchManagerOptions } from './patchManager';
export { CONFIDENCE_THRESHOLD } from './applyHunks';
export type { AtomicIo } from '../policy/path/confinedCommit';
