export { runCommand, type RunCommandOptions, type RunCommandResult } from './runCommand';
export { probeSandbox, NOT_SANDBOXED, type SandboxStatus } from './probe';
export { requireApprovalWhenUnsandboxed, runsArbitraryCode } from './autoMode';
export { HIDDEN_HOME_PATHS } from './bwrapArgs';
export { CappedOutput } from './cappedOutput';
export { buildChildEnv, type ChildEnvOptions } from './childEnv';
export { CommandProcesses, MARKER_VAR } from './sessionKill';
export { describeProtectedChanges, GuardSession, type GuardOptions, type ProtectedChange } from './protectedGuard';
export { SecretRedactor } from './secretRedactor';
