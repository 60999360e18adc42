/**
 * The chat's persistence: which chat this is, the lines it shows (ChatLog), the conversation the
 * model continues, kept on disk (ChatState) so a reloaded window shows the chat and continues it,
 * and the chats left by New Chat or Open Conversation (ChatArchive) so a reopened run shows as it
 * was. The controller says what changed; this decides when it is written.
 */
import { randomUUID } from 'node:crypto';
import type * as vscode from 'vscode';
import { Disposable, toDisposable } from '../../../../core/base';
import type { ModelMessage } from '../../../../core/llm';
import type { ChatEntry } from '../../../../protocol/chat';
import { ChatArchive } from './chatArchive';
import { ChatLog } from './chatLog';
import { ChatState } from './chatState';

const TEXT_SAVE_DELAY_MS = 300;
/** Kept (capped): the newest lines and model messages are what a reloaded window needs. */
const SAVED_ENTRIES = 400;
const SAVED_MESSAGES = 200;

export class ChatPersistence extends Disposable {
  private chatIdNow: string;
  readonly log: ChatLog;
  /** The conversation saved with the window, for the session to restore (empty for a new chat). */
  readonly savedTranscript: readonly ModelMessage[];
  /** The run the session's transcript ends with; a newer run in the log means the transcript is stale. */
  transcriptRunId: string | undefined;
  private readonly state: ChatState;
  private readonly archive: ChatArchive;
  private saveTimer: { handle: NodeJS.Timeout; due: number } | undefined;

  constructor(
    workspaceState: vscode.Memento,
    storageDir: string | undefined,
    warn: (message: string) => void,
    /** The session's conversation as it stands, read at each save. */
    private readonly transcript: () => readonly ModelMessage[],
  ) {
    super();
    this.state = new ChatState(workspaceState, storageDir, warn);
    this.archive = new ChatArchive(storageDir, warn);
    const saved = this.state.load();
    this.chatIdNow = saved?.chatId ?? randomUUID();
    this.log = new ChatLog(saved?.entries);
    this.savedTranscript = saved?.transcript ?? [];
    this.transcriptRunId = saved?.transcriptRunId;
    endUnfinishedRun(this.log);
    // Disposed: what the chat shows now is written (a pending timed save included).
    this._register(toDisposable(() => this.save()));
  }

  get chatId(): string {
    return this.chatIdNow;
  }

  /**
   * A line was added. Streamed text arrives in many small pieces: saved together shortly after.
   * Everything else (a message, a run's start and end, a tool call) is saved right away (the lines
   * of one moment in one write), so a reload just after it keeps it.
   */
  entryAdded(entry: ChatEntry): void {
    const streamed = entry.kind === 'event' && (entry.event.type === 'text/delta' || entry.event.type === 'reasoning/delta');
    this.saveWithin(streamed ? TEXT_SAVE_DELAY_MS : 0);
  }

  /**
   * New Chat or a reopened conversation: the shown lines go to the archive (where a reopened run
   * may find its own), the log is empty and a new chat id begins. The caller saves when its first
   * lines are in.
   */
  startNewChat(): void {
    this.transcriptRunId = undefined;
    this.archive.keep(this.log.entries);
    this.log.clear();
    this.chatIdNow = randomUUID();
  }

  /** The lines this window showed for a run, as it showed them (undefined: not kept here). */
  shownLinesOf(runId: string): ChatEntry[] | undefined {
    return this.archive.find(runId);
  }

  /** Kept (capped) so a reloaded window shows the chat and continues its conversation. */
  save(): void {
    clearTimeout(this.saveTimer?.handle);
    this.saveTimer = undefined;
    this.state.save({
      chatId: this.chatIdNow,
      entries: this.log.entries.slice(-SAVED_ENTRIES),
      transcript: fromUserTurn(this.transcript().slice(-SAVED_MESSAGES)),
      ...(this.transcriptRunId ? { transcriptRunId: this.transcriptRunId } : {}),
    });
  }

  /** A reload in the middle of a run keeps what the chat showed so far. */
  private saveWithin(delayMs: number): void {
    const due = Date.now() + delayMs;
    if (this.saveTimer && this.saveTimer.due <= due) return;
    clearTimeout(this.saveTimer?.handle);
    this.saveTimer = { handle: setTimeout(() => this.save(), delayMs), due };
  }
}

/**
 * The window went away while a run worked (a reload, a crash): that run is gone with the old
 * extension host, so the chat ends it as the history does (interrupted) instead of showing a run
 * that never ends.
 */
function endUnfinishedRun(log: ChatLog): void {
  const unfinished = log.unfinishedRunSteps();
  if (unfinished === undefined) return;
  const reason = 'the window closed or reloaded while it worked; what it did is in the history, and a message continues it';
  log.add({ kind: 'event', event: { type: 'run/finished', status: 'interrupted', reason, steps: unfinished } });
}

/** Starts at a user message, so a cut never splits a tool call from its result. */
function fromUserTurn(messages: ModelMessage[]): ModelMessage[] {
  const i = messages.findIndex((m) => m.role === 'user');
  return i < 0 ? [] : messages.slice(i);
}
