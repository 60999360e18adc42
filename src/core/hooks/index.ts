export { HookRunner, describeHook, type HookReport, type HookRunnerOptions, type HookApprovalContext } from './hookRunner';
export { hookInput, type HookRunInfo, type HookSubject, type ToolSubject } from './hookInput';
export { matches, hooksFor } from './matcher';
export { verdictOf, decisionOf, type HookVerdict } from './hookVerdict';
