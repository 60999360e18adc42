/**
 * A chat service a run can be followed and answered from (Telegram today). The adapter owns the
 * service's library; everything a channel does for a run (allowlist, progress, approvals, /stop)
 * lives once in channelServer.ts on the same AgentEvents as the chat view and the CLI, so another
 * service is one adapter file implementing this interface.
 */

/** A text message that arrived from a chat; `chatId` as the service names it, in decimal. */
export interface IncomingMessage {
  chatId: string;
  text: string;
}

export interface ChannelChoice {
  id: string;
  /** The button's text, starting with its verb ("Approve", "Deny"). */
  label: string;
}

export interface Channel {
  /** Starts receiving; each text message goes to onMessage (which must not wait for a run). */
  listen(onMessage: (message: IncomingMessage) => void): Promise<void>;
  /** Stops receiving; pending questions reject. */
  close(): Promise<void>;
  /** Sends a message; returns its id, for edit. */
  send(chatId: string, text: string): Promise<string>;
  edit(chatId: string, messageId: string, text: string): Promise<void>;
  /**
   * A question with one button per choice; resolves with the chosen id once `chatId` (and only it)
   * presses one, rejects when `signal` aborts.
   */
  ask(chatId: string, text: string, choices: readonly ChannelChoice[], signal: AbortSignal): Promise<string>;
}
