/**
 * Conversations as they were shown: when a chat is replaced (New Chat, another conversation opened),
 * its lines (tool rows, patch cards, restore points, test results, usage) are kept in the workspace
 * storage folder, so "Open Conversation" brings back every step as it was shown live, not only the
 * words. The history store stays the record; this is the view's copy. One file per conversation,
 * named by its first run; the newest MAX_KEPT are kept. No `vscode` import.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { errorMessage } from '../../../../core/base';
import { writeFileAtomic } from '../../../../core/fs';
import type { ChatEntry } from '../../../../protocol/chat';

const MAX_KEPT = 100;

interface Archived {
  runIds: string[];
  entries: ChatEntry[];
}

/** The runs a chat's lines show, in order (their `run/started` events). */
export function runIdsOf(entries: readonly ChatEntry[]): string[] {
  const ids: string[] = [];
  for (const e of entries) if (e.kind === 'event' && e.event.type === 'run/started' && e.event.runId) ids.push(e.event.runId);
  return ids;
}

export class ChatArchive {
  private readonly dir: string | undefined;

  constructor(
    storageDir: string | undefined,
    private readonly warn: (message: string) => void,
  ) {
    this.dir = storageDir ? path.join(storageDir, 'conversations') : undefined;
  }

  /** Keeps a chat's lines (nothing when it ran nothing: its words alone are in the history). */
  keep(entries: readonly ChatEntry[]): void {
    const runIds = runIdsOf(entries);
    if (!this.dir || runIds.length === 0) return;
    try {
      mkdirSync(this.dir, { recursive: true });
      writeFileAtomic(path.join(this.dir, `${safeName(runIds[0]!)}.json`), JSON.stringify({ runIds, entries: [...entries] } satisfies Archived));
      this.prune();
    } catch (err) {
      this.warn(`the conversation's lines were not kept (the history still has its runs): ${errorMessage(err)}`);
    }
  }

  /** The lines of the conversation that contains `runId`, as they were shown (undefined: not kept here). */
  find(runId: string): ChatEntry[] | undefined {
    if (!this.dir || !existsSync(this.dir)) return undefined;
    for (const name of readdirSync(this.dir)) {
      if (!name.endsWith('.json')) continue;
      try {
        const kept = JSON.parse(readFileSync(path.join(this.dir, name), 'utf8')) as Archived;
        if (Array.isArray(kept.runIds) && kept.runIds.includes(runId) && Array.isArray(kept.entries)) return kept.entries;
      } catch {
        // A damaged copy: the history's words are shown instead.
      }
    }
    return undefined;
  }

  private prune(): void {
    const files = readdirSync(this.dir!)
      .filter((n) => n.endsWith('.json'))
      .map((n) => ({ file: path.join(this.dir!, n), at: statSync(path.join(this.dir!, n)).mtimeMs }))
      .sort((a, b) => b.at - a.at);
    for (const old of files.slice(MAX_KEPT)) rmSync(old.file, { force: true });
  }
}

/** A run id as a file name (ids are UUIDs; anything else is made safe). */
function safeName(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 100);
}
