/**
 * An MCP server asks the user for input during a call (spec 2025-11-25 elicitation). The chat
 * shows a form (or asks before opening a link); the CLI asks on its terminal, or declines when
 * there is none. A host without one declares no elicitation capability, so servers never ask.
 * A form's fields come from the requested schema through src/protocol/elicitationForm.ts.
 */
export type ElicitationRequest =
  | { server: string; mode: 'form'; message: string; requestedSchema: Record<string, unknown> }
  | { server: string; mode: 'url'; message: string; url: string; elicitationId: string };

export type ElicitationResponse =
  { action: 'accept'; content?: Record<string, string | number | boolean | string[]> } | { action: 'decline' } | { action: 'cancel' };

export interface Elicitor {
  elicit(request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationResponse>;
}
