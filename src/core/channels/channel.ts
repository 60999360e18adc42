/**
 * A chat service a run can be followed and answered from (Telegram today). The adapter owns the
 * service's library; everything a channel does for a run (allowlist, progress, approvals, /stop)
 * lives once in channelServer.ts on the same AgentEvents as the chat view and the CLI, so another
 * service is one adapter file implementing this interface.
 */

/** A text message that arrived from a chat; `chatId` and `senderId` (the person) as the service names them, in decimal. */
export interface IncomingMessage {
  chatId: string;
  /** Who wrote it: in a group chat, one of many members. */
  senderId: string;
  text: string;
}

/** A question with buttons, in one chat, that only some people may answer. */
export interface ChannelQuestion {
  chatId: string;
  text: string;
  choices: readonly ChannelChoice[];
  /** The people (service user ids) whose press counts; anyone else's press answers nothing. */
  answerers: ReadonlySet<string>;
  /** Parts of `text` (UTF-16 offsets) to show in a monospace font: the exact command. */
  code?: readonly { offset: number; length: number }[];
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
   * A question with one button per choice; resolves with the chosen id once one of its `answerers`
   * presses one in its chat (a press from anyone else, or from another chat, answers nothing),
   * rejects when `signal` aborts.
   */
  ask(question: ChannelQuestion, signal: AbortSignal): Promise<string>;
}
