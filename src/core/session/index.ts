export { ChatSession, type ChatSessionOptions, type GoalRunner, type SendResult } from './chatSession';
export { wireAgent, type WireAgentOptions, type WiredAgent, type TaskRunnerFactory } from './wireAgent';
export { listConversations, type ConversationSummary } from './conversations';
export { findRun, loadSession, transcriptFromSteps, type ResumedSession } from './resume';
