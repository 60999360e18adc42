import type { ElicitationAnswer, ElicitationField } from '../../protocol/elicitationForm';

/**
 * An MCP server asks the user for input during a call (spec 2025-11-25 elicitation). The chat
 * shows a form (or asks before opening a link); the CLI asks on its terminal, or declines when
 * there is none. A host without one declares no elicitation capability, so servers never ask.
 */
export type ElicitationRequest =
  | { server: string; mode: 'form'; message: string; fields: ElicitationField[]; unsupported: string[] }
  | { server: string; mode: 'url'; message: string; url: string; elicitationId: string };

export interface Elicitor {
  elicit(request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationAnswer>;
}
