export * from './types';
export { Checkpointer, type CheckpointerOptions, type CaptureStats } from './checkpointer';
export { CheckpointStore } from './checkpointStore';
export { planRestore, currentState, type RestoreItem, type RestorePlan } from './restorePlan';
export { type RestoreResult } from './restoreApply';
export { restore, redo, planRedo, resolveRun } from './restore';
export { describeItem, planDiff, restoreNote } from './restoreView';
// Used by the hosts (VS Code, the CLI), which import the core only through folder entries.
export { text } from './restoreView';
