export { Orchestrator } from './orchestrator';
export type { ChatModel, OrchestratorDeps, RunHistory, RunOutcome } from './types';
