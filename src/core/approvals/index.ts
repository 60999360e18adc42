/**
 * What the user approved to run outside the agent's reach, kept signed per user in the workspace's
 * state folder: MCP servers, workspace hooks and the model program, on one mechanism
 * (signedApprovalFile.ts) and one rule of what an approval binds (policy/launch).
 */
export { HookApprovals, hookFingerprint, hookLaunch, hookProtectedGlobs, NOT_APPROVED, type HookApprovalsOptions } from './hooks';
export { McpApprovals, type McpApprovalsOptions, type ServerApproval } from './mcpServers';
export {
  APPROVE_MODEL_PROGRAM,
  APPROVE_MODEL_PROGRAM_VSCODE,
  describeModelProgramBinding,
  ModelProgramApprovals,
  modelProgramLaunch,
  modelProgramPreflight,
  modelProgramProtectedGlobs,
  type ModelProgramCheck,
} from './modelProgram';
export { SignedApprovalFile, type SignedApprovalFileOptions } from './signedApprovalFile';
