export { Orchestrator } from './orchestrator';
export type { OrchestratorDeps, RunOutcome } from './types';
// Used by the hosts (VS Code, the CLI), which import the core only through folder entries.
export { describeTestsOutcome } from './testsOutcome';
