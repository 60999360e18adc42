export { ChatSession, type ChatSessionOptions, type GoalRunner, type SendResult } from './chatSession';
export { createAgent, type AgentOptions, type Agent, type TaskRunnerFactory } from './agent';
export { AgentSlot } from './agentSlot';
export { listConversations, type ConversationSummary } from './conversations';
export { findRun, loadSession, transcriptFromSteps, type ResumedSession } from './resume';
