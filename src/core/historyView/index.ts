// Used by the hosts (VS Code, the CLI), which import the core only through folder entries.
export { runToMarkdown } from './runMarkdown';
export { runRowOf, runTimeline } from './timeline';
export { patchOutcomes, RESTORE_STEP, type UserPatchOutcome } from './patchOutcomes';
