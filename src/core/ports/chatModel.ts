import type { ChatRequest, CompleteRequest, ContextWindow, ModelRole, ModelTurn } from '../llm/types';

/** What the loop needs from the model client (ModelClient fits). */
export interface ChatModel {
  streamChatWithRecovery(request: ChatRequest): Promise<ModelTurn>;
  modelFor(role: ModelRole): string;
  contextWindow(role: ModelRole): ContextWindow;
  /** Asks the endpoint for the window before a run starts (ModelClient); without it, contextWindow() is all there is. */
  resolveContextWindow?(role: ModelRole, signal?: AbortSignal): Promise<ContextWindow>;
  /** Plain text from the fast model (ModelClient.complete); without it, insights and the Q&A summary are plain text. */
  complete?(request: CompleteRequest): Promise<ModelTurn>;
}
