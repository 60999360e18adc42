/** The diff review and test-task API for the rest of the host (the Approver, the agent session). */
export { VsCodeDiffPreview, DiffReviewServices, type DiffReviewLog } from './vsCodeDiffPreview';
export { registerDiffReview } from './registerDiffReview';
export { createVsCodePatchEngine } from './vsCodePatchEngine';
export { PatchJournal } from './patchJournal';
export { VsCodeWorkspaceFs } from '../workspace/vsCodeWorkspaceFs';
export { VsCodeTaskRunner } from '../tests/vsCodeTaskRunner';
export { TestService, createTestService, type TriggeredTestRun } from '../tests/testService';
