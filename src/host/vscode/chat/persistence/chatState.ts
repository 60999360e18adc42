/**
 * Where the chat is kept across window reloads: a JSON file in the extension's workspace storage
 * folder, written by the extension host itself through the one atomic writer. Workspace state
 * (`Memento`) was the first home, but VS Code keeps it in the window, which writes it out with a
 * delay: a reload in a browser (code-server) within about a second of a chat line lost that line.
 * A file on the extension host's disk is there as soon as `save` returns. Without a workspace
 * storage folder (no folder open) workspace state remains the place; an older version's chat in
 * workspace state is read once when no file exists yet. A damaged file is moved aside (`chat.json.corrupt-<time>`).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type * as vscode from 'vscode';
import { errorMessage } from '../../../../core/base';
import { writeFileAtomic } from '../../../../core/fs';
import { moveAside } from '../../../../core/fs';
import type { ModelMessage } from '../../../../core/llm';
import type { ChatEntry } from '../../../../protocol/chat';

const STATE_KEY = 'patchpilot.chat.v1';
const FILE_NAME = 'chat.json';

export interface SavedChat {
  chatId: string;
  entries: ChatEntry[];
  transcript: ModelMessage[];
  /** The run whose end produced `transcript` (absent: before any run, or saved by an older version). */
  transcriptRunId?: string;
}

export class ChatState {
  private readonly file: string | undefined;

  constructor(
    private readonly memento: vscode.Memento,
    storageDir: string | undefined,
    private readonly warn: (message: string) => void,
  ) {
    this.file = storageDir ? path.join(storageDir, FILE_NAME) : undefined;
  }

  load(): SavedChat | undefined {
    if (this.file && existsSync(this.file)) {
      try {
        const parsed = JSON.parse(readFileSync(this.file, 'utf8')) as unknown;
        if (isSavedChat(parsed)) return parsed;
        this.setAside('it is not a chat');
      } catch (err) {
        this.setAside(errorMessage(err));
      }
      return undefined;
    }
    const old = this.memento.get<unknown>(STATE_KEY);
    return isSavedChat(old) ? old : undefined;
  }

  /** A damaged file is kept for a look (the history store has the runs either way); the next save starts a new one. */
  private setAside(why: string): void {
    const movedTo = moveAside(this.file!);
    this.warn(`the saved chat could not be read (${why}); ${movedTo ? `moved to ${movedTo}` : 'it could not be moved aside'}, starting a new chat`);
  }

  save(chat: SavedChat): void {
    if (!this.file) {
      void this.memento.update(STATE_KEY, chat).then(undefined, (err: unknown) => this.warn(`chat not saved: ${errorMessage(err)}`));
      return;
    }
    try {
      mkdirSync(path.dirname(this.file), { recursive: true });
      writeFileAtomic(this.file, JSON.stringify(chat));
    } catch (err) {
      this.warn(`chat not saved to ${this.file}: ${errorMessage(err)}`);
    }
  }
}

function isSavedChat(v: unknown): v is SavedChat {
  const c = v as SavedChat | undefined;
  return typeof c === 'object' && c !== null && typeof c.chatId === 'string' && Array.isArray(c.entries) && Array.isArray(c.transcript);
}
