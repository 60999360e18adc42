/** The diff review and test-task API for the rest of the host (the Approver, the agent session). */
export { VsCodeDiffPreview, diffReviewServices, type DiffReviewLog } from './vsCodeDiffPreview';
export { registerDiffReview } from './registerDiffReview';
export { createVsCodePatchEngine, patchJournal } from './vsCodePatchEngine';
export { VsCodeWorkspaceFs } from '../workspace/vsCodeWorkspaceFs';
export { VsCodeTaskRunner } from '../tests/vsCodeTaskRunner';
export { TestService, createTestService, type TestRunReport } from '../tests/testService';
