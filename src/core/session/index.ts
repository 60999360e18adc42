export { ChatSession, type ChatSessionOptions, type GoalRunner, type SendResult } from './chatSession';
export { createAgent, type AgentOptions, type Agent } from './agent';
export { createUserTestCommands } from './testCommands';
export { AgentSlot } from './agentSlot';
export { listConversations, type ConversationSummary } from './conversations';
export { findRun, loadSession, transcriptFromSteps, type ResumedSession } from './resume';
// Used by the hosts (VS Code, the CLI), which import the core only through folder entries.
export { createMcpManager, stateDirOf } from './capabilities';
export { STATE_DIR } from './checkpointWiring';
export { hookApprovalsOf } from './hookWiring';
