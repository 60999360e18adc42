export { runCommand, type RunCommandOptions, type RunCommandResult } from './runCommand';
export { probeSandbox, NOT_SANDBOXED, type SandboxStatus } from './probe';
export { requireApprovalWhenUnsandboxed, runsArbitraryCode } from './autoMode';
export { HIDDEN_HOME_PATHS } from './bwrapArgs';
export { CappedOutput } from './cappedOutput';
export { scrubSecretEnv } from './scrubEnv';
export { describeProtectedChanges, GuardSession, type GuardOptions, type ProtectedChange } from './protectedGuard';
export { SecretRedactor } from './secretRedactor';
